import type { Logger } from 'pino';
import type { Database } from '../db/database.js';
import type { AppDeps } from '../deps.js';
import { recordWorkers, unlockOrphanedTasks } from './leases.js';
import { settleJob } from './payments.js';
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

/**
 * Start this process's job workers (the queue's schema is already migrated), their pool
 * id written on the process's lease so another process unlocks their tasks if it dies.
 */
export async function startJobWorkers(options: JobWorkersOptions): Promise<JobRunner> {
  const { db, instanceId, logger } = options;
  let recorded: Promise<void> = Promise.resolve();
  return startJobRunner({
    services: options.deps.jobs.services,
    connection: options.connection,
    concurrency: options.concurrency,
    settle: (jobId) => settleJob(options.db, options.deps.jobs.payments, jobId),
    onWorkers: (ids) => {
      recorded = recorded
        .then(() => recordWorkers(db, instanceId, ids))
        .catch((error: unknown) => logger.error({ err: error }, 'could not record job workers'));
    },
  });
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
