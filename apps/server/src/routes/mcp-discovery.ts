import type { ErrorCode } from '@storefront/core';
import { type Request, type Response, Router } from 'express';
import type { AppDeps } from '../deps.js';
import { MCP_PROTOCOL_VERSIONS } from '../doors/mcp/server.js';
import { type ErrorBody, errorStatus } from '../http/error-status.js';
import { jobPagePrices, jobsInstructions } from '../jobs/discovery.js';
import {
  MCP_MODERN_PROTOCOL_VERSION,
  MCP_PATH,
  MCP_SERVER,
  MCP_TRANSPORT,
} from '../mcp-identity.js';
import { requestIdOf } from '../middleware/request-id.js';

/** Where the discovery blob is also served, so nothing depends on `Accept` sniffing. */
export const MCP_WELL_KNOWN = '/.well-known/mcp.json';

/**
 * OAuth and OpenID metadata paths a client probes (RFC 9728 protected resource, RFC 8414
 * authorization server, OpenID discovery), bare, with a path after them
 * (`/.well-known/oauth-protected-resource/mcp`) or, for OpenID, after a path
 * (`/mcp/.well-known/openid-configuration`).
 */
const OAUTH_METADATA =
  /^(?:\/.*)?\/\.well-known\/(?:oauth-protected-resource|oauth-authorization-server|openid-configuration)(?:\/.*)?$/i;

/**
 * The JSON the MCP endpoint shows to a plain `GET` (a browser, curl) and at
 * `/.well-known/mcp.json`: what it is, how to connect, how to authenticate, which tools.
 * Informational: no MCP specification defines it (docs/decisions.md, "GET /mcp").
 */
export function mcpDiscovery(deps: Pick<AppDeps, 'config' | 'version' | 'registry'>) {
  const base = deps.config.publicBaseUrl;
  return {
    name: MCP_SERVER.name,
    title: MCP_SERVER.title,
    description: MCP_SERVER.description,
    version: deps.version,
    protocolVersions: [...MCP_PROTOCOL_VERSIONS],
    latestProtocolVersion: MCP_MODERN_PROTOCOL_VERSION,
    transport: MCP_TRANSPORT,
    endpoint: `${base}${MCP_PATH}`,
    usage:
      'POST one JSON-RPC message per request; answers are JSON and there is no session. Protocol 2026-07-28: no initialize; each request carries _meta["io.modelcontextprotocol/protocolVersion"] and clientCapabilities and the MCP-Protocol-Version, Mcp-Method and Mcp-Name headers (server/discover, tools/list, tools/call and, for crawl_job, with the io.modelcontextprotocol/tasks extension declared in clientCapabilities, tasks/get, tasks/update and tasks/cancel). Earlier revisions: initialize, then tools/list, tools/call and, for crawl_job, tasks/*. GET with Accept: text/event-stream and DELETE answer 405: the server opens no stream and keeps no session.',
    auth: {
      type: 'bearer',
      header: 'Authorization: Bearer <key>',
      requiredFor: ['tools/call'],
      issue: `${base}/api/dev/keys`,
      howTo: `POST ${base}/api/dev/keys mints a sandbox key (mk_test_, free calls); ?live=true mints a key that spends prepaid credits. A tool call costs its route's catalog price.`,
      balance: `${base}/api/dev/balance`,
      oauth: {
        grant: 'client_credentials',
        tokenEndpoint: `${base}/oauth/token`,
        protectedResourceMetadata: `${base}/.well-known/oauth-protected-resource${MCP_PATH}`,
        howTo:
          'POST grant_type=client_credentials with client_id = the key id (key_…) and client_secret = the key; the access token stands for that key for an hour.',
      },
    },
    tools: deps.registry.map((route) => route.name),
    jobs: {
      crawl: `${base}/jobs/crawl`,
      pagePrices: jobPagePrices(deps.registry),
      note: jobsInstructions(deps.registry, base),
    },
    links: {
      developers: `${base}/developers`,
      catalog: `${base}/catalog`,
      openapi: `${base}/openapi.json`,
      manifest: `${base}/manifest`,
      self: `${base}${MCP_WELL_KNOWN}`,
    },
    note: 'Informational, not part of the MCP specification; MCP clients connect with POST.',
  };
}

