import { randomUUID } from 'node:crypto';
import { createFetcher } from '@storefront/safe-fetch';
import { type Logger, pino } from 'pino';
import pkg from '../package.json' with { type: 'json' };
import { type Config, ConfigError, defaultBaseUrl } from './config.js';
import { openDatabase } from './db/database.js';
import { migrate } from './db/migrate.js';
import { buildDeps } from './deps.js';
import { startHeartbeat } from './heartbeat.js';
import { queueConnection, startJobWorkers } from './jobs/process.js';
import { queueSchemaFor } from './jobs/queue.js';
import { migrateQueue } from './jobs/runner.js';
import { endLease, renewLease } from './metering/store.js';
import { SOURCE_HEAP_MB } from './server.js';
import { serviceSigner } from './signer-key.js';
import { inlineCompute } from './work/compute.js';
import { ProductPool } from './work/pool.js';

/** A running worker process: job workers and their lease, no HTTP. */
export interface RunningWorker {
  readonly instanceId: string;
  /** Drain: running tasks finish, queued ones stay for other workers; then stop. */
  close(): Promise<void>;
}

/** Options of {@link startWorker}. */
export interface WorkerStartOptions {
  readonly logger?: Logger;
  /** Database schema (tests use one per run); the queue is then `<schema>_queue`. */
  readonly schema?: string;
  readonly webhookRetryMs?: readonly number[];
}

/**
 * `pnpm worker`: job workers only, on the PostgreSQL of `DATABASE_URL`, so a deployment
 * adds worker processes or machines beside its HTTP instances. The same tasks, signer
 * and products as `pnpm start` runs in its own process; a lease like an instance's,
 * so that when this process dies its tasks are unlocked for the others within seconds.
 */
export async function startWorker(
  config: Config,
  options: WorkerStartOptions = {},
): Promise<RunningWorker> {
  if (config.databaseUrl === null) {
    throw new ConfigError(
      'pnpm worker needs DATABASE_URL: workers in other processes share one PostgreSQL (the embedded database serves its own process; `pnpm start` runs its workers itself)',
    );
  }
  const logger =
    options.logger ?? pino({ level: config.logLevel, base: { service: 'storefront-worker' } });
  const db = await openDatabase({
    url: config.databaseUrl,
    dataDir: null,
    ...(options.schema === undefined ? {} : { schema: options.schema }),
  });
  const pool =
    config.products.threads > 0
      ? new ProductPool({ ...config.products, sourceHeapMb: SOURCE_HEAP_MB, logger })
      : null;
  const fetcher = createFetcher({ testOnlyAllow: config.safeFetchAllow });
  try {
    await migrate(db);
    const queueSchema = queueSchemaFor(config, options.schema);
    const connection = queueConnection(config.databaseUrl, queueSchema);
    await migrateQueue(connection, logger);
    const { signer, receiverAuthorizerKey, httpSignatureKey, offerReceiptKeys } =
      await serviceSigner(config, logger);
    const instanceId = randomUUID();
    const publicBaseUrl = config.publicBaseUrl ?? defaultBaseUrl(config.host, config.port);
    const deps = buildDeps({
      config: { ...config, publicBaseUrl },
      db,
      signer,
      receiverAuthorizerKey,
      httpSignatureKey,
      offerReceiptKeys,
      fetcher,
      logger,
      version: pkg.version,
      clock: () => new Date(),
      compute: pool?.compute ?? inlineCompute,
      instanceId,
      queueSchema,
      ...(options.webhookRetryMs === undefined ? {} : { webhookRetryMs: options.webhookRetryMs }),
    });
    await renewLease(db, instanceId);
    const runner = await startJobWorkers({
      deps,
      db,
      connection,
      instanceId,
      concurrency: config.jobs.concurrency,
      logger,
    });
    const heartbeat = startHeartbeat(db, instanceId, queueSchema, logger);
    logger.info({ instanceId, concurrency: config.jobs.concurrency }, 'storefront worker running');

    let closing: Promise<void> | undefined;
    const close = async () => {
      await runner.stop();
      await heartbeat.stop();
      await endLease(db, instanceId);
      await pool?.close();
      await fetcher.close();
      await db.close();
    };
    return {
      instanceId,
      close() {
        closing ??= close();
        return closing;
      },
    };
  } catch (error) {
    await pool?.close().catch(() => {});
    await fetcher.close().catch(() => {});
    await db.close().catch(() => {});
    throw error;
  }
}
