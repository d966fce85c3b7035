import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { type NextFunction, type Request, type Response, Router } from 'express';
import type { AppDeps } from '../deps.js';
import type { HttpSignatureKey } from '../http/message-signature.js';
import { getOnly } from '../http/methods.js';
import { endSigned } from '../http/signed-answer.js';
import { written } from '../http/written.js';
import { internalError } from '../middleware/errors.js';
import { type Prelude, pathOf } from '../middleware/prelude.js';
import { requestIdOf } from '../middleware/request-id.js';
import { type CallRequest, type Exchange, runPaidCall } from '../pipeline/call.js';
import type { CallResult } from '../pipeline/door.js';
import { PROVENANCE_HEADER, questionOfTarget } from '../pipeline/provenance.js';
import type { AnyRoute } from '../registry/types.js';

/** The payment headers of the x402 door (v2, v1). */
const PAYMENT_HEADERS = ['payment-signature', 'x-payment'] as const;

const PREFIX = '/buy/';

/**
 * The paid calls' own adapter, on Node's request and response (docs/decisions.md, "Paid
 * calls on Node's HTTP, not Express"): it takes `GET /buy/<product>` for a product in
 * the catalog and returns true; anything else (another method, an unknown product, any
 * other path) it leaves to Express and returns false, having touched nothing. A taken
 * call goes through the same prelude as every request, then `runPaidCall`: this adapter
 * only reads the request, picks the door and writes the pipeline's results. It matches
 * as Express's `/buy/:product` would: the path's case ignored, one trailing slash
 * allowed, the name percent-decoded and compared in lower case.
 */
export function paidCalls(
  deps: AppDeps,
  prelude: Prelude,
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const { pipeline } = deps;
  const { key: keys, x402 } = deps.doors;
  const routes = new Map(deps.registry.map((route) => [route.path.slice(PREFIX.length), route]));

  const call = async (req: IncomingMessage, res: ServerResponse, route: AnyRoute) => {
    const target = req.url ?? '';
    const query = target.indexOf('?');
    const request: CallRequest = {
      route,
      query: query === -1 ? {} : parseQuery(target.slice(query + 1)),
      requestId: requestIdOf(res) ?? null,
      header: (name) => headerOf(req, name),
      question: () => questionOfTarget(target),
    };
    // A payment is used when one is sent, even beside a key (x402.md §2); a key without
    // a payment goes to the key door; neither is answered with the terms, by the x402 door.
    const paid = PAYMENT_HEADERS.some((name) => req.headers[name] !== undefined);
    const exchange = exchangeOf(req, res, deps.httpSignatureKey);
    const budgetMs = deps.config.callDeadlineMs;
    try {
      if (paid || req.headers.authorization === undefined) {
        await runPaidCall(pipeline, x402, request, exchange, budgetMs);
      } else {
        await runPaidCall(pipeline, keys, request, exchange, budgetMs);
      }
    } catch (error) {
      internalError(
        deps.logger,
        res,
        error,
        { method: req.method, path: pathOf(target) },
        (status, json) => void endSigned(req, res, deps.httpSignatureKey, status, json),
      );
    }
  };

  return function paidCall(req, res) {
    if (req.method !== 'GET') return false;
    const route = routeOf(routes, req.url ?? '');
    if (route === null) return false;
    prelude(req, res, () => void call(req, res, route));
    return true;
  };
}

/** The catalog route `target` names as `/buy/<product>`, or null. */
function routeOf(routes: ReadonlyMap<string, AnyRoute>, target: string): AnyRoute | null {
  const path = pathOf(target);
  if (path.length <= PREFIX.length || path.slice(0, PREFIX.length).toLowerCase() !== PREFIX) {
    return null;
  }
  let name = path.slice(PREFIX.length);
  if (name.endsWith('/')) name = name.slice(0, -1);
  if (name.includes('%')) {
    try {
      name = decodeURIComponent(name);
    } catch {
      return null;
    }
  }
  if (name === '' || name.includes('/')) return null;
  return routes.get(name.toLowerCase()) ?? null;
}

/** A request header by (lower-case) name, as one string. */
function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The paid routes' other methods on Express: `/buy/<product>` with any method but GET
 * gets 405 (`getOnly`); GET never reaches here for a product in the catalog.
 */
export function buyRoutes(deps: AppDeps): Router {
  const router = Router();
  const methods = getOnly([...deps.registry.map((route) => route.name), 'signal']);
  router.all('/buy/:product', (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET') return methods(req, res, next);
    next();
  });
  return router;
}

/** The pipeline's view of a Node response. */
function exchangeOf(req: IncomingMessage, res: ServerResponse, key: HttpSignatureKey): Exchange {
  const left = new AbortController();
  const onClose = () => {
    if (!res.writableFinished) left.abort();
  };
  res.once('close', onClose);
  return {
    left: left.signal,
    async send(result, ready) {
      res.off('close', onClose);
      if (res.destroyed) return false;
      const ended = written(res);
      await sendJson(req, res, key, result, ready);
      return ended;
    },
  };
}

/**
 * Answer a paid call over HTTP: a delivered result is 200, a refusal its own status;
 * JSON, not cacheable, with its `response-provenance` claim in `Response-Provenance`
 * (base64 JSON, as the x402 headers) when it has one, and sent as is (no ETag, so never an empty 304 for a paid call,
 * which would be a charge without a result), signed with RFC 9421 (`endSigned`). A
 * string body: Node writes it with the head in one piece, where a Buffer goes as a
 * second chunk. Written once `ready` (if any) has resolved.
 */
function sendJson(
  req: IncomingMessage,
  res: ServerResponse,
  key: HttpSignatureKey,
  result: CallResult,
  ready?: Promise<void>,
): Promise<void> {
  const json = JSON.stringify(result.body);
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  if (result.kind === 'delivered' && result.provenance !== undefined) {
    res.setHeader(
      PROVENANCE_HEADER,
      Buffer.from(JSON.stringify(result.provenance), 'utf8').toString('base64'),
    );
  }
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  const status = result.kind === 'delivered' ? 200 : result.status;
  return endSigned(req, res, key, status, json, req.url ?? '/', ready);
}
