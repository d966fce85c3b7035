import type { Signer } from '@storefront/attest';
import type { Fetcher } from '@storefront/safe-fetch';
import compression from 'compression';
import express, { type Express } from 'express';
import type { Logger } from 'pino';
import {
  developmentProcessor,
  type PaymentProcessor,
  stripeProcessor,
} from './billing/processor.js';
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
import { billingRoutes } from './routes/billing.js';
import { buyRoutes } from './routes/buy.js';
import { devCheckoutRoutes } from './routes/dev-checkout.js';
import { devKeyRoutes } from './routes/dev-keys.js';
import { developerRoutes } from './routes/developers.js';
import { discoveryRoutes } from './routes/discovery.js';
import { healthRoutes } from './routes/health.js';
import { mcpRoutes } from './routes/mcp.js';
import { mcpDiscoveryRoutes } from './routes/mcp-discovery.js';
import { pageRoutes } from './routes/pages.js';
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
  > &
    Partial<Pick<Config, 'env' | 'billing'>> & { readonly publicBaseUrl: string };
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
  /**
   * This instance's own address (its bound loopback address), where the development
   * payment processor delivers its webhooks. Default: `publicBaseUrl`.
   */
  readonly selfUrl?: string;
  /** The payment processor; default from `config.billing` ({@link paymentProcessor}). */
  readonly processor?: PaymentProcessor;
  /** The network besides HTTP fetches (DNS queries, guarded TLS handshakes). */
  readonly probes?: Probes;
  /**
   * This instance's lease (`instances`), which holds its reservations; absent, they are
   * released only by the reservation-age sweep.
   */
  readonly instanceId?: string;
  /** True once the instance is shutting down (paid calls answer 503, /healthz 503). */
  readonly draining?: () => boolean;
}

/**
 * The processor of subscriptions and credit packs: Stripe when configured, else the
 * development processor, which production never runs (the configuration already
 * refuses to start without Stripe there; this is the second line).
 */
export function paymentProcessor(config: AppDeps['config']): PaymentProcessor {
  const stripe = config.billing?.stripe ?? null;
  if (stripe !== null) return stripeProcessor(stripe);
  if (config.env === 'production') {
    throw new Error(
      'The development payment processor is refused in production: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
    );
  }
  return developmentProcessor(config.publicBaseUrl);
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
  app.use(pageRoutes(deps));
  app.use(devKeyRoutes(deps));
  const processor = deps.processor ?? paymentProcessor(deps.config);
  app.use(billingRoutes(deps, processor));
  app.use(devCheckoutRoutes(deps, processor));
  app.use(adminRoutes(deps));

  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
