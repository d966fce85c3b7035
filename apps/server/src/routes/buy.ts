import { type NextFunction, type Request, type Response, Router } from 'express';
import type { AppDeps } from '../deps.js';
import { getOnly } from '../http/methods.js';
import { written } from '../http/written.js';
import { type CallRequest, type Exchange, runPaidCall } from '../pipeline/call.js';
import type { CallResult } from '../pipeline/door.js';

/** The payment headers of the x402 door (v2, v1). */
const PAYMENT_HEADERS = ['payment-signature', 'x-payment'] as const;

/**
 * The paid routes on Express: one route and a map (a paid call matches one layer,
 * whatever the catalog's size); a method other than GET on a paid route gets 405. This
 * adapter only reads the request, picks the door and writes the pipeline's results; the
 * call itself is `runPaidCall`.
 */
export function buyRoutes(deps: AppDeps): Router {
  const router = Router();
  const { pipeline } = deps;
  const { key: keys, x402 } = deps.doors;

  const routes = new Map(deps.registry.map((route) => [route.path.slice('/buy/'.length), route]));
  const methods = getOnly([...deps.registry.map((route) => route.name), 'signal']);
  router.all('/buy/:product', async (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET') return methods(req, res, next);
    const route = routes.get(String(req.params.product).toLowerCase());
    if (route === undefined) return next();
    const request: CallRequest = {
      route,
      query: req.query as Record<string, unknown>,
      requestId: (res.locals.requestId as string | undefined) ?? null,
      header: (name) => req.get(name),
    };
    // A payment is used when one is sent, even beside a key (x402.md §2); a key without
    // a payment goes to the key door; neither is answered with the terms, by the x402 door.
    const paid = PAYMENT_HEADERS.some((name) => req.get(name) !== undefined);
    if (paid || req.get('authorization') === undefined) {
      await runPaidCall(pipeline, x402, request, exchangeOf(res), deps.config.callDeadlineMs);
    } else {
      await runPaidCall(pipeline, keys, request, exchangeOf(res), deps.config.callDeadlineMs);
    }
  });
  return router;
}

/** The pipeline's view of an Express response. */
function exchangeOf(res: Response): Exchange {
  const left = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) left.abort();
  };
  res.once('close', onClose);
  return {
    left: left.signal,
    send(result) {
      res.off('close', onClose);
      if (res.destroyed) return Promise.resolve(false);
      sendJson(res, result);
      return written(res);
    },
  };
}

/**
 * Answer a paid call over HTTP: a delivered result is 200, a refusal its own status;
 * JSON, not cacheable, and sent as is. Express's `res.json` would hash the body for an
 * ETag and could answer a matching `If-None-Match` with an empty 304, which for a paid
 * call would be a charge without a result.
 */
function sendJson(res: Response, result: CallResult): void {
  // A string body: Node writes it with the head in one piece, where a Buffer goes as a
  // second chunk.
  const json = JSON.stringify(result.body);
  res.statusCode = result.kind === 'delivered' ? 200 : result.status;
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(json, 'utf8'));
  res.setHeader('Cache-Control', 'no-store');
  res.end(json, 'utf8');
}
