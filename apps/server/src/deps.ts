import type { Signer } from '@storefront/attest';
import type { Fetcher } from '@storefront/safe-fetch';
import type { Ed25519NoteKey } from '@storefront/tlog';
import type { Logger } from 'pino';
import {
  developmentProcessor,
  type PaymentProcessor,
  stripeProcessor,
} from './billing/processor.js';
import type { Config } from './config.js';
import type { Database } from './db/database.js';
import { createDoors, type Doors, termsOf } from './doors/index.js';
import { pricesOf } from './doors/x402/batch.js';
import { ledgerFor } from './doors/x402/chain.js';
import {
  type OfferReceiptKeys,
  randomOfferReceiptKeys,
  x402Extensions,
} from './doors/x402/offer-receipt.js';
import { type HttpSignatureKey, randomHttpSignatureKey } from './http/message-signature.js';
import { HostLimiter, HostRulesCache, type JobServices } from './jobs/crawl.js';
import { JobPayments } from './jobs/payments.js';
import { JobQueue, queueSchemaOf } from './jobs/queue.js';
import { scheduleRedemption } from './jobs/redeem.js';
import type { WebhookServices } from './jobs/webhooks.js';
import { logKey, randomLogKeySeed } from './log/key.js';
import type { LogWitness } from './log/witness-config.js';
import { type AccessTokens, accessTokens } from './metering/access-tokens.js';
import { Meter } from './metering/meter.js';
import { type TierPlans, tierPlans } from './metering/tiers.js';
import type { PipelineDeps } from './pipeline/call.js';
import { createProbes, type Probes } from './probes/index.js';
import { REGISTRY } from './registry/index.js';
import type { AnyRoute } from './registry/types.js';
import type { Compute } from './work/compute.js';

/** The part of the configuration the app reads, with its public address resolved. */
export type AppConfig = Pick<
  Config,
  | 'trustProxy'
  | 'adminToken'
  | 'payment'
  | 'enterprisePerMinute'
  | 'reservationTtlSeconds'
  | 'callDeadlineMs'
> &
  Partial<Pick<Config, 'jobs' | 'logWitnesses'>> &
  Partial<Pick<Config, 'env' | 'billing'>> & { readonly publicBaseUrl: string };

/**
 * What the app is built from: the parts `main` (or a test) makes itself. Everything
 * else is made from them by {@link buildDeps}, once.
 */
export interface AppParts {
  readonly config: AppConfig;
  readonly db: Database;
  readonly signer: Signer;
  /** The only way the service reaches the network. */
  readonly fetcher: Fetcher;
  readonly logger: Logger;
  readonly version: string;
  readonly clock: () => Date;
  /** Where routes run their CPU-bound work: the product threads, or inline. */
  readonly compute: Compute;
  /**
   * This instance's own address (its bound loopback address), where the development
   * payment processor delivers its webhooks. Default: `publicBaseUrl`.
   */
  readonly selfUrl?: string;
  /** The payment processor; default from `config.billing` ({@link paymentProcessor}). */
  readonly processor?: PaymentProcessor;
  /**
   * The network besides HTTP fetches (DNS queries, guarded TLS handshakes); default: the
   * system's resolver, TLS audits on port 443.
   */
  readonly probes?: Probes;
  /**
   * This instance's lease (`instances`), which holds its reservations; absent, they are
   * released only by the reservation-age sweep.
   */
  readonly instanceId?: string | null;
  /** True once the instance is shutting down (paid calls answer 503, /healthz 503). */
  readonly draining?: () => boolean;
  /** The paid routes; default {@link REGISTRY}. */
  readonly registry?: readonly AnyRoute[];
  /**
   * The tier table; default the standard one with the configured enterprise rate. A
   * benchmark passes one with other limits (calls at scale on a key that pays by credits).
   */
  readonly plans?: TierPlans;
  /** The job queue's schema; default `graphile_worker` (`queueSchemaOf`). */
  readonly queueSchema?: string;
  /** The webhook retry schedule (ms); default Standard Webhooks' (`WEBHOOK_RETRY_MS`). */
  readonly webhookRetryMs?: readonly number[];
  /**
   * The secret of OAuth access tokens (`accessTokenSecret` of the signer key, so every
   * instance with that key reads every instance's tokens); default: random, this app only.
   */
  readonly accessTokenSecret?: Buffer;
  /**
   * The key that authorizes this service's `batch-settlement` claims and refunds
   * (`receiverAuthorizerKey` of the signer key); absent, the facilitator's authorizer.
   */
  readonly receiverAuthorizerKey?: `0x${string}`;
  /**
   * The key that signs HTTP answers and webhooks (RFC 9421; `httpSignatureKey` of the
   * signer key); default: random, this app only.
   */
  readonly httpSignatureKey?: HttpSignatureKey;
  /**
   * The keys of x402 offers and receipts (`offerReceiptKeys` of the signer key); default:
   * random, this app only.
   */
  readonly offerReceiptKeys?: OfferReceiptKeys;
  /**
   * The seed of the transparency log's checkpoint key (`logKeySeed` of the signer key);
   * default: random, this app only.
   */
  readonly logKeySeed?: Uint8Array;
}

