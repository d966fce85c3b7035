import { EventEmitter } from 'node:events';
import { Logger, run, runMigrations, type WorkerEvents } from 'graphile-worker';
import pg from 'pg';
import PgBoss from 'pg-boss';

/** The two PostgreSQL job libraries the job-engine benchmark compares. */
export type EngineName = 'graphile-worker' | 'pg-boss';

/** The task every benchmark job runs: one crawled page. */
export const TASK = 'crawl-page';

/** A job's payload: the page, and which round of the benchmark queued it. */
export interface PagePayload {
  readonly url: string;
  readonly round: string;
}

/**
 * Where one engine keeps its tables: the library's own schema, and the caller's schema
 * beside it (the worker leases of graphile-worker live there, as ours would).
 */
export interface Schemas {
  readonly engine: string;
  readonly app: string;
}

/** How long a worker process's lease lasts without a heartbeat, and how often it beats. */
export const LEASE_SECONDS = 3;
export const HEARTBEAT_MS = 1000;

/** pg-boss's settings that bound recovery: the job's expiry and the maintenance interval. */
export const PG_BOSS_EXPIRE_SECONDS = 3;
export const PG_BOSS_MAINTENANCE_SECONDS = 1;
/** pg-boss's shortest polling interval (its floor is 0.5 s). */
export const PG_BOSS_POLLING_SECONDS = 0.5;

const quietGraphileLogger = new Logger(() => (level, message) => {
  if (level === 'error') console.error(`graphile-worker: ${message}`);
});

/** pg-boss with its cron scheduler off; `supervise` runs expiry and archiving. */
function pgBoss(url: string, schema: string, max: number, supervise: boolean): PgBoss {
  const boss = new PgBoss({
    connectionString: url,
    schema,
    max,
    schedule: false,
    supervise,
    maintenanceIntervalSeconds: PG_BOSS_MAINTENANCE_SECONDS,
  });
  boss.on('error', (error) => console.error(`pg-boss: ${error.message}`));
  return boss;
}

/** Log a pool's and its clients' connection errors instead of crashing on them. */
function onPoolErrors(pool: pg.Pool): void {
  const log = (error: Error) => console.error(`pool: ${error.message}`);
  pool.on('error', log);
  pool.on('connect', (client) => client.on('error', log));
}

/** Create both schemas and run the library's migrations (and, for pg-boss, its queue). */
export async function installEngine(name: EngineName, url: string, s: Schemas): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  onPoolErrors(pool);
  try {
    await pool.query(`CREATE SCHEMA ${s.app}`);
    await pool.query(
      `CREATE TABLE ${s.app}.worker_leases (worker_id text PRIMARY KEY, expires_at timestamptz NOT NULL)`,
    );
    if (name === 'graphile-worker') {
      await runMigrations({ pgPool: pool, schema: s.engine, logger: quietGraphileLogger });
    } else {
      const boss = pgBoss(url, s.engine, 2, false);
      await boss.start();
      await boss.createQueue(TASK, {
        name: TASK,
        expireInSeconds: PG_BOSS_EXPIRE_SECONDS,
        retryLimit: 5,
      });
      await boss.stop({ graceful: false, wait: true });
    }
  } finally {
    await pool.end();
  }
}

/** Drop both schemas. */
export async function dropEngine(url: string, s: Schemas): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await pool.query(`DROP SCHEMA IF EXISTS ${s.engine} CASCADE`);
    await pool.query(`DROP SCHEMA IF EXISTS ${s.app} CASCADE`);
  } finally {
    await pool.end();
  }
}

/**
 * Queue one job per page on a client the caller owns, inside the caller's open
 * transaction: one call per page (`each`) or one statement for all (`bulk`).
 */
export async function enqueue(
  name: EngineName,
  client: pg.PoolClient,
  s: Schemas,
  pages: readonly PagePayload[],
  mode: 'each' | 'bulk',
  boss: PgBoss | null,
): Promise<void> {
  if (name === 'graphile-worker') {
    if (mode === 'each') {
      for (const page of pages) {
        await client.query(
          `SELECT ${s.engine}.add_job('${TASK}', $1::json, max_attempts => 5, job_key => $2)`,
          [JSON.stringify(page), page.url],
        );
      }
    } else {
      await client.query(
        `SELECT count(*) FROM ${s.engine}.add_jobs(ARRAY(
           SELECT ROW('${TASK}', p, NULL, NULL, 5, p->>'url', NULL, NULL)::${s.engine}.job_spec
           FROM json_array_elements($1::json) AS p))`,
        [JSON.stringify(pages)],
      );
    }
    return;
  }
  if (boss === null) throw new Error('pg-boss enqueue needs a PgBoss instance');
  const db = { executeSql: (text: string, values: unknown[]) => client.query(text, values) };
  if (mode === 'each') {
    for (const page of pages) {
      await boss.send(TASK, page, { db, singletonKey: page.url, retryLimit: 5 });
    }
  } else {
    await boss.insert(
      pages.map((page) => ({ name: TASK, data: page, singletonKey: page.url, retryLimit: 5 })),
      { db },
    );
  }
}

