import type { FetchedDocument } from '@storefront/core';
import type { SafeFetchFailure, SafeFetchResult } from '@storefront/safe-fetch';
import type { Envelope } from '../registry/types.js';

/** What a receipt signs: the canonical text and its envelope. */
export interface Signable extends Envelope {
  readonly text: string;
}

/**
 * What a call's work produced, before any charge rule is applied (`chargeFor` decides
 * what each costs and how it is answered).
 * - `delivered`: the product's answer. `ok` is its verdict; `sign` is present on
 *   success and the body gets `attestation` from it. An `ok:false` answer is delivered,
 *   charged or not, or answered before charging, by the route's rule.
 * - `undeliverable`: the service gave up on the page (a product past its deadline or
 *   heap bound): answered 503 `page_too_complex` before charging, whatever the rule.
 */
export type WorkOutcome =
  | {
      readonly kind: 'delivered';
      readonly ok: boolean;
      /** The response body in the spec's field order, without `attestation`. */
      readonly body: Record<string, unknown>;
      readonly sign: Signable | null;
      readonly error: string | null;
      /** The failure's message; absent on success. */
      readonly message?: string;
      readonly upstreamStatus: number | null;
    }
  | {
      readonly kind: 'undeliverable';
      readonly body: Record<string, unknown>;
      readonly error: string;
      readonly message?: string;
      readonly upstreamStatus: number | null;
    };

/** Where and why a call's work failed. */
export interface Failure {
  readonly error: string;
  readonly message: string;
  readonly url: string;
  readonly status: number | null;
  /** Fields of the route's failure body between `status` and `error`. */
  readonly fields?: Record<string, unknown>;
}

/**
 * The answer of a failed call: `{ok:false, url, status?, …fields, error, message}`; when
 * the service `gaveUp` on the page, undeliverable whatever the route's rule.
 */
export function failed(failure: Failure, gaveUp = false): WorkOutcome {
  const body: Record<string, unknown> = {
    ok: false,
    url: failure.url,
    ...(failure.status === null ? {} : { status: failure.status }),
    ...failure.fields,
    error: failure.error,
    message: failure.message,
  };
  const { error, message, status: upstreamStatus } = failure;
  return gaveUp
    ? { kind: 'undeliverable', body, error, message, upstreamStatus }
    : { kind: 'delivered', ok: false, body, sign: null, error, message, upstreamStatus };
}

/** A successful answer: the body, and the text and envelope its receipt signs. */
export function succeeded(body: Record<string, unknown>, sign: Signable): WorkOutcome {
  return { kind: 'delivered', ok: true, body, sign, error: null, upstreamStatus: sign.status };
}

/** The `url` an answer reports for a failed fetch: where it failed, else what was asked. */
function failureUrl(failure: SafeFetchFailure, requested: string): string {
  return failure.url ?? requested;
}

/**
 * A page for a product that needs a 2xx document (any status with `anyStatus`), or the
 * failure: safe-fetch failures and non-2xx answers become one shape.
 */
export function pageOf(
  result: SafeFetchResult,
  requested: string,
  anyStatus: boolean,
): { readonly ok: true; readonly doc: FetchedDocument } | ({ readonly ok: false } & Failure) {
  if (!result.ok) {
    return {
      ok: false,
      error: result.error,
      message: result.message,
      url: failureUrl(result, requested),
      status: result.status ?? null,
    };
  }
  const { doc } = result;
  if (!anyStatus && (doc.status < 200 || doc.status > 299)) {
    return {
      ok: false,
      error: 'upstream_http_error',
      message: `The page answered HTTP ${doc.status}`,
      url: doc.url,
      status: doc.status,
    };
  }
  return { ok: true, doc };
}