/** What the job routes and the job workers share. */
export interface JobDeps {
  readonly queue: JobQueue;
  /** The x402 door's terms and settlement of jobs. */
  readonly payments: JobPayments;
  readonly services: JobServices & WebhookServices;
}

/**
 * Everything the app needs, built once by {@link buildDeps} (the composition root):
 * routes and pages read it and never build a part of their own.
 */
export interface AppDeps {
  readonly config: AppConfig;
  readonly db: Database;
  readonly signer: Signer;
  readonly fetcher: Fetcher;
  readonly logger: Logger;
  readonly version: string;
  readonly clock: () => Date;
  /** The meter's statements: admissions, answers and commits, grouped. */
  readonly meter: Meter;
  readonly compute: Compute;
  readonly selfUrl: string;
  readonly processor: PaymentProcessor;
  readonly probes: Probes;
  readonly instanceId: string | null;
  readonly draining: () => boolean;
  /** The paid routes: every route, page and discovery document that lists routes reads this. */
  readonly registry: readonly AnyRoute[];
  /** The tier table, with the configured enterprise rate. */
  readonly plans: TierPlans;
  /** The access doors, shared by every adapter that reaches them. */
  readonly doors: Doors;
  /** What a paid call's pipeline needs, whichever adapter runs it. */
  readonly pipeline: PipelineDeps;
  /** Crawl jobs: their queue, and what their tasks need. */
  readonly jobs: JobDeps;
  /** OAuth access tokens (client credentials), each standing for one key. */
  readonly accessTokens: AccessTokens;
  /** The key of the RFC 9421 signatures of paid answers and webhooks. */
  readonly httpSignatureKey: HttpSignatureKey;
  /** The keys of the x402 `offer-receipt` extension's offers and receipts. */
  readonly offerReceiptKeys: OfferReceiptKeys;
  /** The transparency log's checkpoint key, named by the log's origin (`logOrigin`). */
  readonly logKey: Ed25519NoteKey;
  /** The witnesses the log's checkpoints go to: `LOG_WITNESSES`, then any `addWitness` added. */
  readonly witnesses: () => readonly LogWitness[];
  /** Add a witness (the development one `pnpm start` runs beside the service). */
  readonly addWitness: (witness: LogWitness) => void;
}

