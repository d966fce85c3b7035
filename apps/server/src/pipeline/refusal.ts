import type { ErrorCode } from '@storefront/core';
import { type ErrorBody, errorStatus } from '../http/error-status.js';
import type { ParamProblem } from '../registry/types.js';
import type { Headers, Refusal } from './door.js';
import type { WorkOutcome } from './outcome.js';

/**
 * A refusal of the service's own: its code's status and, over HTTP, the one shape every
 * error has (`{ok:false, error, message, details?, requestId?}`), unless `body` gives
 * another (the payment terms of a 402). `retryAfterSeconds` is also sent as `Retry-After`.
 */
export function refusal(
  code: ErrorCode,
  message: string,
  options: {
    readonly requestId?: string | null;
    readonly details?: readonly ParamProblem[];
    readonly headers?: Headers;
    readonly retryAfterSeconds?: number;
    readonly body?: unknown;
  } = {},
): Refusal {
  const details = options.details ?? [];
  const body: ErrorBody = {
    ok: false,
    error: code,
    message,
    ...(details.length > 0 ? { details } : {}),
    ...(options.requestId ? { requestId: options.requestId } : {}),
  };
  const retry = options.retryAfterSeconds ?? null;
  return {
    kind: 'refused',
    code,
    message,
    status: errorStatus(code),
    retryAfterSeconds: retry,
    details,
    headers: { ...options.headers, ...(retry === null ? {} : { 'Retry-After': String(retry) }) },
    body: options.body === undefined ? body : options.body,
  };
}

/**
 * A result refused by the charge rule (`chargeFor`): answered with `status` and the
 * result's own `ok:false` body, never charged.
 */
export function resultRefusal(outcome: WorkOutcome, status: number, headers: Headers): Refusal {
  const code = outcome.error ?? 'internal_error';
  return {
    kind: 'refused',
    code,
    message: outcome.message ?? code,
    status,
    retryAfterSeconds: null,
    details: [],
    headers,
    body: outcome.body,
  };
}
