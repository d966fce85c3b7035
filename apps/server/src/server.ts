import { randomUUID } from 'node:crypto';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Signer } from '@storefront/attest';
import { createFetcher, type Fetcher } from '@storefront/safe-fetch';
import { type Logger, pino } from 'pino';
import pkg from '../package.json' with { type: 'json' };
import { createApp } from './app.js';
import type { PaymentProcessor } from './billing/processor.js';
import { lapseEndedPlans } from './billing/store.js';
import { type Config, defaultBaseUrl } from './config.js';
import { type Database, openDatabase, serveEmbedded } from './db/database.js';
import { migrate } from './db/migrate.js';
import { registerSigner } from './db/signer-keys.js';
import { buildDeps } from './deps.js';
import { ledgerFor } from './doors/x402/chain.js';
import { releaseExpiredPayments } from './doors/x402/claims.js';
import { reconcilePayments } from './doors/x402/reconcile.js';
import { startHeartbeat } from './heartbeat.js';
import { settleWaitingJobs } from './jobs/payments.js';
import { queueConnection, startJobWorkers } from './jobs/process.js';
import { queueSchemaFor } from './jobs/queue.js';
import { type JobRunner, migrateQueue } from './jobs/runner.js';
import { startSequencer } from './log/sequencer.js';
import { sequence } from './log/store.js';
import type { LogWitness } from './log/witness-config.js';
import { endLease, renewLease, sweepAbandoned } from './metering/store.js';
import type { TierPlans } from './metering/tiers.js';
import { createProbes } from './probes/index.js';
import { ssrfSelfCheck } from './self-check.js';
import { serviceSigner } from './signer-key.js';
import { inlineCompute } from './work/compute.js';
import { ProductPool, SERVER_PREFETCH } from './work/pool.js';

/**
 * How often an instance sweeps what crashed instances and lost answers left: abandoned
 * reservations and x402 claims, settlements of unknown outcome, ended plans.
 */
export const SWEEP_INTERVAL_MS = 30_000;
/**
 * What product threads run from sources get on top of `PRODUCT_HEAP_MB` for the
 * TypeScript loader's own memory (tests, `pnpm dev`); the built server adds nothing.
 */
export const SOURCE_HEAP_MB = 128;

/** Largest request head accepted (request line and headers). */
export const MAX_REQUEST_HEAD_BYTES = 3 * 1024 * 1024 + 64 * 1024;

export { HEARTBEAT_MS, LEASE_SECONDS } from './heartbeat.js';

/**
 * Connections the kernel holds for the server before it accepts them (the kernel caps it
 * at `net.core.somaxconn`, 4096 on current Linux). Node's default, 511, overflows when
 * thousands of callers connect at once: the kernel then drops their handshakes and they
 * retry a second later (docs/decisions.md, "Accept backlog").
 */
export const LISTEN_BACKLOG = 4096;

/** What a drain allows on top of the longest call (its budget, and the x402 facilitator's verify and settle). */
const DRAIN_MARGIN_MS = 5000;

