import type { IncomingMessage, ServerResponse } from 'node:http';

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
  'WWW-Authenticate',
  'Content-Digest',
  'Signature-Input',
  'Signature',
  'Response-Provenance',
] as const;

/**
 * Request headers a browser may send to the MCP endpoint: the key, the JSON-RPC body's
 * type and the Streamable HTTP transport's own headers.
 */
export const MCP_CORS_REQUEST_HEADERS = [
  'Authorization',
  'Content-Type',
  'MCP-Protocol-Version',
  'Mcp-Method',
  'Mcp-Name',
  'Mcp-Session-Id',
] as const;

/** How long a browser may reuse a preflight answer (s). */
const PREFLIGHT_MAX_AGE = 600;

/** What a preflight of a public path is granted: its methods and request headers. */
export interface CorsPolicy {
  readonly methods: string;
  readonly allowHeaders: readonly string[];
}

const GET: CorsPolicy = { methods: 'GET', allowHeaders: CORS_REQUEST_HEADERS };
const POST: CorsPolicy = { methods: 'POST', allowHeaders: CORS_REQUEST_HEADERS };
/** The MCP endpoint: JSON-RPC over POST, its description over GET. */
const MCP: CorsPolicy = { methods: 'GET, POST', allowHeaders: MCP_CORS_REQUEST_HEADERS };

/** Exact public paths and what each grants. */
const PUBLIC_PATHS: ReadonlyMap<string, CorsPolicy> = new Map([
  ['/catalog', GET],
  ['/manifest', GET],
  ['/openapi.json', GET],
  ['/x402/discovery', GET],
  ['/x402/verify', POST],
  ['/api/dev/balance', GET],
  ['/mcp', MCP],
]);

/**
 * What a public path grants cross-origin, or null for a path that is not public
 * (`/admin/*`, key issuance, the portal, the developer page, health). Public: every
 * `/buy/*` route, the discovery documents, `/.well-known/*`, `/x402/verify`, the key's
 * balance and the MCP endpoint.
 */
export function corsPolicy(path: string): CorsPolicy | null {
  const lower = path.toLowerCase();
  if (lower.startsWith('/buy/') || lower.startsWith('/.well-known/')) return GET;
  return PUBLIC_PATHS.get(lower.replace(/\/+$/, '')) ?? null;
}

/**
 * CORS for the public routes (docs/decisions.md, "CORS"): any origin, no cookies (the
 * key travels in `Authorization`, which a script sends explicitly), the headers clients
 * read exposed. A preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`)
 * is granted the path's methods and request headers and answered 204 here, before any
 * route, so it never reaches a door: the function answers it and returns true. Every
 * other request gets the headers set and goes on (false), so errors carry them too.
 */
export function cors(): (req: IncomingMessage, res: ServerResponse, path: string) => boolean {
  const exposeHeaders = CORS_EXPOSED_HEADERS.join(', ');
  return function corsHeaders(req, res, path) {
    const policy = corsPolicy(path);
    if (policy === null) return false;
    res.setHeader('Access-Control-Allow-Origin', '*');
    const preflight =
      req.method === 'OPTIONS' &&
      req.headers.origin !== undefined &&
      req.headers['access-control-request-method'] !== undefined;
    if (!preflight) {
      res.setHeader('Access-Control-Expose-Headers', exposeHeaders);
      return false;
    }
    res.setHeader('Access-Control-Allow-Methods', policy.methods);
    res.setHeader('Access-Control-Allow-Headers', policy.allowHeaders.join(', '));
    res.setHeader('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE));
    res.statusCode = 204;
    res.end();
    return true;
  };
}
