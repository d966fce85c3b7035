import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

const ACCEPTED = /^[A-Za-z0-9._:-]{1,128}$/;

/** Each answer's request id, for the handlers and the log line that come after. */
const IDS = new WeakMap<ServerResponse, string>();

/**
 * Give a request its id: the caller's `X-Request-Id` when it is short and plain, else a
 * fresh UUID. It is echoed in the response header and in every log line, and
 * {@link requestIdOf} gives it to the handlers.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const incoming = req.headers['x-request-id'];
  const id = typeof incoming === 'string' && ACCEPTED.test(incoming) ? incoming : randomUUID();
  IDS.set(res, id);
  res.setHeader('X-Request-Id', id);
  return id;
}

/** The request id of the answer `res` (undefined only before the prelude has run). */
export function requestIdOf(res: ServerResponse): string | undefined {
  return IDS.get(res);
}
