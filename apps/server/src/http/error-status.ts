import type { ErrorCode } from '@storefront/core';

/**
 * The HTTP status for an error answered by the server itself. Upstream and product
 * codes are delivered as `200 {ok:false}` after payment, or as 503 on the routes that
 * answer before charging; that choice belongs to the route's charge rule, not here.
 */
export function errorStatus(code: ErrorCode): number {
  switch (code) {
    case 'invalid_params':
      return 400;
    case 'invalid_key':
      return 401;
    case 'payment_required':
    case 'payment_invalid':
    case 'sandbox_exhausted':
    case 'insufficient_credits':
      return 402;
    case 'not_found':
      return 404;
    case 'rate_limited':
      return 429;
    case 'internal_error':
      return 500;
    default:
      return 200;
  }
}

/** The JSON body of every error answer. */
export interface ErrorBody {
  readonly ok: false;
  readonly error: ErrorCode;
  readonly message: string;
  readonly details?: readonly unknown[];
  readonly requestId?: string;
}
