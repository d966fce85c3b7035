import type { FetchedDocument } from '@storefront/core';
import type { SafeFetchFailure, SafeFetchResult } from '@storefront/safe-fetch';
import type { Envelope } from '../registry/types.js';

/** What a receipt signs: the canonical text and its envelope. */
export interface Signable extends Envelope {
  readonly text: string;
}

/**
 * What a call's work produced.
 * - `delivered`: a 200 answer. `ok` is the product's verdict; `sign` is present on
 *   success and the body gets `attestation` from it.
 * - `undeliverable`: answered with an error status before charging: 503 on routes whose
 *   rule is `before-charging` (and for any page the service gave up on), or the status
 *   of a code of its own (`not_found` 404).
 */
export type WorkOutcome =
  | {
      readonly kind: 'delivered';
      readonly ok: boolean;
      /** The response body in the spec's field order, without `attestation`. */
      readonly body: Record<string, unknown>;
      readonly sign: Signable | null;
      readonly error: string | null;
      readonly upstreamStatus: number | null;
    }
  | {
      readonly kind: 'undeliverable';
      readonly body: Record<string, unknown>;
      readonly error: string;
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
 * The answer of a failed call: `{ok:false, url, status?, …fields, error, message}`,
 * delivered (charged or not by the route's rule) or, when `undeliverable`, answered
 * before charging.
 */
export function failed(failure: Failure, undeliverable: boolean): WorkOutcome {
  const body: Record<string, unknown> = {
    ok: false,
    url: failure.url,
    ...(failure.status === null ? {} : { status: failure.status }),
    ...failure.fields,
    error: failure.error,
    message: failure.message,
  };
  const { error, status: upstreamStatus } = failure;
  return undeliverable
    ? { kind: 'undeliverable', body, error, upstreamStatus }
    : { kind: 'delivered', ok: false, body, sign: null, error, upstreamStatus };
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
