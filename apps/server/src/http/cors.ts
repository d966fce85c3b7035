import type { RequestHandler } from 'express';

/** Request headers a browser may send to the public routes (beyond the safelisted ones). */
export const CORS_REQUEST_HEADERS = [
  'Authorization',
  'Content-Type',
  'X-PAYMENT',
  'PAYMENT-SIGNATURE',
  'X-Request-Id',
] as const;

/** Response headers a browser script may read (beyond the safelisted ones). */
export const CORS_EXPOSED_HEADERS = [
  'X-Request-Id',
  'Storefront-Charge',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
  'RateLimit-Policy',
  'Retry-After',
  'Allow',
  'X-PAYMENT-RESPONSE',
  'PAYMENT-RESPONSE',
  'PAYMENT-REQUIRED',
] as const;

/** How long a browser may reuse a preflight answer (s). */
const PREFLIGHT_MAX_AGE = 600;

/** Exact public paths and the method each answers. */
const PUBLIC_PATHS: ReadonlyMap<string, string> = new Map([
  ['/catalog', 'GET'],
  ['/manifest', 'GET'],
  ['/openapi.json', 'GET'],
  ['/x402/discovery', 'GET'],
  ['/x402/verify', 'POST'],
  ['/api/dev/balance', 'GET'],
]);

/**
 * The method a public path answers cross-origin, or null for a path that is not public
 * (`/admin/*`, key issuance, the portal, health). Public: every `/buy/*` route, the
 * discovery documents, `/.well-known/*`, `/x402/verify` and the key's balance.
 */
export function corsMethod(path: string): string | null {
  const lower = path.toLowerCase();
  if (lower.startsWith('/buy/') || lower.startsWith('/.well-known/')) return 'GET';
  return PUBLIC_PATHS.get(lower.replace(/\/+$/, '')) ?? null;
}

/**
 * CORS for the public routes (docs/decisions.md, "CORS"): any origin, no cookies (the
 * key travels in `Authorization`, which a script sends explicitly), the headers clients
 * read exposed. A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`)
 * is answered 204 here, before any route, so it never reaches a door. Every other
 * request goes on with the headers set, so errors carry them too.
 */
export function cors(): RequestHandler {
  const allowHeaders = CORS_REQUEST_HEADERS.join(', ');
  const exposeHeaders = CORS_EXPOSED_HEADERS.join(', ');
  return function corsHeaders(req, res, next) {
    const method = corsMethod(req.path);
    if (method === null) return next();
    res.setHeader('Access-Control-Allow-Origin', '*');
    const preflight =
      req.method === 'OPTIONS' &&
      req.get('origin') !== undefined &&
      req.get('access-control-request-method') !== undefined;
    if (!preflight) {
      res.setHeader('Access-Control-Expose-Headers', exposeHeaders);
      return next();
    }
    res.setHeader('Access-Control-Allow-Methods', method);
    res.setHeader('Access-Control-Allow-Headers', allowHeaders);
    res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE));
    res.status(204).end();
  };
}
