import { createHash } from 'node:crypto';
import { canonicalize } from '@storefront/core';
import { splitTarget } from '../http/request-target.js';

/**
 * Response provenance (docs/decisions.md, "Response provenance"): every paid result
 * carries the x402 `response-provenance` claim, `responseHash = sha256(JCS(fixedPoint))`
 * over the closed fixed point `{endpoint, inputs, result, method, dataVintage}`
 * (x402-foundation/x402 `specs/extensions/response-provenance.md`, PR #3304 at
 * 760e85e99b0924c57f373c9b92d17964af9a247c). The result is carried as the whole body
 * (`resultCarriage: "body"`), which stays exactly the spec's envelope; the claim travels
 * beside it (a header, the x402 settlement response, MCP `_meta`). This is the one place
 * the rule is written; every door's results get it from the pipeline.
 */

/** The extension's key, in `extensions` and MCP `_meta`. */
export const RESPONSE_PROVENANCE = 'response-provenance';

/** The rule set followed: the same five members, `dataVintage` a reduced-precision date. */
export const FIXED_POINT_VERSION = 'GVP-FixedPoint/2';

/** The HTTP header that carries the claim on every paid answer: base64 of its JSON. */
export const PROVENANCE_HEADER = 'Response-Provenance';

/** What was asked, as the proposal maps a request: the path served and the inputs. */
export interface Question {
  /** The request path as served (path only), or the route's path for an MCP tool call. */
  readonly endpoint: string;
  /** The request's inputs: a GET query as strings (`queryInputs`), or MCP `arguments`. */
  readonly inputs: unknown;
}

/** The `response-provenance` extension object of one result. */
export interface ResponseProvenance {
  /** `sha256:` + lowercase hex of the JCS bytes of the fixed point. */
  readonly responseHash: string;
  readonly fixedPointVersion: typeof FIXED_POINT_VERSION;
  /** The result is the body (MCP: `structuredContent`) as delivered, nothing removed. */
  readonly resultCarriage: 'body';
  readonly method: string;
  readonly dataVintage: string;
}

/** The fixed point's five members. */
export interface FixedPoint {
  readonly endpoint: string;
  readonly inputs: unknown;
  readonly result: unknown;
  readonly method: string;
  readonly dataVintage: string;
}

/** `sha256:<hex>` of the RFC 8785 canonical form of `fixedPoint` (its five members only). */
export function responseHash(fixedPoint: FixedPoint): string {
  const { endpoint, inputs, result, method, dataVintage } = fixedPoint;
  const canonical = canonicalize({ dataVintage, endpoint, inputs, method, result });
  return `sha256:${createHash('sha256').update(canonical, 'utf8').digest('hex')}`;
}

/** The `method` member of a route's results: what the computation is, in the catalog's words. */
export function methodOf(route: { readonly path: string; readonly description: string }): string {
  return `storefront ${route.path}: ${route.description}`;
}

const UTC_TIME = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z$/;

/**
 * The `dataVintage` of a result (GVP-FixedPoint/2: `YYYY-MM-DD`): the UTC day its sources
 * were read, its envelope's `fetchedAt`; a result without one (an `ok:false` answer) was
 * read at `now`.
 */
export function dataVintageOf(body: Readonly<Record<string, unknown>>, now: Date): string {
  const at = body.fetchedAt;
  if (typeof at === 'string') {
    // A UTC time as `toISOString` writes it: its day is its first ten characters.
    if (UTC_TIME.test(at)) return at.slice(0, 10);
    const day = new Date(at);
    if (/^\d{4}-\d{2}-\d{2}T/.test(at) && !Number.isNaN(day.getTime())) {
      return day.toISOString().slice(0, 10);
    }
  }
  return now.toISOString().slice(0, 10);
}

