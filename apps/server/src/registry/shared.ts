import { URL_MAX_CHARS } from '@storefront/core';
import type { Checked, JsonSchema, ParamProblem, PriceTier } from './types.js';

export { URL_MAX_CHARS };

/** The public page a route's sample query names (catalogs show it; it is never fetched by a test). */
export const EXAMPLE_URL = 'https://example.com/';

/** `url`: an absolute http(s) URL of at most 2048 characters. */
export const URL_PARAM: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: URL_MAX_CHARS,
  description: 'Absolute http or https URL of the page (at most 2048 characters).',
};

/** A string parameter with a closed set of values. */
export function enumParam(values: readonly string[], description: string, fallback?: string) {
  return {
    type: 'string',
    enum: values,
    description,
    ...(fallback === undefined ? {} : { default: fallback }),
  } as const;
}

/** The query schema of a route: string properties, the required ones, nothing else. */
export function paramsSchema(
  properties: Readonly<Record<string, JsonSchema>>,
  required: readonly string[],
): JsonSchema {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** A single price point named after the route. */
export function onePrice(tier: string, amount: number, includes: string): readonly PriceTier[] {
  return [{ tier, amount, includes }];
}

/**
 * Check that `value` is an absolute http(s) URL with a host. Returns the problem, or
 * null. Private and internal targets are refused later, at connect time (safe-fetch),
 * where the resolved address is known.
 */
export function urlProblem(param: string, value: string): ParamProblem | null {
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    return { param, message: `Expected \`${param}\` to be an absolute http or https URL` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return {
      param,
      message: `Expected \`${param}\` to be an http or https URL, got scheme \`${parsed.protocol.slice(0, -1)}\``,
    };
  }
  if (parsed.hostname === '') return { param, message: `Expected \`${param}\` to name a host` };
  if (parsed.username !== '' || parsed.password !== '') {
    return { param, message: `Expected \`${param}\` without credentials (user:password@)` };
  }
  return null;
}

/** Gather problems into a {@link Checked} answer. */
export function checked<P>(
  problems: readonly (ParamProblem | null)[],
  params: () => P,
): Checked<P> {
  const details = problems.filter((p): p is ParamProblem => p !== null);
  return details.length > 0 ? { ok: false, details } : { ok: true, params: params() };
}

// ---------------------------------------------------------------------------------
// Response schema pieces.

/** The receipt every successful answer carries. */
export const ATTESTATION_SCHEMA: JsonSchema = {
  type: 'object',
  required: ['keyId', 'alg', 'address', 'contentHash', 'nonce', 'signedAt', 'signature', 'verify'],
  additionalProperties: false,
  properties: {
    keyId: { type: 'string' },
    alg: { const: 'EIP-191-personal_sign' },
    address: { type: 'string', pattern: '^0x[0-9a-fA-F]{40}$' },
    contentHash: { type: 'string', pattern: '^0x[0-9a-f]{64}$' },
    nonce: { type: 'string' },
    signedAt: { type: 'string', format: 'date-time' },
    signature: { type: 'string', pattern: '^0x[0-9a-f]{130}$' },
    verify: {
      type: 'object',
      required: ['message', 'howTo'],
      additionalProperties: false,
      properties: { message: { type: 'string' }, howTo: { type: 'string' } },
    },
  },
};

export const STRING = { type: 'string' } as const;
export const NULLABLE_STRING = { type: ['string', 'null'] } as const;
export const INTEGER = { type: 'integer' } as const;
export const BOOLEAN = { type: 'boolean' } as const;
export const ISO_TIME = { type: 'string', format: 'date-time' } as const;
export const STRINGS = { type: 'array', items: { type: 'string' } } as const;
export const STRING_MAP = { type: 'object', additionalProperties: { type: 'string' } } as const;

/**
 * A response schema: `ok` and `url` required, the route's fields, plus the error
 * fields (`error`, `message`) every `ok:false` answer carries. Closed when the spec
 * says "no other fields allowed".
 */
export function responseSchema(
  properties: Readonly<Record<string, JsonSchema>>,
  closed: boolean,
): JsonSchema {
  return {
    type: 'object',
    required: ['ok', 'url'],
    additionalProperties: !closed,
    properties: {
      ok: BOOLEAN,
      url: STRING,
      ...properties,
      error: { type: 'string', description: 'Present only when ok is false: the reason code.' },
      message: { type: 'string', description: 'Present only when ok is false: what happened.' },
      attestation: ATTESTATION_SCHEMA,
    },
  };
}

/** A closed object schema with every listed property required. */
export function record(
  properties: Readonly<Record<string, JsonSchema>>,
  optional: readonly string[] = [],
) {
  return {
    type: 'object',
    required: Object.keys(properties).filter((name) => !optional.includes(name)),
    additionalProperties: false,
    properties,
  } as const;
}
