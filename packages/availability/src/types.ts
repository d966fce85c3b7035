import type { ErrorCode } from '@storefront/core';

/** Where the time of a probe went, in milliseconds (safe-fetch's `FetchTiming` fits). */
export interface ProbeTiming {
  /** From the call until the final response's headers arrived, redirects included. */
  readonly headersMs?: number;
  /** The whole call, body included. */
  readonly totalMs?: number;
}

/** A probe that produced a response (any status); safe-fetch's `SafeFetchSuccess` fits. */
export interface ProbeSuccess {
  readonly ok: true;
  /** The final response: its URL after redirects and its HTTP status. */
  readonly doc: { readonly url: string; readonly status: number };
  readonly timing?: ProbeTiming;
}

/** A probe that failed; safe-fetch's `SafeFetchFailure` fits. */
export interface ProbeFailure {
  readonly ok: false;
  /** An upstream error code (`dns_failure`, `timeout`, …); see the README's table. */
  readonly error: string;
  /** The HTTP status of the response being handled when it failed, when there was one. */
  readonly status?: number;
  /** The URL being fetched when it failed. */
  readonly url?: string;
  readonly timing?: ProbeTiming;
}

/** What {@link classifyAvailability} classifies: a structural copy of safe-fetch's result. */
export type ProbeOutcome = ProbeSuccess | ProbeFailure;

/** Options of {@link classifyAvailability}. */
export interface AvailabilityOptions {
  /** Which timing becomes `responseMs`: time to response headers (default) or the whole call. */
  readonly timing?: 'headersMs' | 'totalMs';
}

/** The class of an HTTP status, `unknown` for a status outside 100–599, `none` without one. */
export type ResponseClass =
  | '1xx-informational'
  | '2xx-success'
  | '3xx-redirect'
  | '4xx-client-error'
  | '5xx-server-error'
  | 'unknown'
  | 'none';

/** Why the verdict is what it is: `ok`, a response class, or a network failure category. */
export type AvailabilityReason =
  | 'ok'
  | Exclude<ResponseClass, 'none'>
  | 'dns-failure'
  | 'timeout'
  | 'connection-refused'
  | 'connection-reset'
  | 'tls-error'
  | 'redirect-loop'
  | 'blocked-ssrf'
  | 'invalid-url'
  | 'unreachable';

/** The verdict: the spec's `data` for `/buy/availability`. */
export interface AvailabilityData {
  /** True iff the response class is 2xx or 3xx. */
  readonly up: boolean;
  /** True iff any HTTP response was produced. */
  readonly reachable: boolean;
  readonly httpStatus: number | null;
  readonly responseClass: ResponseClass;
  readonly reason: AvailabilityReason;
  /** The verdict rubric version, {@link AVAILABILITY_RUBRIC}. */
  readonly rubric: string;
  /** Milliseconds to the response (telemetry only: not part of `text`), or null. */
  readonly responseMs: number | null;
}

/** The failures {@link classifyAvailability} can report: the probe could not be performed. */
export type AvailabilityErrorCode = Extract<
  ErrorCode,
  'invalid_url' | 'blocked_ssrf' | 'internal_error'
>;
