import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type PgBoss from 'pg-boss';
import type { WorkerMessage } from './lib/job-engine-worker.js';
import {
  clearJobs,
  dropEngine,
  type EngineName,
  enqueue,
  enqueueingBoss,
  installEngine,
  LEASE_SECONDS,
  type PagePayload,
  PG_BOSS_EXPIRE_SECONDS,
  PG_BOSS_MAINTENANCE_SECONDS,
  PG_BOSS_POLLING_SECONDS,
  type Schemas,
} from './lib/job-engines.js';
import { machine, printColumns } from './lib/report.js';

/**
 * graphile-worker 0.17.3 next to pg-boss 10.4.2 as the engine of durable crawl jobs, on
 * PostgreSQL (DATABASE_URL), each in fresh schemas dropped after:
 *
 * (a) queueing 10,000 `crawl-page` jobs inside one transaction on a pg client the caller
 *     owns, one call per page and one statement for all;
 * (b) draining 10,000 no-op jobs with one worker process at concurrency 16, and with two
 *     (child processes, 16 each), timed from the queueing transaction's commit;
 * (c) the time from a single job's commit to its start on an idle queue;
 * (d) recovery: a worker process holding 16 jobs is killed with SIGKILL, and the time
 *     until another process has started all 16 is measured.
 *
 * See README.md, "Job engine: graphile-worker or pg-boss".
 */
export async function jobEngineBenchmark(options: { quick: boolean }): Promise<void> {
  const url = process.env.DATABASE_URL?.trim();
  if (!url) {
    console.log('\njob-engine: skipped (set DATABASE_URL to a PostgreSQL database)');
    return;
  }
  const started = Date.now();
  const results: Result[] = [];
  for (const engine of ['graphile-worker', 'pg-boss'] as const) {
    results.push(await measureEngine(engine, url, options.quick));
  }
  printResults(results, options.quick, (Date.now() - started) / 1000);
}

const JOBS = 10_000;
const CONCURRENCY = 16;
const HELD = 16;

interface Result {
  readonly engine: EngineName;
  readonly enqueueEach: number;
  readonly enqueueBulk: number;
  readonly drainOne: Drain;
  readonly drainTwo: Drain;
  readonly latency: { p50: number; p99: number; samples: number };
  readonly recovery: { first: number; last: number };
}

interface Drain {
  readonly done: number;
  readonly seconds: number;
}

async function measureEngine(engine: EngineName, url: string, quick: boolean): Promise<Result> {
  const base = `bench_${engine === 'pg-boss' ? 'pb' : 'gw'}_${randomBytes(4).toString('hex')}`;
  const s: Schemas = { engine: `${base}_jobs`, app: base };
  await installEngine(engine, url, s);
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const boss = engine === 'pg-boss' ? await enqueueingBoss(url, s) : null;
  const drainCap = quick ? 15_000 : 60_000;
  try {
    const one = await startWorkers(engine, url, s, 1, 'count');
    const each = await timedEnqueue(engine, pool, s, pages('each', JOBS), 'each', boss);
    const drainOne = await drain(one, each.committedAt, drainCap);
    await stopWorkers(one);
    await clearJobs(engine, url, s);

    const two = await startWorkers(engine, url, s, 2, 'count');
    const bulk = await timedEnqueue(engine, pool, s, pages('bulk', JOBS), 'bulk', boss);
    const drainTwo = await drain(two, bulk.committedAt, drainCap);
    await stopWorkers(two);
    await clearJobs(engine, url, s);

    const latency = await measureLatency(engine, url, s, pool, boss, quick ? 20 : 100);
    await clearJobs(engine, url, s);
    const recovery = await measureRecovery(engine, url, s, pool, boss);
    return {
      engine,
      enqueueEach: JOBS / each.seconds,
      enqueueBulk: JOBS / bulk.seconds,
      drainOne,
      drainTwo,
      latency,
      recovery,
    };
  } finally {
    await boss?.stop({ graceful: false, wait: true });
    await pool.end();
    await dropEngine(url, s);
  }
}

function pages(round: string, n: number): PagePayload[] {
  return Array.from({ length: n }, (_, i) => ({
    url: `https://example.test/${round}/${i}`,
    round,
  }));
}

