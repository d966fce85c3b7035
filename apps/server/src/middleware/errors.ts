import { isAnswerCode, StorefrontError } from '@storefront/core';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { type ErrorBody, errorStatus } from '../http/error-status.js';

/** JSON 404 for every path no route answers. */
export function notFound(): RequestHandler {
  return function notFoundHandler(req, res) {
    const requestId = res.locals.requestId as string | undefined;
    const body: ErrorBody = {
      ok: false,
      error: 'not_found',
      message: `No route for \`${req.method} ${req.path}\``,
      ...(requestId ? { requestId } : {}),
    };
    res.status(404).json(body);
  };
}

/**
 * The one terminal error handler: a {@link StorefrontError} becomes
 * `{ok:false, error, message, details?}` with its code's status from `ERROR_STATUS`; an
 * oversized request body becomes 413 `request_too_large`, a malformed or non-UTF-8 one
 * 400 `invalid_params`; anything else is logged with the request id and
 * answered 500 `internal_error`. No stack trace ever reaches the client.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return function errorHandlerMiddleware(error: unknown, req, res, next) {
    if (res.headersSent) {
      next(error);
      return;
    }
    const requestId = res.locals.requestId as string | undefined;
    let status: number;
    let body: ErrorBody;

    if (error instanceof StorefrontError && isAnswerCode(error.code)) {
      status = errorStatus(error.code);
      body = {
        ok: false,
        error: error.code,
        message: error.message,
        ...(error.details ? { details: error.details } : {}),
      };
    } else if (isBodyParserError(error)) {
      // One status per code: a body over the route's limit is `request_too_large`
      // (413, RFC 9110 §15.5.14); one that is not JSON or in another charset is a bad
      // parameter like any other (400), not the parser's 415.
      const code = error.type === 'entity.too.large' ? 'request_too_large' : 'invalid_params';
      status = errorStatus(code);
      body = { ok: false, error: code, message: bodyMessage(error) };
    } else {
      status = 500;
      body = {
        ok: false,
        error: 'internal_error',
        message: `Internal error; nothing was charged. Quote request id ${requestId ?? 'unknown'} to support.`,
      };
      logger.error(
        { err: error, requestId, method: req.method, path: req.path },
        'unhandled error',
      );
    }

    if (status >= 500 && body.error !== 'internal_error') {
      logger.error({ err: error, requestId }, 'server error');
    }
    res.status(status).json({ ...body, ...(requestId ? { requestId } : {}) });
  };
}

interface BodyParserError {
  readonly status: number;
  readonly type: string;
  readonly limit?: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  if (typeof error !== 'object' || error === null) return false;
  const { status, type } = error as { status?: unknown; type?: unknown };
  return typeof status === 'number' && status >= 400 && status < 500 && typeof type === 'string';
}

function bodyMessage(error: BodyParserError): string {
  switch (error.type) {
    case 'entity.parse.failed':
      return 'The request body is not valid JSON';
    case 'entity.too.large':
      return `The request body is larger than ${error.limit ?? 'the limit'} bytes`;
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return 'The request body must be UTF-8 JSON';
    default:
      return 'The request body could not be read';
  }
}
