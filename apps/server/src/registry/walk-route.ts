import type { ProductResult } from '@storefront/core';
import type { Shaped, WalkSource } from './types.js';

/** A `limit` query parameter: an integer from 1 to `max` written in decimal. */
export function limitParam(max: number, what: string) {
  return {
    type: 'string',
    pattern: '^[0-9]{1,6}$',
    maxLength: 6,
    description: `The most ${what}: an integer from 1 to ${max} (default ${max}).`,
    default: String(max),
  } as const;
}

/** The `limit` of a query: the number, or what is wrong with it. `max` when absent. */
export function readLimitParam(value: string | undefined, max: number): number | string {
  if (value === undefined) return max;
  const limit = /^[0-9]{1,6}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > max) {
    return `Expected \`limit\` to be an integer from 1 to ${max}, got \`${value.slice(0, 20)}\``;
  }
  return limit;
}

/**
 * The answer of a walking route (map, crawl): `{ok, url, status, text, fetchedAt, data}`
 * where `url` and `status` are the start page's (after redirects) and `fetchedAt` is
 * when the walk began; the receipt binds the same three.
 */
export function walkShape<D>(
  result: ProductResult<D>,
  requested: string,
  source: WalkSource,
): Shaped {
  if (!result.ok) {
    return {
      ok: false,
      error: result.error,
      message: result.message,
      at: { url: requested, status: null },
      fields: { fetchedAt: source.at },
    };
  }
  const start = (result.extra ?? {}) as { url?: string; status?: number | null };
  const url = start.url ?? requested;
  const status = start.status ?? null;
  return {
    ok: true,
    text: result.text,
    body: { ok: true, url, status, text: result.text, fetchedAt: source.at, data: result.data },
    envelope: { url, status, fetchedAt: source.at },
  };
}