/** Queue the pages in one transaction on a client of our own pool; time to the commit. */
async function timedEnqueue(
  engine: EngineName,
  pool: pg.Pool,
  s: Schemas,
  jobs: readonly PagePayload[],
  mode: 'each' | 'bulk',
  boss: PgBoss | null,
): Promise<{ seconds: number; committedAt: number }> {
  const client = await pool.connect();
  try {
    const t0 = performance.now();
    await client.query('BEGIN');
    await enqueue(engine, client, s, jobs, mode, boss);
    await client.query('COMMIT');
    const committedAt = performance.now();
    return { seconds: (committedAt - t0) / 1000, committedAt };
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

interface Workers {
  readonly children: ChildProcess[];
  readonly workerIds: string[];
  readonly messages: EventTarget;
}

const WORKER_FILE = fileURLToPath(new URL('./lib/job-engine-worker.ts', import.meta.url));

/** Fork `n` worker processes in one role and wait until each has its worker running. */
async function startWorkers(
  engine: EngineName,
  url: string,
  schemas: Schemas,
  n: number,
  role: 'count' | 'latency' | 'victim' | 'survivor',
): Promise<Workers> {
  const messages = new EventTarget();
  const workerIds: string[] = [];
  const children = await Promise.all(
    Array.from({ length: n }, (_, index) => {
      const child = fork(
        WORKER_FILE,
        [JSON.stringify({ engine, url, schemas, concurrency: CONCURRENCY, role })],
        { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
      );
      return new Promise<ChildProcess>((resolve, reject) => {
        child.once('exit', (code) => reject(new Error(`worker exited early (${code})`)));
        child.on('message', (message: WorkerMessage) => {
          if (message.type === 'ready') {
            workerIds.push(...message.workerIds);
            resolve(child);
          }
          messages.dispatchEvent(new CustomEvent('message', { detail: { index, message } }));
        });
      });
    }),
  );
  for (const child of children) child.removeAllListeners('exit');
  return { children, workerIds, messages };
}

async function stopWorkers(workers: Workers): Promise<void> {
  await Promise.all(
    workers.children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once('exit', () => resolve());
          child.send({ type: 'stop' });
        }),
    ),
  );
}

/** Wait until the workers' counts add up to every job, or the cap passes. */
function drain(workers: Workers, committedAt: number, capMs: number): Promise<Drain> {
  const counts = new Map<number, number>();
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      workers.messages.removeEventListener('message', onMessage);
      const done = [...counts.values()].reduce((a, b) => a + b, 0);
      resolve({ done, seconds: (performance.now() - committedAt) / 1000 });
    };
    const onMessage = (event: Event) => {
      const { index, message } = (event as CustomEvent).detail as {
        index: number;
        message: WorkerMessage;
      };
      if (message.type !== 'count') return;
      counts.set(index, message.n);
      if ([...counts.values()].reduce((a, b) => a + b, 0) >= JOBS) finish();
    };
    const timer = setTimeout(finish, Math.max(0, committedAt + capMs - performance.now()));
    workers.messages.addEventListener('message', onMessage);
  });
}

/** The next message of one type from the workers, or null after `ms`. */
function nextMessage<T extends WorkerMessage['type']>(
  workers: Workers,
  type: T,
  ms: number,
): Promise<Extract<WorkerMessage, { type: T }> | null> {
  return new Promise((resolve) => {
    const onMessage = (event: Event) => {
      const { message } = (event as CustomEvent).detail as { message: WorkerMessage };
      if (message.type !== type) return;
      done(message as Extract<WorkerMessage, { type: T }>);
    };
    const done = (value: Extract<WorkerMessage, { type: T }> | null) => {
      clearTimeout(timer);
      workers.messages.removeEventListener('message', onMessage);
      resolve(value);
    };
    const timer = setTimeout(() => done(null), ms);
    workers.messages.addEventListener('message', onMessage);
  });
}

/** One job at a time on an idle queue: commit to the job's start in the worker. */
async function measureLatency(
  engine: EngineName,
  url: string,
  s: Schemas,
  pool: pg.Pool,
  boss: PgBoss | null,
  samples: number,
): Promise<{ p50: number; p99: number; samples: number }> {
  const workers = await startWorkers(engine, url, s, 1, 'latency');
  const latencies: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const page = { url: `https://example.test/latency/${i}`, round: 'latency' };
      const started = nextMessage(workers, 'started', 10_000);
      const { committedAt } = await timedEnqueue(engine, pool, s, [page], 'each', boss);
      const committedWall = performance.timeOrigin + committedAt;
      const message = await started;
      if (message === null) throw new Error(`${engine}: a single job did not start in 10 s`);
      latencies.push(Math.max(0, message.at - committedWall));
      // A random pause, so that the samples do not lock onto a polling phase.
      await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 150));
    }
  } finally {
    await stopWorkers(workers);
  }
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), samples: latencies.length };
}

/**
 * A worker process takes 16 jobs and never finishes them; a second process starts and
 * finds nothing to do; the first is killed with SIGKILL. Seconds from the kill until the
 * second has started the first and the last of those 16 jobs.
 */