/** Build the app's dependencies from its parts: the one place they are assembled. */
export function buildDeps(parts: AppParts): AppDeps {
  const { config } = parts;
  const plans = parts.plans ?? tierPlans(config.enterprisePerMinute);
  const instanceId = parts.instanceId ?? null;
  const meter = new Meter(parts.db, parts.logger, { plans, instanceId });
  const draining = parts.draining ?? (() => false);
  // Without probes of its own the app asks the system's resolver and audits port 443.
  const probes =
    parts.probes ?? createProbes({ dnsResolver: null, safeFetchAllow: '', tlsPort: 443 });
  const tokens = accessTokens(parts.accessTokenSecret);
  const registry = parts.registry ?? REGISTRY;
  const queue = new JobQueue(parts.queueSchema ?? queueSchemaOf(undefined));
  const httpKey = parts.httpSignatureKey ?? randomHttpSignatureKey();
  const witnesses: LogWitness[] = [...(config.logWitnesses ?? [])];
  const offerKeys = parts.offerReceiptKeys ?? randomOfferReceiptKeys();
  const doors = createDoors({
    config,
    db: parts.db,
    signer: parts.signer,
    clock: parts.clock,
    meter,
    plans,
    accessTokens: tokens,
    prices: pricesOf(registry),
    receiverAuthorizerKey: parts.receiverAuthorizerKey ?? null,
    scheduleRedemption: (tx) =>
      scheduleRedemption(queue, tx, parts.clock(), config.payment.batchRedeemSeconds),
  });
  const jobs: JobDeps = {
    queue,
    payments: new JobPayments({
      terms: termsOf({ config, signer: parts.signer }),
      facilitatorUrl: config.payment.facilitatorUrl,
      facilitatorTimeoutMs: config.payment.facilitatorTimeoutMs,
      publicBaseUrl: config.publicBaseUrl,
      ledger: ledgerFor(config.payment.rpcUrl, config.payment.network, config.payment.asset),
      clock: parts.clock,
      offerReceiptKeys: offerKeys,
    }),
    services: {
      db: parts.db,
      queue,
      fetcher: parts.fetcher,
      compute: parts.compute,
      signer: parts.signer,
      clock: parts.clock,
      publicBaseUrl: config.publicBaseUrl,
      registry,
      logger: parts.logger,
      pageBudgetMs: config.callDeadlineMs,
      hosts: new HostLimiter(config.jobs?.perHost ?? 8),
      hostRules: new HostRulesCache(),
      httpSignatureKey: httpKey,
      ...(parts.webhookRetryMs === undefined ? {} : { retryMs: parts.webhookRetryMs }),
    },
  };
  return {
    config,
    db: parts.db,
    signer: parts.signer,
    fetcher: parts.fetcher,
    logger: parts.logger,
    version: parts.version,
    clock: parts.clock,
    meter,
    compute: parts.compute,
    selfUrl: parts.selfUrl ?? config.publicBaseUrl,
    processor: parts.processor ?? paymentProcessor(config),
    probes,
    instanceId,
    draining,
    registry,
    plans,
    doors,
    pipeline: {
      fetcher: parts.fetcher,
      compute: parts.compute,
      signer: parts.signer,
      clock: parts.clock,
      publicBaseUrl: config.publicBaseUrl,
      probes,
      draining,
      extensions: x402Extensions(offerKeys, config.publicBaseUrl, parts.clock),
    },
    jobs,
    accessTokens: tokens,
    httpSignatureKey: httpKey,
    offerReceiptKeys: offerKeys,
    logKey: logKey(parts.logKeySeed ?? randomLogKeySeed(), config.publicBaseUrl),
    witnesses: () => witnesses,
    addWitness: (witness) => {
      witnesses.push(witness);
    },
  };
}

/**
 * The processor of subscriptions and credit packs: Stripe when configured, else the
 * development processor, which production never runs (the configuration already
 * refuses to start without Stripe there; this is the second line).
 */
export function paymentProcessor(config: AppConfig): PaymentProcessor {
  const stripe = config.billing?.stripe ?? null;
  if (stripe !== null) return stripeProcessor(stripe);
  if (config.env === 'production') {
    throw new Error(
      'The development payment processor is refused in production: set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET',
    );
  }
  return developmentProcessor(config.publicBaseUrl);
}
