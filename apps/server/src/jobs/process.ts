import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { AppDeps } from '../deps.js';
import { recordWorkers, unlockOrphanedTasks } from './leases.js';
import { settleJob } from './payments.js';
import { redeemLeftovers } from './redeem.js';
import { type JobRunner, type QueueConnection, startJobRunner } from './runner.js';

/** The queue's connection for a database at `databaseUrl` (embedded when `sharedSession`), in `schema`. */
export function queueConnection(
  databaseUrl: string,
  schema: string,
  sharedSession = false,
): QueueConnection {
  return { connectionString: databaseUrl, schema, sharedSession };
}

/** Options of {@link startJobWorkers}. */
export interface JobWorkersOptions {
  readonly deps: AppDeps;
  readonly db: Database;
  readonly connection: QueueConnection;
  readonly instanceId: string;
  readonly concurrency: number;
  readonly logger: Logger;
}

/** How long a process waits before starting job workers again after its runner failed (ms). */
const RESTART_MS = 1000;

/**
 * Start this process's job workers (the queue's schema is already migrated), their pool
 * id written on the process's lease so another process unlocks their tasks if it dies.
 * A runner that ends without being asked to (its pool lost the database) is replaced:
 * its pool id leaves the lease at once, so the sweep hands the tasks it held to live
 * workers, and a new runner starts a second later.
 */
export async function startJobWorkers(options: JobWorkersOptions): Promise<JobRunner> {
  const { db, instanceId, logger } = options;
  const batch = options.deps.doors.batch;
  let recorded: Promise<void> = Promise.resolve();
  const record = (ids: readonly string[]) => {
    recorded = recorded
      .then(() => recordWorkers(db, instanceId, ids))
      .catch((error: unknown) => logger.error({ err: error }, 'could not record job workers'));
  };
  let current: JobRunner | null = null;
  let stopped = false;
  let restart: NodeJS.Timeout | null = null;
  const start = async (): Promise<JobRunner> =>
    startJobRunner({
      services: options.deps.jobs.services,
      connection: options.connection,
      concurrency: options.concurrency,
      settle: (jobId, lastTry) => settleJob(options.db, options.deps.jobs.payments, jobId, lastTry),
      ...(batch === null
        ? {}
        : {
            redeem: async () => {
              await batch.redeem();
              await redeemLeftovers(
                db,
                options.deps.jobs.queue,
                options.deps.clock(),
                options.deps.config.payment.batchRedeemSeconds,
              );
            },
          }),
      onWorkers: record,
      onUnexpectedStop: (error) => {
        logger.error({ err: error }, 'job workers stopped unexpectedly; starting new ones');
        record([]);
        current = null;
        later();
      },
    });
  // Start again a second later, and again after each failed start, until stopped.
  const later = () => {
    restart = setTimeout(() => {
      restart = null;
      if (stopped) return;
      start().then(
        (runner) => {
          current = runner;
          if (stopped) void runner.stop();
        },
        (failure: unknown) => {
          logger.error({ err: failure }, 'could not restart job workers');
          later();
        },
      );
    }, RESTART_MS);
  };
  current = await start();
  if (batch !== null) {
    await redeemLeftovers(db, options.deps.jobs.queue, options.deps.clock(), 0).catch(
      (error: unknown) => logger.error({ err: error }, 'could not schedule x402 redemption'),
    );
  }
  return {
    get workerIds() {
      return current?.workerIds ?? [];
    },
    async stop() {
      stopped = true;
      if (restart !== null) clearTimeout(restart);
      await current?.stop();
      await recorded;
    },
  };
}

/** One heartbeat's job chore: unlock the tasks of worker pools no live lease holds. */
export async function unlockDeadWorkers(
  db: Database,
  queueSchema: string,
  leaseSeconds: number,
  logger: Logger,
): Promise<void> {
  const unlocked = await unlockOrphanedTasks(db, queueSchema, leaseSeconds);
  if (unlocked > 0) logger.warn({ unlocked }, 'unlocked the job tasks of a stopped process');
}
