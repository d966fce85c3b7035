import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Give every request an id: the caller's `X-Request-Id` when it is short and plain,
 * else a fresh UUID. It is echoed in the response header and in every log line.
 */
export function requestId(): RequestHandler {
  return function requestIdMiddleware(req, res, next) {
    const incoming = req.get('x-request-id');
    const id = incoming !== undefined && ACCEPTED.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}
