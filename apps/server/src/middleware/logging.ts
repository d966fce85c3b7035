import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import { requestIdOf } from './request-id.js';

const SECRET_PARAMS = /([?&](?:key|token|api_key|apikey)=)[^&#]*/gi;

/** A URL with credential-bearing query values replaced, safe to log. */
export function redactUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1[redacted]');
}

/**
 * One structured log line per request, tagged with the request id: `request completed`
 * (or `request aborted` when the client left first) with method, redacted URL, status
 * and `responseTime` in ms; `error` level from status 500, `info` below. Credentials
 * never reach the log: headers are not recorded. When the logger would drop both
 * levels the middleware does nothing at all.
 */
export function requestLogger(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  return function requestLog(req, res) {
    if (!logger.isLevelEnabled('error')) return;
    const started = performance.now();
    // The URL as it arrived (a router may rewrite `req.url` on its way).
    const url = req.url ?? '';
    res.once('close', () => {
      const finished = res.writableFinished;
      const level = !finished || res.statusCode >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level](
        {
          req: {
            id: requestIdOf(res),
            method: req.method,
            url: redactUrl(url),
          },
          res: { statusCode: res.statusCode },
          responseTime: Math.round(performance.now() - started),
        },
        finished ? 'request completed' : 'request aborted',
      );
    });
  };
}
