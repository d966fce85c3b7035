import compression from 'compression';
import express, { type Express } from 'express';
import type { AppDeps } from './deps.js';
import { cors } from './http/cors.js';
import { errorHandler, notFound } from './middleware/errors.js';
import { requestLogger } from './middleware/logging.js';
import { requestId } from './middleware/request-id.js';
import { adminRoutes } from './routes/admin.js';
import { attestationRoutes } from './routes/attestation.js';
import { billingRoutes } from './routes/billing.js';
import { buyRoutes } from './routes/buy.js';
import { devCheckoutRoutes } from './routes/dev-checkout.js';
import { devKeyRoutes } from './routes/dev-keys.js';
import { developerRoutes } from './routes/developers.js';
import { discoveryRoutes } from './routes/discovery.js';
import { healthRoutes } from './routes/health.js';
import { jobRoutes } from './routes/jobs.js';
import { mcpRoutes } from './routes/mcp.js';
import { mcpDiscoveryRoutes } from './routes/mcp-discovery.js';
import { pageRoutes } from './routes/pages.js';
import { signalRoutes } from './routes/signal.js';

// The processor is chosen where the dependencies are built; re-exported for its importers.
export { paymentProcessor } from './deps.js';

/** The smallest answer sent compressed (bytes); below it the encoding costs more than it saves. */
export const COMPRESS_FROM_BYTES = 16 * 1024;

/**
 * Mount the app's routes and middleware on its dependencies, built once by `buildDeps`
 * (`deps.ts`); it builds nothing itself and never listens (tests call it in-process).
 */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy);
  app.set('query parser', 'simple');

  app.use(requestId());
  app.use(requestLogger(deps.logger));
  app.use(function baseHeaders(_req, res, next) {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
    next();
  });

  // Cross-origin reads of the public routes; preflights end here, before any door.
  app.use(cors());
  // Answers of 16 KiB and more go out compressed when the client accepts gzip or br; a
  // request that names no encoding can only get identity, and skips the wrapping.
  const compress = compression({ threshold: COMPRESS_FROM_BYTES });
  app.use(function compressWhenAccepted(req, res, next) {
    if (req.headers['accept-encoding'] === undefined) return next();
    compress(req, res, next);
  });
  // Paid calls first: the hot path matches its route before any other router. Only GET
  // reaches a paid route: HEAD and every other method end there with 405.
  app.use(buyRoutes(deps));
  app.use(healthRoutes(deps));
  app.use(attestationRoutes(deps));
  app.use(signalRoutes(deps));
  app.use(discoveryRoutes(deps));
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
