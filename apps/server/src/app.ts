import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import express, { type Express } from 'express';
import type { AppDeps } from './deps.js';
import { signedJson } from './http/signed-answer.js';
import { errorHandler, notFound } from './middleware/errors.js';
import { type Prelude, prelude } from './middleware/prelude.js';
import { adminRoutes } from './routes/admin.js';
import { attestationRoutes } from './routes/attestation.js';
import { billingRoutes } from './routes/billing.js';
import { buyRoutes, paidCalls } from './routes/buy.js';
import { devCheckoutRoutes } from './routes/dev-checkout.js';
import { devKeyRoutes } from './routes/dev-keys.js';
import { developerRoutes } from './routes/developers.js';
import { discoveryRoutes } from './routes/discovery.js';
import { healthRoutes } from './routes/health.js';
import { jobRoutes } from './routes/jobs.js';
import { logRoutes } from './routes/log.js';
import { mcpRoutes } from './routes/mcp.js';
import { mcpDiscoveryRoutes } from './routes/mcp-discovery.js';
import { oauthRoutes } from './routes/oauth.js';
import { pageRoutes } from './routes/pages.js';
import { signalRoutes } from './routes/signal.js';

// The processor is chosen where the dependencies are built; re-exported for its importers.
export { paymentProcessor } from './deps.js';

export { COMPRESS_FROM_BYTES } from './middleware/prelude.js';

/** The service's request listener, as `createApp` returns it. */
export type App = RequestListener<typeof IncomingMessage, typeof ServerResponse>;

/**
 * The service's request listener, on its dependencies, built once by `buildDeps`
 * (`deps.ts`); it builds nothing itself and never listens (tests call it in-process).
 * A paid call (`GET /buy/<product>`) goes to the paid calls' own adapter on Node's HTTP;
 * every other request to Express (docs/decisions.md, "Paid calls on Node's HTTP, not
 * Express"). Both run the same prelude first.
 */
export function createApp(deps: AppDeps): App {
  const first = prelude(deps.logger);
  const paid = paidCalls(deps, first);
  const app = expressApp(deps, first);
  return function storefront(req, res) {
    if (!paid(req, res)) app(req, res);
  };
}

/** Every route but the paid calls' GET, on Express, after `first`. */
export function expressApp(deps: AppDeps, first: Prelude): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.set('query parser', 'simple');

  app.use(function requestPrelude(req, res, next) {
    first(req, res, next);
  });
  // Every JSON answer under /buy is signed (RFC 9421), as the paid calls' own are.
  app.use('/buy', signedJson(deps.httpSignatureKey));
  // Paid calls' other methods first (405): only GET reaches a paid route's door.
  app.use(buyRoutes(deps));
  app.use(healthRoutes(deps));
  app.use(attestationRoutes(deps));
  app.use(logRoutes(deps));
  app.use(signalRoutes(deps));
  app.use(discoveryRoutes(deps));
  // OAuth metadata and the client-credentials grant, before the JSON 404s of other
  // metadata paths below.
  app.use(oauthRoutes(deps));
  // GET, DELETE and other methods on /mcp, /.well-known/mcp.json, JSON 404s of the OAuth
  // metadata paths; POST /mcp goes on to the MCP door after them.
  app.use(mcpDiscoveryRoutes(deps));
  app.use(mcpRoutes(deps));
  app.use(developerRoutes(deps));
  app.use(pageRoutes(deps));
  app.use(devKeyRoutes(deps));
  app.use(billingRoutes(deps));
  app.use(devCheckoutRoutes(deps));
  app.use(adminRoutes(deps));
  app.use(jobRoutes(deps));

  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
