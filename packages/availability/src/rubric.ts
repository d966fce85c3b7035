import type { UpstreamErrorCode } from '@storefront/core';
import type { AvailabilityReason, ResponseClass } from './types.js';

/** The version of the verdict rules; it changes whenever a mapping below does. */
export const AVAILABILITY_RUBRIC = 'availability-rubric/1';

/** How one upstream error code is classified. */
export interface ErrorReasonRow {
  /** The reason it gives, or null when the HTTP status (if any) decides. */
  readonly reason: AvailabilityReason | null;
  /** Whether the code by itself means the host produced an HTTP response. */
  readonly impliesResponse: boolean;
}

/**
 * Every error code the rubric knows, and its reason: core's `UPSTREAM_ERROR_CODES` (a
 * code added there does not compile until it has a row here; safe-fetch's codes are
 * among them), the product codes a caller may pass for a response it refused, and
 * `internal_error`.
 * `too_many_redirects` counts as a `redirect-loop`: a chain that does not end within
 * the redirect cap is a loop as far as a visitor can tell.
 */
export const AVAILABILITY_ERROR_REASONS: Readonly<Record<string, ErrorReasonRow>> = Object.freeze({
  invalid_url: row('invalid-url', false),
  blocked_ssrf: row('blocked-ssrf', false),
  dns_failure: row('dns-failure', false),
  timeout: row('timeout', false),
  connection_refused: row('connection-refused', false),
  connection_reset: row('connection-reset', false),
  tls_error: row('tls-error', false),
  protocol_error: row(null, false),
  redirect_loop: row('redirect-loop', true),
  too_many_redirects: row('redirect-loop', true),
  body_too_large: row(null, true),
  upstream_http_error: row(null, true),
  unsupported_content_type: row(null, true),
  parse_error: row(null, true),
  internal_error: row('unreachable', false),
} satisfies { readonly [C in ClassifiedCode]: ErrorReasonRow });

/** The codes {@link AVAILABILITY_ERROR_REASONS} classifies. */
type ClassifiedCode =
  | UpstreamErrorCode
  | 'unsupported_content_type'
  | 'parse_error'
  | 'internal_error';

function row(reason: AvailabilityReason | null, impliesResponse: boolean): ErrorReasonRow {
  return Object.freeze({ reason, impliesResponse });
}

/** The class of an HTTP status (RFC 9110 §15); `unknown` outside 100–599. */
export function classOf(status: number): ResponseClass {
  if (status >= 100 && status <= 199) return '1xx-informational';
  if (status >= 200 && status <= 299) return '2xx-success';
  if (status >= 300 && status <= 399) return '3xx-redirect';
  if (status >= 400 && status <= 499) return '4xx-client-error';
  if (status >= 500 && status <= 599) return '5xx-server-error';
  return 'unknown';
}