async function measureRecovery(
  engine: EngineName,
  url: string,
  s: Schemas,
  pool: pg.Pool,
  boss: PgBoss | null,
): Promise<{ first: number; last: number }> {
  const victim = await startWorkers(engine, url, s, 1, 'victim');
  const held = new Set<string>();
  const holding = new Promise<void>((resolve) => {
    victim.messages.addEventListener('message', (event) => {
      const { message } = (event as CustomEvent).detail as { message: WorkerMessage };
      if (message.type === 'holding') held.add(message.url);
      if (held.size >= HELD) resolve();
    });
  });
  await timedEnqueue(engine, pool, s, pages('recovery', HELD), 'bulk', boss);
  await holding;
  const survivor = await startWorkers(engine, url, s, 1, 'survivor');
  const rerun = new Map<string, number>();
  const allRerun = new Promise<void>((resolve) => {
    survivor.messages.addEventListener('message', (event) => {
      const { message } = (event as CustomEvent).detail as { message: WorkerMessage };
      if (message.type === 'started' && held.has(message.url)) rerun.set(message.url, message.at);
      if (rerun.size >= HELD) resolve();
    });
  });
  const victimGone = new Promise((resolve) => victim.children[0]?.once('exit', resolve));
  const killedAt = performance.timeOrigin + performance.now();
  victim.children[0]?.kill('SIGKILL');
  await victimGone;
  const capped = await Promise.race([
    allRerun.then(() => false),
    new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 120_000)),
  ]);
  await stopWorkers(survivor);
  if (capped) return { first: NaN, last: NaN };
  const times = [...rerun.values()].map((at) => (at - killedAt) / 1000);
  return { first: Math.min(...times), last: Math.max(...times) };
}

function printResults(results: readonly Result[], quick: boolean, seconds: number): void {
  const rate = (d: Drain) =>
    d.done >= JOBS
      ? (d.done / d.seconds).toFixed(0)
      : `${(d.done / d.seconds).toFixed(0)} (${d.done}/${JOBS} in ${d.seconds.toFixed(0)} s, capped)`;
  const header = ['measure', ...results.map((r) => r.engine)];
  const row = (name: string, cell: (r: Result) => string) => [name, ...results.map(cell)];
  printColumns(
    `Job engine: graphile-worker 0.17.3 next to pg-boss 10.4.2 on PostgreSQL (${machine()}, ${cpus().length} cores, load ${loadavg()[0]?.toFixed(1)}${quick ? ', --quick' : ''}, ${seconds.toFixed(0)} s)`,
    header,
    [
      row('(a) enqueue 10,000 in one transaction, a call per job: jobs/s', (r) =>
        r.enqueueEach.toFixed(0),
      ),
      row('(a) enqueue 10,000 in one transaction, one statement: jobs/s', (r) =>
        r.enqueueBulk.toFixed(0),
      ),
      row('(b) drain 10,000 no-op jobs, 1 process x 16: jobs/s', (r) => rate(r.drainOne)),
      row('(b) drain 10,000 no-op jobs, 2 processes x 16: jobs/s', (r) => rate(r.drainTwo)),
      row('(c) commit to start, idle queue: p50 ms', (r) => r.latency.p50.toFixed(1)),
      row(
        '(c) commit to start, idle queue: p99 ms',
        (r) => `${r.latency.p99.toFixed(1)} (n=${r.latency.samples})`,
      ),
      row(
        '(d) kill -9 holding 16 jobs: first / last re-run, s',
        (r) => `${r.recovery.first.toFixed(2)} / ${r.recovery.last.toFixed(2)}`,
      ),
    ],
  );
  console.log(
    `recovery settings: graphile-worker, a lease of ${LEASE_SECONDS} s beaten every second and swept every second (force_unlock_workers + NOTIFY); pg-boss, expireInSeconds ${PG_BOSS_EXPIRE_SECONDS}, maintenanceIntervalSeconds ${PG_BOSS_MAINTENANCE_SECONDS}, pollingIntervalSeconds ${PG_BOSS_POLLING_SECONDS}`,
  );
  const [gw, pb] = results;
  if (gw === undefined || pb === undefined) return;
  const score = (a: Result, b: Result) =>
    Number(a.drainTwo.done / a.drainTwo.seconds > b.drainTwo.done / b.drainTwo.seconds) +
    Number(a.latency.p50 < b.latency.p50) +
    Number(a.recovery.last < b.recovery.last) +
    Number(a.enqueueBulk > b.enqueueBulk);
  const [winner, loser] = score(gw, pb) >= score(pb, gw) ? [gw, pb] : [pb, gw];
  const drainRatio =
    winner.drainTwo.done / winner.drainTwo.seconds / (loser.drainTwo.done / loser.drainTwo.seconds);
  console.log(
    `verdict: ${winner.engine} (ahead on ${score(winner, loser)} of 4: drain, start latency, recovery, bulk enqueue) — drains ${drainRatio.toFixed(1)}x ${loser.engine}'s rate with 2 processes, starts a job in ${winner.latency.p50.toFixed(0)} ms (p50) against ${loser.latency.p50.toFixed(0)} ms, re-runs a killed worker's jobs in ${winner.recovery.last.toFixed(1)} s against ${loser.recovery.last.toFixed(1)} s`,
  );
}
