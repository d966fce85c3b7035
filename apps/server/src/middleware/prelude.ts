import type { IncomingMessage, ServerResponse } from 'node:http';
import compression from 'compression';
import type { Logger } from 'pino';
import { cors } from '../http/cors.js';
import { requestLogger } from './logging.js';
import { assignRequestId } from './request-id.js';

/** The smallest answer sent compressed (bytes); below it the encoding costs more than it saves. */
export const COMPRESS_FROM_BYTES = 16 * 1024;

/**
 * What every request goes through before its handler, on both of the service's adapters
 * (the paid calls' and Express's): calls `next` to go on, or answers (a CORS preflight)
 * and does not.
 */
export type Prelude = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

/**
 * The one prelude of every request: its id, its log line, the base security headers,
 * CORS (a preflight ends here), and compression of answers of 16 KiB and more when the
 * client accepts gzip or br. A request that names no encoding can only get identity,
 * and skips the compression's wrapping.
 */
export function prelude(logger: Logger): Prelude {
  const log = requestLogger(logger);
  const corsHeaders = cors();
  const compress = compression({ threshold: COMPRESS_FROM_BYTES });
  return function requestPrelude(req, res, next) {
    assignRequestId(req, res);
    log(req, res);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (corsHeaders(req, res, pathOf(req.url ?? '/'))) return;
    if (req.headers['accept-encoding'] === undefined) return next();
    // `compression` is Connect middleware: Node's own request and response do.
    compress(req as never, res as never, () => next());
  };
}

/** The path of a request target (the part before its query). */
export function pathOf(target: string): string {
  const query = target.indexOf('?');
  return query === -1 ? target : target.slice(0, query);
}