/** Whether the request asks for a server-sent event stream (an MCP client's GET). */
function wantsEventStream(req: Request): boolean {
  return (req.get('accept') ?? '').toLowerCase().includes('text/event-stream');
}

/** One error answer in the service's shape, with its code's status. */
function sendError(res: Response, code: ErrorCode, message: string): void {
  const requestId = requestIdOf(res);
  const body: ErrorBody = { ok: false, error: code, message, ...(requestId ? { requestId } : {}) };
  res.status(errorStatus(code)).json(body);
}

/** 405 with `allow`, never stored by a cache (the same URL answers 200 to other requests). */
function methodNotAllowed(res: Response, allow: string, message: string): void {
  res.setHeader('Allow', allow);
  res.setHeader('Cache-Control', 'no-store');
  sendError(res, 'method_not_allowed', message);
}

/**
 * Every method on `/mcp` but `POST`, which goes on to the MCP door, and the JSON 404 of
 * the OAuth metadata paths (DESIGN §7, "GET /mcp"; docs/decisions.md):
 * - `GET` (and `HEAD`) whose `Accept` includes `text/event-stream`: an MCP client opening
 *   the optional server stream. 405 with `Allow: POST`, as the transport allows; a 200
 *   there makes clients reconnect in a loop.
 * - any other `GET`: the discovery blob. Never authenticated: a 401 would send
 *   OAuth-capable clients into an authorization flow.
 * - `DELETE` (ending a session; there are none): 405 with `Allow: POST`.
 * - every other method, a plain `OPTIONS` included: 405 with `Allow: GET, POST`. A CORS
 *   preflight was answered before (`http/cors.ts`).
 */
export function mcpDiscoveryRoutes(deps: AppDeps): Router {
  const router = Router();
  const blob = mcpDiscovery(deps);
  const base = deps.config.publicBaseUrl;

  router.all(MCP_PATH, function mcpMethods(req, res, next) {
    switch (req.method) {
      case 'POST':
        return next();
      case 'GET':
      case 'HEAD':
        res.vary('Accept');
        if (wantsEventStream(req)) {
          return methodNotAllowed(
            res,
            'POST',
            `\`${req.method} ${MCP_PATH}\` with Accept: text/event-stream: this server opens no event stream; POST JSON-RPC messages to ${base}${MCP_PATH}`,
          );
        }
        res.setHeader('Cache-Control', 'public, max-age=300');
        res.json(blob);
        return;
      case 'DELETE':
        return methodNotAllowed(
          res,
          'POST',
          `\`DELETE ${MCP_PATH}\`: this server keeps no sessions, so there is none to end`,
        );
      default:
        return methodNotAllowed(
          res,
          'GET, POST',
          `\`${req.method} ${MCP_PATH}\`: the MCP endpoint answers POST (JSON-RPC) and GET (this server's description)`,
        );
    }
  });

  router.get(MCP_WELL_KNOWN, (_req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(blob);
  });

  // Without a JSON answer here, OAuth-probing clients meet a 404 they cannot parse.
  router.use(function oauthMetadata(req, res, next) {
    if (!OAUTH_METADATA.test(req.path)) return next();
    sendError(
      res,
      'not_found',
      `\`${req.method} ${req.path}\`: no metadata here. The MCP endpoint's protected-resource metadata is at ${base}/.well-known/oauth-protected-resource${MCP_PATH} and the authorization server's (client credentials) at ${base}/.well-known/oauth-authorization-server; or send \`Authorization: Bearer <key>\` with a key from POST ${base}/api/dev/keys`,
    );
  });
  return router;
}
