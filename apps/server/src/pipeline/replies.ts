import type { ErrorCode } from '@storefront/core';
import { type ErrorBody, errorStatus } from '../http/error-status.js';
import type { Headers, Reply } from './door.js';

/**
 * An error answer of the service's own, in the one shape every error has
 * (`{ok:false, error, message, details?, requestId?}`) and its code's status.
 */
export function errorReply(
  code: ErrorCode,
  message: string,
  options: {
    readonly requestId?: string | null;
    readonly details?: readonly unknown[];
    readonly headers?: Headers;
  } = {},
): Reply {
  const body: ErrorBody = {
    ok: false,
    error: code,
    message,
    ...(options.details ? { details: options.details } : {}),
    ...(options.requestId ? { requestId: options.requestId } : {}),
  };
  return { status: errorStatus(code), headers: options.headers ?? {}, body };
}