/** A PgBoss used only to build statements for `enqueue` (no supervision, no workers). */
export async function enqueueingBoss(url: string, s: Schemas): Promise<PgBoss> {
  const boss = pgBoss(url, s.engine, 1, false);
  await boss.start();
  return boss;
}

/** Delete every job left in the engine's tables (between rounds of the benchmark). */
export async function clearJobs(name: EngineName, url: string, s: Schemas): Promise<void> {
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    if (name === 'graphile-worker') {
      await pool.query(`TRUNCATE ${s.engine}._private_jobs`);
      await pool.query(`DELETE FROM ${s.engine}._private_job_queues`);
    } else {
      await pool.query(`DELETE FROM ${s.engine}.job`);
    }
  } finally {
    await pool.end();
  }
}

/** A running worker process's handle on its engine. */
export interface RunningWorker {
  /** The ids the engine locks jobs with (graphile-worker's pool id). */
  readonly workerIds: readonly string[];
  stop(): Promise<void>;
}

/**
 * Start the engine's worker with `concurrency` jobs at once, calling `handle` for each
 * job. graphile-worker's pool also keeps a lease in `worker_leases` and unlocks the jobs
 * of pools whose lease ran out; pg-boss relies on its own expiry and maintenance.
 */
export async function startWorker(
  name: EngineName,
  url: string,
  s: Schemas,
  concurrency: number,
  handle: (page: PagePayload) => Promise<void>,
): Promise<RunningWorker> {
  if (name === 'graphile-worker') return startGraphileWorker(url, s, concurrency, handle);
  const boss = pgBoss(url, s.engine, concurrency + 4, true);
  await boss.start();
  for (let i = 0; i < concurrency; i++) {
    await boss.work<PagePayload>(
      TASK,
      { batchSize: 1, pollingIntervalSeconds: PG_BOSS_POLLING_SECONDS },
      async ([job]) => {
        if (job !== undefined) await handle(job.data);
      },
    );
  }
  return {
    workerIds: [],
    stop: () => boss.stop({ graceful: true, wait: true, timeout: 10_000 }),
  };
}

async function startGraphileWorker(
  url: string,
  s: Schemas,
  concurrency: number,
  handle: (page: PagePayload) => Promise<void>,
): Promise<RunningWorker> {
  const pool = new pg.Pool({ connectionString: url, max: concurrency + 4 });
  onPoolErrors(pool);
  const events: WorkerEvents = new EventEmitter();
  const ids: string[] = [];
  events.on('pool:create', ({ workerPool }) => ids.push(workerPool.id));
  const runner = await run({
    pgPool: pool,
    schema: s.engine,
    concurrency,
    noHandleSignals: true,
    pollInterval: 1000,
    logger: quietGraphileLogger,
    events,
    taskList: { [TASK]: async (payload) => handle(payload as PagePayload) },
  });
  const lease = startLease(pool, s, ids);
  return {
    workerIds: ids,
    async stop() {
      await runner.stop();
      await lease.stop();
      await pool.end();
    },
  };
}

/**
 * Keep this process's pool ids leased (a heartbeat every second, a lease of three), and
 * every second unlock the jobs of pools that hold a job for longer than a lease without
 * a live lease: a process killed with `kill -9` stops beating, and its jobs run again
 * elsewhere. The NOTIFY wakes the idle pools at once instead of at their next poll.
 */
function startLease(pool: pg.Pool, s: Schemas, ids: readonly string[]): { stop(): Promise<void> } {
  let running: Promise<unknown> = Promise.resolve();
  const beat = () =>
    pool.query(
      `INSERT INTO ${s.app}.worker_leases (worker_id, expires_at)
       SELECT id, now() + make_interval(secs => $2) FROM unnest($1::text[]) AS id
       ON CONFLICT (worker_id) DO UPDATE SET expires_at = excluded.expires_at`,
      [ids, LEASE_SECONDS],
    );
  const sweep = () =>
    pool.query(
      `WITH dead AS (
         SELECT DISTINCT j.locked_by AS id FROM ${s.engine}.jobs AS j
         WHERE j.locked_by IS NOT NULL AND j.locked_at < now() - make_interval(secs => $1)
           AND NOT EXISTS (SELECT 1 FROM ${s.app}.worker_leases AS l
                           WHERE l.worker_id = j.locked_by AND l.expires_at > now())),
       unlocked AS (SELECT ${s.engine}.force_unlock_workers(array_agg(id)) FROM dead HAVING count(*) > 0)
       SELECT pg_notify('jobs:insert', json_build_object('count', 1000)::text) FROM unlocked`,
      [LEASE_SECONDS],
    );
  const tick = () => {
    running = running
      .then(beat)
      .then(sweep)
      .catch((error: Error) => {
        console.error(`lease: ${error.message}`);
      });
  };
  tick();
  const timer = setInterval(tick, HEARTBEAT_MS);
  return {
    async stop() {
      clearInterval(timer);
      await running;
      await pool.query(`DELETE FROM ${s.app}.worker_leases WHERE worker_id = ANY($1::text[])`, [
        ids,
      ]);
    },
  };
}
