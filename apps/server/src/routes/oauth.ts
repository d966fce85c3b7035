import express, { type Request, type Response, Router } from 'express';
import type { AppDeps } from '../deps.js';
import { MCP_PATH } from '../mcp-identity.js';
import { hashKey, isKeyShaped } from '../metering/keys.js';
import { findKeyByHash } from '../metering/store.js';

/** Where an access token is asked for (the client-credentials grant). */
export const TOKEN_PATH = '/oauth/token';

/** Where RFC 8414 says an authorization endpoint is; this one only says it has none. */
export const AUTHORIZE_PATH = '/oauth/authorize';

/** The largest token request read: a form of a few hundred bytes. */
const MAX_TOKEN_BODY = '8kb';

/** RFC 9728 protected-resource metadata of `resource`, served by this service. */
export function protectedResource(base: string, resource: string) {
  return {
    resource,
    authorization_servers: [base],
    bearer_methods_supported: ['header'],
    resource_name: 'Storefront',
    resource_documentation: `${base}/developers`,
  };
}

/**
 * Machine authorization beside the static key (docs/decisions.md, "Machine
 * authorization"): RFC 9728 protected-resource metadata for the service and its MCP
 * endpoint, RFC 8414 metadata of the service as its own authorization server, and the
 * OAuth 2.0 client-credentials grant (RFC 6749 §4.4) at `/oauth/token`, where the client
 * id is a key's public id (`key_…`) and the secret is the key itself. The access token
 * stands for that key for an hour: the same credits, plan and limits; a key sent as the
 * bearer keeps working.
 */
export function oauthRoutes(deps: AppDeps): Router {
  const router = Router();
  const base = deps.config.publicBaseUrl;
  const metadata = (res: Response, body: object) => {
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.json(body);
  };

  router.get('/.well-known/oauth-protected-resource', (_req, res) =>
    metadata(res, protectedResource(base, base)),
  );
  router.get(`/.well-known/oauth-protected-resource${MCP_PATH}`, (_req, res) =>
    metadata(res, protectedResource(base, `${base}${MCP_PATH}`)),
  );
  router.get('/.well-known/oauth-authorization-server', (_req, res) =>
    metadata(res, {
      issuer: base,
      // RFC 8414 names one; only the client-credentials grant is offered, so it refuses.
      authorization_endpoint: `${base}${AUTHORIZE_PATH}`,
      token_endpoint: `${base}${TOKEN_PATH}`,
      response_types_supported: [],
      grant_types_supported: ['client_credentials'],
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      service_documentation: `${base}/developers`,
    }),
  );
  router.all(AUTHORIZE_PATH, (_req, res) => {
    oauthError(
      res,
      400,
      'unsupported_response_type',
      'Only the client-credentials grant is offered: POST /oauth/token with a key id and its key',
    );
  });

  router.post(
    TOKEN_PATH,
    express.urlencoded({ extended: false, limit: MAX_TOKEN_BODY }),
    async (req: Request, res: Response) => {
      const form = (req.body ?? {}) as Record<string, unknown>;
      if (form.grant_type !== 'client_credentials') {
        oauthError(
          res,
          400,
          form.grant_type === undefined ? 'invalid_request' : 'unsupported_grant_type',
          'grant_type must be client_credentials',
        );
        return;
      }
      const basic = basicCredentials(req.get('authorization'));
      const clientId = basic?.id ?? form.client_id;
      const secret = basic?.secret ?? form.client_secret;
      if (typeof clientId !== 'string' || typeof secret !== 'string') {
        oauthError(
          res,
          401,
          'invalid_client',
          'Send the key id as client_id and the key as client_secret (HTTP Basic or the form)',
          basic !== null,
        );
        return;
      }
      const key = isKeyShaped(secret) ? await findKeyByHash(deps.db, hashKey(secret)) : null;
      if (key === null || key.keyId !== clientId || key.revokedAt !== null) {
        oauthError(
          res,
          401,
          'invalid_client',
          'Unknown client, a secret that is not its key, or a revoked key',
          basic !== null,
        );
        return;
      }
      const { token, expiresIn } = deps.accessTokens.issue(hashKey(secret), deps.clock());
      res.setHeader('Cache-Control', 'no-store');
      res.setHeader('Pragma', 'no-cache');
      res.json({ access_token: token, token_type: 'Bearer', expires_in: expiresIn });
    },
  );
  return router;
}

/** An RFC 6749 §5.2 error answer (401 `invalid_client` with the Basic challenge when Basic was tried). */
function oauthError(
  res: Response,
  status: number,
  error: string,
  description: string,
  basic = false,
): void {
  if (basic) res.setHeader('WWW-Authenticate', 'Basic realm="storefront"');
  res.setHeader('Cache-Control', 'no-store');
  res.status(status).json({ error, error_description: description });
}

/** HTTP Basic client credentials (RFC 6749 §2.3.1: each part form-urlencoded), or null. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null {
  const match = /^Basic[ \t]+([A-Za-z0-9+/]+=*)[ \t]*$/i.exec(header ?? '');
  if (match?.[1] === undefined) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon === -1) return null;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    return null;
  }
}