/** A running service. */
export interface RunningServer {
  readonly url: string;
  readonly port: number;
  readonly signer: Signer;
  readonly db: Database;
  /** The payment processor its billing routes use (its webhook secret signs test events). */
  readonly processor: PaymentProcessor;
  /** This instance's lease, which holds its reservations. */
  readonly instanceId: string;
  /**
   * Start and warm every product thread (pdf.js included), which otherwise start on the
   * first call: for callers that time their calls from the first one (tests).
   */
  ready(): Promise<void>;
  /**
   * Read the facilitator's kinds again now (the terms of `batch-settlement`): the server
   * reads them at start, which fails while a payment stack started beside it is not up.
   */
  paymentsStarted(): Promise<void>;
  /** The verifier key of the receipt log's checkpoints (`log.vkey` of the attestation document). */
  readonly logVkey: string;
  /** Submit the log's checkpoints to one more witness (the development one). */
  witnessWith(witness: LogWitness): void;
  /**
   * Drain, then stop: admit no new call (503 `draining`, `/healthz` 503), let the calls
   * in flight finish and their charges commit, give back whatever is still reserved,
   * close the connections and the database. Calls still running after the longest
   * call's time have their connections closed (their reservations are released). Safe
   * to call twice.
   */
  close(): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartOptions {
  readonly logger?: Logger;
  /** Database schema (tests use one per run); default the connection's own. */
  readonly schema?: string;
  /** The payment processor; default from the configuration (`paymentProcessor` in `deps.ts`). */
  readonly processor?: PaymentProcessor;
  /** The webhook retry schedule of job events (ms); tests shorten it. */
  readonly webhookRetryMs?: readonly number[];
  /** The tier table; default the standard one (`tierPlans` in `metering/tiers.ts`). */
  readonly plans?: TierPlans;
  /**
   * The facilitator starts beside the server (the local payment stack): its kinds are
   * read once it runs (`paymentsStarted`), not at start.
   */
  readonly facilitatorLater?: boolean;
}

/**
 * Open the database (PostgreSQL or embedded PGlite), apply migrations, load or
 * create the signer key, record it, and listen. Resolves once the port is bound.
 */
export async function startServer(
  config: Config,
  options: StartOptions = {},
): Promise<RunningServer> {
  const logger =
    options.logger ?? pino({ level: config.logLevel, base: { service: 'storefront' } });
  const where = {
    dataDir: config.dataDir,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
  };
  // Without DATABASE_URL: embedded PGlite, served on loopback so the job queue's own
  // pool reaches the same database.
  const served = config.databaseUrl === null ? await serveEmbedded({ url: null, ...where }) : null;
  const db = served?.db ?? (await openDatabase({ url: config.databaseUrl, ...where }));
  let fetcher: Fetcher | null = null;
  let pool: ProductPool | null = null;
  try {
    const applied = await migrate(db);
    if (applied.length > 0) logger.info({ applied }, 'database migrated');
    // The job queue (graphile-worker) lives in its own schema of the same database.
    const queueSchema = queueSchemaFor(config, options.schema);
    const connection =
      served === null
        ? queueConnection(config.databaseUrl as string, queueSchema)
        : queueConnection(served.url, queueSchema, true);
    await migrateQueue(connection, logger);

    const {
      signer,
      source,
      tokenSecret,
      receiverAuthorizerKey,
      httpSignatureKey,
      offerReceiptKeys,
      logKeySeed,
    } = await serviceSigner(config, logger);
    await registerSigner(db, signer.address, signer.keyId, {
      httpJwk: httpSignatureKey.jwk,
      offerReceipt: { eip712: offerReceiptKeys.eip712.address, jws: offerReceiptKeys.jws.jwk },
    });
    if (source === 'dev-created') {
      logger.warn(
        { address: signer.address, dataDir: config.dataDir },
        'created a development signer key',
      );
    }

    // Test-only loopback pairs; createFetcher itself refuses them under NODE_ENV=production.
    fetcher = createFetcher({ testOnlyAllow: config.safeFetchAllow });

    // Bind first, so that PORT=0 still yields absolute URLs with the real port.
    // The request line carries the query: `content` and `prevText` may be 262,144
    // characters, up to 12 bytes each when percent-encoded, so Node's 16 KiB default
    // header limit would refuse lengths the spec allows.
    const server = createServer({ maxHeaderSize: MAX_REQUEST_HEAD_BYTES });
    // A request that arrives while the rest of the start runs (a health check polling
    // the port) waits for the app rather than going unanswered.
    let handle: RequestListener | null = null;
    const early: Array<() => void> = [];
    server.on('request', (req, res) => {
      if (handle !== null) handle(req, res);
      else early.push(() => handle?.(req, res));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG }, () => {
        server.off('error', reject);
        resolve();
      });
    });
    const { port } = server.address() as AddressInfo;

    // Before serving anything: the guard must refuse the service's own port.
    if (config.env === 'production') {
      const problem = await ssrfSelfCheck(fetcher, port);
      if (problem !== null) {
        server.close();
        throw new Error(`SSRF self-check failed: ${problem}`);
      }
    }
    const url = config.publicBaseUrl ?? defaultBaseUrl(config.host, port);
    const instanceId = randomUUID();
    let draining = false;
    pool =
      config.products.threads > 0
        ? new ProductPool({
            ...config.products,
            sourceHeapMb: SOURCE_HEAP_MB,
            prefetch: SERVER_PREFETCH,
            logger,
          })
        : null;
    // Everything else the app needs is built from these parts, once (`deps.ts`).
    const deps = buildDeps({
      config: { ...config, publicBaseUrl: url },
      db,
      signer,
      fetcher,
      logger,
      version: pkg.version,
      clock: () => new Date(),
      compute: pool?.compute ?? inlineCompute,
      selfUrl: defaultBaseUrl(config.host, port),
      ...(options.processor === undefined ? {} : { processor: options.processor }),
      ...(options.plans === undefined ? {} : { plans: options.plans }),
      probes: createProbes({
        dnsResolver: config.dnsResolver,
        safeFetchAllow: config.safeFetchAllow,
        tlsPort: config.tlsAuditPort,
      }),
      instanceId,
      draining: () => draining,
      queueSchema,
      accessTokenSecret: tokenSecret,
      receiverAuthorizerKey,
      httpSignatureKey,
      offerReceiptKeys,
      logKeySeed,
      ...(options.webhookRetryMs === undefined ? {} : { webhookRetryMs: options.webhookRetryMs }),
    });
    const { meter, processor } = deps;
    // Read the facilitator's kinds now, so the first 402 already offers batch-settlement.
    if (options.facilitatorLater !== true) void deps.doors.batch?.start();
    const app = createApp(deps);

