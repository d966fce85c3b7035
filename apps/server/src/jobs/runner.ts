import { EventEmitter } from 'node:events';
import { run, runMigrations, type Task, Logger as WorkerLogger } from 'graphile-worker';
import pg from 'pg';
import type { Logger } from 'pino';
import {
  crawlPage,
  failPage,
  failSeed,
  type JobServices,
  type PageTask,
  seedJob,
} from './crawl.js';
import { TASKS } from './queue.js';
import { deliverEvents, type WebhookServices } from './webhooks.js';

/** Tasks each worker process runs at once, by default. */
export const JOB_CONCURRENCY = 16;

/** Where the queue lives: a PostgreSQL connection for graphile-worker's own pool. */
export interface QueueConnection {
  /** A `postgres://` URL (graphile-worker keeps its own pool and LISTEN connection). */
  readonly connectionString: string;
  /** The queue's schema (`queueSchemaOf`). */
  readonly schema: string;
  /**
   * The connections share one session (embedded PGlite behind its socket server): no
   * prepared statements, and no notifications between connections, so idle workers poll
   * more often.
   */
  readonly sharedSession: boolean;
}

/** How often idle workers look for tasks (ms): a notification usually wakes them first. */
const POLL_MS = 1000;
/** The same on the embedded database, where no notification crosses connections. */
const SHARED_SESSION_POLL_MS = 200;

/** What the workers of one process need. */
export interface RunnerOptions {
  readonly services: JobServices & WebhookServices;
  readonly connection: QueueConnection;
  readonly concurrency?: number;
  /** Settles an x402 job paid with `upto` once it ended; absent, settle tasks wait. */
  readonly settle?: (jobId: string, lastTry: boolean) => Promise<void>;
  /** Redeems x402 `batch-settlement` vouchers; absent, redemption tasks wait. */
  readonly redeem?: () => Promise<unknown>;
  /** Called with the ids of this process's workers once they exist (their lease holds them). */
  readonly onWorkers?: (ids: readonly string[]) => void;
  /** Called when the runner ends without `stop` (its pool failed). */
  readonly onUnexpectedStop?: (error: unknown) => void;
}

/** Running workers: stop them to drain (running tasks finish; queued ones stay queued). */
export interface JobRunner {
  readonly workerIds: readonly string[];
  stop(): Promise<void>;
}

/** Create (or bring up to date) the queue's schema; safe to run from every process. */
export async function migrateQueue(connection: QueueConnection, logger: Logger): Promise<void> {
  const pool = queuePool(connection, 1);
  try {
    await runMigrations({
      pgPool: pool,
      schema: connection.schema,
      noPreparedStatements: connection.sharedSession,
      logger: workerLogger(logger),
    });
  } finally {
    await pool.end();
  }
}

/**
 * Start this process's job workers (graphile-worker, `concurrency` tasks at once): the
 * seed, page, webhook and settlement tasks. A task that throws is tried again with
 * graphile-worker's backoff; on its last try a page is committed as failed and a seed
 * fails its job, so that every job ends.
 */
export async function startJobRunner(options: RunnerOptions): Promise<JobRunner> {
  const { services, connection } = options;
  const workerIds: string[] = [];
  const events = new EventEmitter() as NonNullable<Parameters<typeof run>[0]['events']>;
  // graphile-worker locks a task with its pool's id (not a worker's).
  events.on('pool:create', ({ workerPool }) => {
    workerIds.push(workerPool.id);
    options.onWorkers?.([...workerIds]);
  });
  const lastTry = (helpers: Parameters<Task>[1]) =>
    helpers.job.attempts >= helpers.job.max_attempts;

  const taskList: Record<string, Task> = {
    [TASKS.seed]: async (payload, helpers) => {
      const { job } = payload as { job: string };
      try {
        await seedJob(services, job);
      } catch (error) {
        if (!lastTry(helpers)) throw error;
        await failSeed(services, job, error);
      }
    },
    [TASKS.page]: async (payload, helpers) => {
      const task = payload as PageTask;
      try {
        await crawlPage(services, task);
      } catch (error) {
        if (!lastTry(helpers)) throw error;
        await failPage(services, task, error);
      }
    },
    [TASKS.webhooks]: async (payload) => {
      await deliverEvents(services, (payload as { job: string }).job);
    },
    [TASKS.settle]: async (payload, helpers) => {
      if (options.settle === undefined) throw new Error('No x402 settlement in this process');
      await options.settle((payload as { job: string }).job, lastTry(helpers));
    },
    [TASKS.redeem]: async () => {
      if (options.redeem === undefined) throw new Error('No x402 batch settlement in this process');
      await options.redeem();
    },
  };
  const concurrency = options.concurrency ?? JOB_CONCURRENCY;
  const pool = queuePool(connection, concurrency + POOL_EXTRA);
  const runner = await run({
    pgPool: pool,
    schema: connection.schema,
    // No cron: nothing read from a `crontab` file in the working directory.
    crontab: '',
    concurrency,
    noHandleSignals: true,
    noPreparedStatements: connection.sharedSession,
    pollInterval: connection.sharedSession ? SHARED_SESSION_POLL_MS : POLL_MS,
    logger: workerLogger(services.logger),
    events,
    taskList,
  });
  let stopping = false;
  // A runner that ends without being asked to (its pool failed) says so to its owner.
  runner.promise.then(
    () => {
      if (!stopping) options.onUnexpectedStop?.(new Error('the job runner stopped by itself'));
    },
    (error: unknown) => {
      if (!stopping) options.onUnexpectedStop?.(error);
    },
  );
  return {
    workerIds,
    async stop() {
      stopping = true;
      // A runner that stopped by itself (its pool failed) has said so in the log already.
      await runner.stop().catch((error: unknown) => {
        if (!/already stopped/.test((error as Error).message)) throw error;
      });
      await pool.end();
    },
  };
}

/**
 * A connection of the queue's pool that does not pass on graphile-worker's
 * `worker:migrate` notification. graphile-worker sends it to the whole database when it
 * installs or migrates any queue schema, and every running pool that hears a breaking one
 * shuts down and sets the process's exit code to 57, whichever schema it was about: two
 * queue schemas in one database (every test file has its own) stopped each other's
 * workers. Our processes migrate their queue schema before their workers start, and
 * graphile-worker refuses at start a schema newer than it knows; a breaking upgrade of
 * graphile-worker stops every worker first, as its own notes ask (docs/decisions.md,
 * "Crawl jobs").
 */
class QueueClient extends pg.Client {
  override emit(event: string | symbol, ...args: unknown[]): boolean {
    if (
      event === 'notification' &&
      (args[0] as { channel?: string })?.channel === 'worker:migrate'
    ) {
      return false;
    }
    return super.emit(event, ...args);
  }
}

/** Connections beside one per task: the LISTEN connection and the runner's own queries. */
const POOL_EXTRA = 2;

/**
 * The queue's own pool: a connection per task and a few more. Errors of an idle
 * connection (a database restart) are the next query's to report; they must not crash
 * the process.
 */
function queuePool(connection: QueueConnection, max: number): pg.Pool {
  const pool = new pg.Pool({
    connectionString: connection.connectionString,
    max,
    Client: QueueClient,
  });
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  return pool;
}

/** graphile-worker's log lines through the service's logger (its debug and info lines dropped). */
function workerLogger(logger: Logger): WorkerLogger {
  return new WorkerLogger(() => (level, message, meta) => {
    if (level === 'error') logger.error({ meta }, message);
    else if (level === 'warning') logger.warn({ meta }, message);
  });
}
