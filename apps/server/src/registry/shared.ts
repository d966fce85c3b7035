import type { FetchedDocument } from '@storefront/core';
import type { SafeFetchFailure, SafeFetchResult } from '@storefront/safe-fetch';
import { ComputeLimitError } from '../work/limits.js';
import type {
  Checked,
  JsonSchema,
  ParamProblem,
  PriceTier,
  Signable,
  WorkContext,
  WorkOutcome,
} from './types.js';

/** The spec's limit on `url` (and `domain`). */
export const URL_MAX_CHARS = 2048;

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

/** True when a fetch failure is a refusal of the target itself, never charged on any route. */
export function refusedTarget(error: string): boolean {
  return error === 'invalid_url' || error === 'blocked_ssrf';
}

/** The `url` an answer reports for a failed fetch: where it failed, else what was asked. */
export function failureUrl(failure: SafeFetchFailure, requested: string): string {
  return failure.url ?? requested;
}

/** A fetched document whose status is not 2xx is an upstream HTTP error for page products. */
export function httpError(doc: FetchedDocument): boolean {
  return doc.status < 200 || doc.status > 299;
}

/** The message for an upstream HTTP error. */
export function httpErrorMessage(doc: FetchedDocument): string {
  return `The page answered HTTP ${doc.status}`;
}

/** Outcome of fetching the page a route reads. */
export type PageFetch =
  | { readonly ok: true; readonly doc: FetchedDocument }
  | {
      readonly ok: false;
      readonly error: string;
      readonly message: string;
      readonly url: string;
      readonly status: number | null;
    };

/**
 * Fetch a page for a product that needs a 2xx document: safe-fetch failures and
 * non-2xx answers become one failure shape (error code, message, url, status).
 */
export function pageFrom(result: SafeFetchResult, requested: string): PageFetch {
  if (!result.ok) {
    return {
      ok: false,
      error: result.error,
      message: result.message,
      url: failureUrl(result, requested),
      status: result.status ?? null,
    };
  }
  if (httpError(result.doc)) {
    return {
      ok: false,
      error: 'upstream_http_error',
      message: httpErrorMessage(result.doc),
      url: result.doc.url,
      status: result.doc.status,
    };
  }
  return { ok: true, doc: result.doc };
}

/**
 * The answer for a page that could not be read: delivered `ok:false` (charged or not
 * by the route's rule), or 503 before charging on `before-charging` routes.
 */
export function failedPage(
  failure: Extract<PageFetch, { ok: false }>,
  undeliverable: boolean,
  extra: Record<string, unknown> = {},
): WorkOutcome {
  const body: Record<string, unknown> = {
    ok: false,
    url: failure.url,
    ...(failure.status === null ? {} : { status: failure.status }),
    ...extra,
    error: failure.error,
    message: failure.message,
  };
  return undeliverable
    ? { kind: 'undeliverable', body, error: failure.error, upstreamStatus: failure.status }
    : {
        kind: 'delivered',
        ok: false,
        body,
        sign: null,
        error: failure.error,
        upstreamStatus: failure.status,
      };
}

/** A product's `ok:false` on a fetched document, in the same shape. */
export function failedProduct(
  doc: FetchedDocument,
  error: string,
  message: string | undefined,
  undeliverable: boolean,
  extra: Record<string, unknown> = {},
): WorkOutcome {
  return failedPage(
    { ok: false, error, message: message ?? error, url: doc.url, status: doc.status },
    undeliverable,
    extra,
  );
}

/**
 * Run route `route`'s `compute` on `input` through `context.compute` (a product thread).
 * A task stopped at the thread's deadline or heap bound becomes a 503 before charging
 * (`page_too_complex`) whatever the route's rule: the service gave up on the page, so
 * the call is free.
 */
export async function computed<O>(
  context: Pick<WorkContext, 'compute'>,
  route: string,
  input: unknown,
  doc: FetchedDocument,
): Promise<
  { readonly ok: true; readonly value: O } | { readonly ok: false; readonly outcome: WorkOutcome }
> {
  try {
    return { ok: true, value: await context.compute<O>(route, input) };
  } catch (error) {
    if (!(error instanceof ComputeLimitError)) throw error;
    return {
      ok: false,
      outcome: failedProduct(doc, 'page_too_complex', error.message, true),
    };
  }
}

/**
 * Fetch `url` and run route `route`'s `compute` on the page: the start of every route
 * that reads one page and answers a failed fetch as delivered `ok:false` (charged or
 * not by its rule). `input` builds the compute's input from the fetched document.
 */
export async function fetchAndCompute<O>(
  context: Pick<WorkContext, 'fetcher' | 'compute'>,
  url: string,
  route: string,
  input: (doc: FetchedDocument) => unknown,
): Promise<
  | { readonly ok: true; readonly doc: FetchedDocument; readonly value: O }
  | { readonly ok: false; readonly outcome: WorkOutcome }
> {
  const page = pageFrom(await context.fetcher.fetch(url), url);
  if (!page.ok) return { ok: false, outcome: failedPage(page, false) };
  const { doc } = page;
  const run = await computed<O>(context, route, input(doc), doc);
  return run.ok ? { ok: true, doc, value: run.value } : run;
}

/** A successful answer: the body, and the text and envelope its receipt signs. */
export function signedAnswer(body: Record<string, unknown>, sign: Signable): WorkOutcome {
  return { kind: 'delivered', ok: true, body, sign, error: null, upstreamStatus: sign.status };
}

/** A delivered `ok:false` answer that is not about a fetched page (robots, availability). */
export function failedAnswer(
  url: string,
  status: number | null,
  fetchedAt: string,
  error: string,
  message: string | undefined,
): WorkOutcome {
  return {
    kind: 'delivered',
    ok: false,
    body: {
      ok: false,
      url,
      ...(status === null ? {} : { status }),
      fetchedAt,
      error,
      message: message ?? error,
    },
    sign: null,
    error,
    upstreamStatus: status,
  };
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
