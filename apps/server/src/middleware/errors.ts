import type { ServerResponse } from 'node:http';
import { isAnswerCode, StorefrontError } from '@storefront/core';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { type ErrorBody, errorStatus } from '../http/error-status.js';
import { signedEndOf } from '../http/signed-answer.js';
import { requestIdOf } from './request-id.js';

/** JSON 404 for every path no route answers. */
export function notFound(): RequestHandler {
  return function notFoundHandler(req, res) {
    const requestId = requestIdOf(res);
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
 * 400 `invalid_params`, as does a path the router cannot percent-decode; anything else is logged with the request id and
 * answered 500 `internal_error`. No stack trace ever reaches the client.
 */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return function errorHandlerMiddleware(error: unknown, req, res, next) {
    if (res.headersSent) {
      next(error);
      return;
    }
    const requestId = requestIdOf(res);
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
    } else if (error instanceof URIError && (error as { status?: unknown }).status === 400) {
      // The router could not percent-decode a path parameter (`/buy/%E0`).
      status = errorStatus('invalid_params');
      body = {
        ok: false,
        error: 'invalid_params',
        message: 'The request path is not valid percent-encoding',
      };
    } else {
      const end = signedEndOf(res);
      internalError(logger, res, error, { method: req.method, path: req.path }, end);
      return;
    }

    if (status >= 500 && body.error !== 'internal_error') {
      logger.error({ err: error, requestId }, 'server error');
    }
    res.status(status).json({ ...body, ...(requestId ? { requestId } : {}) });
  };
}

/**
 * Answer a request whose handler failed unexpectedly: logged with the request id, answered
 * 500 `internal_error` with that id and nothing else (no stack trace), or, when the
 * answer's head has gone out already, the connection closed.
 */
export function internalError(
  logger: Logger,
  res: ServerResponse,
  error: unknown,
  request: { readonly method: string | undefined; readonly path: string },
  /** Writes the answer instead of a plain `res.end` (a signed answer, `endSigned`). */
  end?: (status: number, json: string) => void,
): void {
  const requestId = requestIdOf(res);
  logger.error({ err: error, requestId, ...request }, 'unhandled error');
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body: ErrorBody = {
    ok: false,
    error: 'internal_error',
    message: `Internal error; nothing was charged. Quote request id ${requestId ?? 'unknown'} to support.`,
    ...(requestId ? { requestId } : {}),
  };
  const json = JSON.stringify(body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  if (end !== undefined) {
    end(500, json);
    return;
  }
  res.statusCode = 500;
  res.setHeader('Content-Length', Buffer.byteLength(json, 'utf8'));
  res.end(json, 'utf8');
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