    // The lease is written before any call can reserve under it; then, every second, it
    // is renewed and the reservations of instances whose leases expired are released.
    await renewLease(db, instanceId);
    // Job workers in this process (`pnpm start`); `pnpm worker` runs them alone.
    const runner: JobRunner | null = config.jobs.workers
      ? await startJobWorkers({
          deps,
          db,
          connection,
          instanceId,
          concurrency: config.jobs.concurrency,
          logger,
        })
      : null;
    const heartbeat = startHeartbeat(db, instanceId, queueSchema, logger);
    // The transparency log: a checkpoint from the start, then pending receipts sequenced
    // every second (by one instance at a time).
    await sequence(db, deps.logKey);
    const sequencer = startSequencer(db, deps.logKey, logger, deps.witnesses);

    // Requests being answered, so a drain knows when the last one has ended.
    let active = 0;
    let idle: (() => void) | null = null;
    handle = (req, res) => {
      active += 1;
      // A draining instance answers on a connection it then closes.
      if (draining) res.setHeader('Connection', 'close');
      res.once('close', () => {
        active -= 1;
        if (active === 0) idle?.();
      });
      app(req, res);
    };
    for (const waiting of early.splice(0)) waiting();

    // Release reservations and x402 payments a crashed instance left behind, now and
    // every half minute (a payment once its authorization has expired), record what the
    // chain says of x402 settlements whose answer was lost, and write down the plans
    // whose subscriptions have ended.
    const { rpcUrl, network, asset } = config.payment;
    const ledger = ledgerFor(rpcUrl, network, asset);
    const sweep = () =>
      Promise.all([
        sweepAbandoned(db, config.reservationTtlSeconds),
        releaseExpiredPayments(db),
        lapseEndedPlans(db),
        // A v1 job waits for its payment's outcome: started or removed once it is known.
        reconcilePayments(db, ledger).then(async (settlements) => ({
          settlements,
          jobs: await settleWaitingJobs(db, deps.jobs.queue),
        })),
      ]).then(
        ([released, payments, lapsed, { settlements, jobs }]) => {
          if (released > 0) logger.warn({ released }, 'released abandoned reservations');
          if (payments > 0) logger.warn({ payments }, 'released abandoned x402 payments');
          if (settlements.paid + settlements.expired + settlements.unknown > 0) {
            logger.warn(settlements, 'reconciled x402 settlements of unknown outcome');
          }
          if (jobs.started + jobs.dropped > 0) {
            logger.warn(jobs, 'x402 v1 jobs whose payment outcome became known');
          }
          if (lapsed.length > 0) logger.info({ lapsed: lapsed.length }, 'plans ended');
        },
        (error: unknown) => logger.error({ err: error }, 'reservation sweep failed'),
      );
    await sweep();
    const sweeper = setInterval(sweep, SWEEP_INTERVAL_MS);
    sweeper.unref();
    logger.info({ url, database: db.kind, signer: signer.address }, 'storefront listening');

    // The longest a call admitted now can take: its budget, an x402 verification and
    // settlement (each within the facilitator's timeout), and a margin.
    const drainMs =
      config.callDeadlineMs + 2 * config.payment.facilitatorTimeoutMs + DRAIN_MARGIN_MS;
    let closing: Promise<void> | undefined;
    const close = async () => {
      draining = true;
      logger.info({ inFlight: active }, 'draining: admitting no new calls');
      let forced = false;
      const force = setTimeout(() => {
        forced = true;
        logger.warn({ inFlight: active }, 'drain took too long: closing the remaining connections');
        server.closeAllConnections();
      }, drainMs);
      if (active > 0) {
        await new Promise<void>((resolve) => {
          idle = resolve;
        });
      }
      // No call left: stop listening and close the kept-alive connections.
      clearInterval(sweeper);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      });
      clearTimeout(force);
      // Job tasks running here finish; queued ones wait for another worker.
      await runner?.stop();
      // Every delivered call's charge is written, then whatever this instance still
      // holds is given back (nothing, unless the drain was cut short) with its lease.
      await meter.drain();
      await heartbeat.stop();
      await sequencer.stop();
      const released = await endLease(db, instanceId);
      if (released > 0) logger.warn({ released, forced }, 'released reservations at shutdown');
      logger.info('drained');
      await pool?.close();
      await fetcher?.close();
      await db.close();
    };

    return {
      url,
      port,
      signer,
      db,
      processor,
      instanceId,
      async ready() {
        await pool?.ready();
        // The terms of batch-settlement are made from the facilitator's kinds, once.
        await deps.doors.batch?.start();
      },
      logVkey: deps.logKey.vkey,
      witnessWith: deps.addWitness,
      async paymentsStarted() {
        await deps.doors.batch?.start({ now: true });
      },
      close() {
        closing ??= close();
        return closing;
      },
    };
  } catch (error) {
    await pool?.close().catch(() => {});
    await fetcher?.close().catch(() => {});
    await db.close().catch(() => {});
    throw error;
  }
}
