import type { Signer } from '@storefront/attest';
import type { Fetcher } from '@storefront/safe-fetch';
import compression from 'compression';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { createDoors } from './doors/index.js';
import { cors } from './http/cors.js';
import { getOnly } from './http/methods.js';
import type { Settlements } from './metering/settlements.js';
import { errorHandler, notFound } from './middleware/errors.js';
import { requestLogger } from './middleware/logging.js';
import { requestId } from './middleware/request-id.js';
import type { Probes } from './probes/index.js';
import { REGISTRY } from './registry/index.js';
import { adminRoutes } from './routes/admin.js';
import { attestationRoutes } from './routes/attestation.js';
import { buyRoutes } from './routes/buy.js';
import { devKeyRoutes } from './routes/dev-keys.js';
import { developerRoutes } from './routes/developers.js';
import { discoveryRoutes } from './routes/discovery.js';
import { healthRoutes } from './routes/health.js';
import { mcpRoutes } from './routes/mcp.js';
import { mcpDiscoveryRoutes } from './routes/mcp-discovery.js';
import { signalRoutes } from './routes/signal.js';
import type { Compute } from './work/compute.js';

/** Everything the app needs, built by `main` (or by a test). */
export interface AppDeps {
  readonly config: Pick<
    Config,
    | 'trustProxy'
    | 'adminToken'
    | 'payment'
    | 'enterprisePerMinute'
    | 'reservationTtlSeconds'
    | 'callDeadlineMs'
  > & { readonly publicBaseUrl: string };
  readonly db: Database;
  readonly signer: Signer;
  /** The only way the service reaches the network. */
  readonly fetcher: Fetcher;
  readonly logger: Logger;
  readonly version: string;
  readonly clock: () => Date;
  /** Ledger updates still running after their answers went out. */
  readonly settlements: Settlements;
  /** Where routes run their CPU-bound work: the product threads, or inline. */
  readonly compute: Compute;
  /** The network besides HTTP fetches (DNS queries, guarded TLS handshakes). */
  readonly probes?: Probes;
}

/** The smallest answer sent compressed (bytes); below it the encoding costs more than it saves. */
export const COMPRESS_FROM_BYTES = 16 * 1024;

/** Build the Express app; it never listens (tests call it in-process). */
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
  // Answers of 16 KiB and more go out compressed when the client accepts gzip or br.
  app.use(compression({ threshold: COMPRESS_FROM_BYTES }));
  // Only GET reaches a `/buy/*` route: HEAD and every other method end here with 405.
  app.all('/buy/:product', getOnly([...REGISTRY.map((route) => route.name), 'signal']));
  // Paid calls first: the hot path matches its route before any other router.
  const doors = createDoors(deps);
  app.use(buyRoutes(deps, doors));
  app.use(healthRoutes(deps));
  app.use(attestationRoutes(deps));
  app.use(signalRoutes(deps));
  app.use(discoveryRoutes(deps));
  // GET, DELETE and other methods on /mcp, /.well-known/mcp.json, JSON 404s of the OAuth
  // metadata paths; POST /mcp goes on to the MCP door after them.
  app.use(mcpDiscoveryRoutes(deps));
  app.use(mcpRoutes(deps, doors));
  app.use(developerRoutes(deps));
  app.use(devKeyRoutes(deps));
  app.use(adminRoutes(deps));

  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
