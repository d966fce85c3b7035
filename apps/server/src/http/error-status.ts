import { ERROR_STATUS, type ErrorCode } from '@storefront/core';

/**
 * The HTTP status of an error the server answers itself: the code's status in
 * `ERROR_STATUS`, the one table. A code that is only ever delivered inside a result
 * (upstream and product failures) never reaches the error handler on its own; if one
 * did, it would be a fault of the service, so it is answered 500.
 */
export function errorStatus(code: ErrorCode): number {
  const status = ERROR_STATUS[code];
  return status === 'result' ? 500 : status;
}

/** The JSON body of every error answer. */
export interface ErrorBody {
  readonly ok: false;
  readonly error: ErrorCode;
  readonly message: string;
  readonly details?: readonly unknown[];
  readonly requestId?: string;
}