/** The claim on `body`, a result of `route` delivered for `question`. */
export function provenanceOf(
  question: Question,
  route: { readonly path: string; readonly description: string },
  body: Readonly<Record<string, unknown>>,
  now: Date,
): ResponseProvenance {
  const method = methodOf(route);
  const dataVintage = dataVintageOf(body, now);
  return {
    responseHash: responseHash({
      endpoint: question.endpoint,
      inputs: question.inputs,
      result: body,
      method,
      dataVintage,
    }),
    fixedPointVersion: FIXED_POINT_VERSION,
    resultCarriage: 'body',
    method,
    dataVintage,
  };
}

/**
 * The claim of a delivered result, or none where the proposal issues none (`no_claim`):
 * a request whose query is malformed (`question` null), or a result with no RFC 8785
 * form (a lone surrogate, which I-JSON forbids).
 */
export function claimOf(
  question: Question | null,
  route: { readonly path: string; readonly description: string },
  body: Readonly<Record<string, unknown>>,
  now: Date,
): ResponseProvenance | null {
  if (question === null) return null;
  try {
    return provenanceOf(question, route, body, now);
  } catch {
    return null;
  }
}

/** One hex digit's value, or -1. */
function hexValue(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 0x30;
  if (code >= 0x41 && code <= 0x46) return code - 0x37;
  if (code >= 0x61 && code <= 0x66) return code - 0x57;
  return -1;
}

const STRICT_UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * One name or value of a query, decoded as the WHATWG `application/x-www-form-urlencoded`
 * parser does (`+` is a space, then percent-decoding to bytes, then UTF-8), with the
 * proposal's two tightenings: a `%` not followed by two hex digits, or bytes that are not
 * UTF-8, make the query malformed (null).
 */
function decodeComponent(raw: string): string | null {
  if (!raw.includes('%') && !raw.includes('+')) {
    // Nothing to decode; a lone surrogate cannot come from a URL's ASCII.
    return raw;
  }
  const bytes: number[] = [];
  const encoder = new TextEncoder();
  for (let i = 0; i < raw.length; i += 1) {
    const code = raw.charCodeAt(i);
    if (code === 0x2b) {
      bytes.push(0x20);
    } else if (code === 0x25) {
      const high = hexValue(raw.charCodeAt(i + 1));
      const low = hexValue(raw.charCodeAt(i + 2));
      if (high < 0 || low < 0) return null;
      bytes.push(high * 16 + low);
      i += 2;
    } else if (code < 0x80) {
      bytes.push(code);
    } else {
      const point = raw.codePointAt(i) ?? code;
      for (const byte of encoder.encode(String.fromCodePoint(point))) bytes.push(byte);
      if (point > 0xffff) i += 1;
    }
  }
  try {
    return STRICT_UTF8.decode(Uint8Array.from(bytes));
  } catch {
    return null;
  }
}

/**
 * The `inputs` of a request without a body: its query (after `?`, before any `#`) as a
 * JSON object, values kept as strings, a name given more than once an array of its values
 * in order; `{}` for no query. Null when the query is malformed (the proposal: no claim
 * is issued for it).
 */
export function queryInputs(query: string): Record<string, string | string[]> | null {
  const hash = query.indexOf('#');
  const text = hash === -1 ? query : query.slice(0, hash);
  const inputs: Record<string, string | string[]> = Object.create(null);
  for (const pair of text.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const name = decodeComponent(eq === -1 ? pair : pair.slice(0, eq));
    const value = decodeComponent(eq === -1 ? '' : pair.slice(eq + 1));
    if (name === null || value === null) return null;
    const had = inputs[name];
    if (had === undefined) inputs[name] = value;
    else if (Array.isArray(had)) had.push(value);
    else inputs[name] = [had, value];
  }
  return { ...inputs };
}

/** The question of an HTTP request target (`/buy/fetch?url=…`); null for a malformed query. */
export function questionOfTarget(target: string): Question | null {
  const { path, query } = splitTarget(target);
  const inputs = query === null ? {} : queryInputs(query);
  return inputs === null ? null : { endpoint: path, inputs };
}
