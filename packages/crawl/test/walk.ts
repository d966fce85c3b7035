import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { ProductResult } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import type { FetchOutcome, WalkPlan, WalkStop } from '../src/index.js';

/** One URL of a simulated site: a response (body inline, from a file, or gzipped) or a failure. */
export interface PageSpec {
  readonly status?: number;
  readonly contentType?: string | null;
  readonly body?: string;
  readonly bodyBase64?: string;
  /** A file of the fixture folder holding the body. */
  readonly file?: string;
  /** Serve the body gzipped (a `.xml.gz` without `Content-Encoding`). */
  readonly gzip?: boolean;
  /** The final URL, when the request was redirected. */
  readonly redirectTo?: string;
  readonly error?: string;
}

/** A site in memory: URL → what fetching it gives; anything else answers 404. */
export type SiteSpec = Readonly<Record<string, PageSpec>>;

/** What fetching `url` from `site` gives. */
export function fetchFrom(site: SiteSpec, url: string, folder = '.'): FetchOutcome {
  const spec = site[url];
  if (spec === undefined) {
    return {
      ok: true,
      doc: makeDocument('not found', { url, status: 404, contentType: 'text/plain' }),
    };
  }
  if (spec.error !== undefined) return { ok: false, error: spec.error, message: spec.error };
  let body: Uint8Array = Buffer.from(spec.body ?? '', 'utf8');
  if (spec.bodyBase64 !== undefined) body = new Uint8Array(Buffer.from(spec.bodyBase64, 'base64'));
  if (spec.file !== undefined) body = new Uint8Array(readFileSync(join(folder, spec.file)));
  if (spec.gzip === true) body = new Uint8Array(gzipSync(body));
  const final = spec.redirectTo ?? url;
  return {
    ok: true,
    doc: makeDocument(body, {
      url: final,
      requestedUrl: url,
      status: spec.status ?? 200,
      contentType: spec.contentType === undefined ? 'text/html; charset=utf-8' : spec.contentType,
      redirects: spec.redirectTo === undefined ? [] : [url],
    }),
  };
}

/**
 * Run a walk to its end against an in-memory site, as the server's pipeline does:
 * each round's URLs fetched, the outcomes handed back in order; `maxRounds` stops it
 * early as a deadline would. Returns the result and every URL fetched, in order.
 */
export function walk<S, D>(
  first: WalkPlan<S>,
  step: (state: S, outcomes: readonly FetchOutcome[]) => WalkPlan<S>,
  finish: (state: S, stop: WalkStop) => ProductResult<D>,
  site: SiteSpec,
  { folder = '.', maxRounds = Number.POSITIVE_INFINITY } = {},
): { result: ProductResult<D>; fetched: string[] } {
  let plan = first;
  const fetched: string[] = [];
  let rounds = 0;
  while (plan.fetch.length > 0) {
    if (rounds >= maxRounds) return { result: finish(plan.state, 'deadline'), fetched };
    rounds++;
    fetched.push(...plan.fetch);
    plan = step(
      plan.state,
      plan.fetch.map((url) => fetchFrom(site, url, folder)),
    );
  }
  return { result: finish(plan.state, 'done'), fetched };
}

/** A fixture folder's `input.json`. */
export interface FixtureInput {
  readonly url: string;
  readonly options?: Record<string, unknown>;
  readonly site: SiteSpec;
  readonly maxRounds?: number;
}

export function readInput(folder: string): FixtureInput {
  const file = join(folder, 'input.json');
  if (!existsSync(file)) throw new Error(`${file} is missing`);
  return JSON.parse(readFileSync(file, 'utf8')) as FixtureInput;
}
