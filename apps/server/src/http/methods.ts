import type { RequestHandler } from 'express';
import { requestIdOf } from '../middleware/request-id.js';
import { type ErrorBody, errorStatus } from './error-status.js';

/**
 * Only `GET` reaches a `/buy/*` route (DESIGN §7, "methods on `/buy/*`"). Any other
 * method on one of `products`, `HEAD` included (Express would run the GET handler for
 * it and the caller would pay for an answer without a body), is answered 405
 * `method_not_allowed` with `Allow: GET` here, before parameters, payment, admission
 * or work. A CORS preflight is answered earlier (`cors.ts`).
 */
export function getOnly(products: Iterable<string>): RequestHandler {
  const known = new Set([...products].map((name) => name.toLowerCase()));
  return function paidMethods(req, res, next) {
    if (req.method === 'GET') return next();
    // Mounted on `/buy/:product`: Express has matched and decoded the name as the GET
    // route will (`/buy/%66etch` is `/buy/fetch`).
    const product = req.params.product;
    if (typeof product !== 'string' || !known.has(product.toLowerCase())) return next();
    const requestId = requestIdOf(res);
    const body: ErrorBody = {
      ok: false,
      error: 'method_not_allowed',
      message: `\`${req.method} ${req.path}\`: paid routes answer GET only`,
      ...(requestId ? { requestId } : {}),
    };
    res.setHeader('Allow', 'GET');
    res.setHeader('Cache-Control', 'no-store');
    res.status(errorStatus('method_not_allowed')).json(body);
  };
}
