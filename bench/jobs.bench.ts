import { type ChildProcess, fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { type CrawlSite, startCrawlSite } from '@storefront/test-utils';
import pg from 'pg';
import { cleanupOnSignal } from './lib/interrupt.js';
import { machine, printColumns } from './lib/report.js';
import { dropSchemasSql, queueSchemaOf } from './lib/server-deps.js';

/**
 * Crawl jobs on PostgreSQL (DATABASE_URL), with the built server: one HTTP instance
 * (`apps/server/dist/main.js`, `JOB_WORKERS=false`) and worker processes
 * (`apps/server/dist/worker.js`, as `pnpm worker` runs it), each crawl on a schema and a
 * queue schema of its own, dropped after. A job is created with a key through
 * `POST /jobs/crawl` (format `text`, a webhook for every event to a loopback receiver) on
 * the loopback site of `@storefront/test-utils` (`startCrawlSite`), and timed from the
 * request that creates it until `GET /jobs/{id}` says `completed`.
 *
 * (1) One worker process against two, on pages that take {@link SCALING_DELAY_MS} ms
 *     upstream; each process runs {@link SCALING_CONCURRENCY} tasks at once and may
 *     have {@link SCALING_HOST_CONCURRENCY} fetches in flight to the site, so the
 *     per-process concurrency, not the per-host cap, bounds the crawl.
 * (2) A 10,000-page crawl with one worker process: pages/s, the worker's RSS through the
 *     crawl, the database rows and bytes it leaves per page; next to Crawlee's
 *     CheerioCrawler crawling the same site in one process at the same concurrency.
 *
 * See README.md, "Crawl jobs".
 */

const root = join(import.meta.dirname, '..');
const SERVER_MAIN = join(root, 'apps/server/dist/main.js');
const WORKER_MAIN = join(root, 'apps/server/dist/worker.js');
const CRAWLEE_CHILD = fileURLToPath(new URL('./lib/crawlee-crawl.mjs', import.meta.url));
const PEER = '@crawlee/cheerio 3.18.1 CheerioCrawler';
const ADMIN_TOKEN = 'bench-jobs-admin-token-0123456789abcdef';
const SIGNER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
/** Credits one `text` page costs on the key door (`/buy/fetch`'s price). */
const TEXT_CREDITS = 3;

/** (2): 10,000-page jobs crawled one after another by the same worker process (`--quick`: one). */
const BIG_JOBS = 3;
/** (1): rounds of one process then two (`--quick`: one). */
const SCALING_ROUNDS = 3;
/** (1): pages of the job that warms each stack's workers before the measured one. */
const WARMUP_PAGES = 64;
/**
 * (1): pages of the measured job: a crawl of thousands of pages, as the issue's customers
 * run them. Found by links only, the site's binary tree offers fewer pages than there
 * are tasks for the first ~2 s whatever the number of processes; at 600 pages that
 * ramp alone capped even a perfect doubling of the rest at about 1.85x.
 */
const SCALING_PAGES = 2000;
/** (1): each page this late (ms), as a remote site. */
const SCALING_DELAY_MS = 200;
/** (1): tasks per worker process (`JOB_CONCURRENCY`). */
const SCALING_CONCURRENCY = 8;
/** (1): fetches in flight per origin per process (`JOB_HOST_CONCURRENCY`), above the tasks. */
const SCALING_HOST_CONCURRENCY = 16;
/** (2): each page this late (ms): a near upstream, so that the crawl's own work shows. */
const BIG_DELAY_MS = 5;
/** (2): tasks of the one worker process, fetches per origin, and Crawlee's concurrency. */
const BIG_CONCURRENCY = 16;
/** (2): RSS is reported at the first sample past each of these fractions of the crawl. */
const RSS_MARKS = [0.1, 0.5, 1] as const;

/** The goals (README.md, "Crawl jobs"). */
const GOAL_RATIO = 1.8;
const GOAL_RSS_MB = 300;
/**
 * Flat: the peak RSS of the worker's last job at most this much above its first job's
 * (same process, same site). Peaks over whole jobs, not single samples: RSS rises and
 * falls with V8's collections, and one sample at half a crawl and one at its end swung
 * from -20% to +12% between runs of the same code.
 */
const GOAL_FLAT = 0.1;

/** One target of this benchmark; `met` is null when it could not be measured. */
export interface JobsTarget {
  readonly name: string;
  readonly goal: string;
  readonly measured: string;
  readonly met: boolean | null;
}

/** Run the crawl-jobs benchmark; `quick` crawls 200 and 2,000 pages instead of 2,000 and 10,000. */
export async function jobsBenchmark(options: {
  readonly quick: boolean;
}): Promise<{ targets: JobsTarget[] }> {
  const databaseUrl = process.env.DATABASE_URL?.trim() ?? '';
  const missing =
    databaseUrl === ''
      ? 'DATABASE_URL is not set (the benchmark needs PostgreSQL; it creates and drops its own schemas)'
      : !existsSync(SERVER_MAIN) || !existsSync(WORKER_MAIN)
        ? `${SERVER_MAIN} or ${WORKER_MAIN} is missing (run \`pnpm build\` first)`
        : null;
  if (missing !== null) {
    console.log(`\nCrawl jobs: not measured: ${missing}`);
    return { targets: [] };
  }
  const scalingPages = options.quick ? 200 : SCALING_PAGES;
  const bigPages = options.quick ? 2000 : 10_000;
  const rounds = options.quick ? 1 : SCALING_ROUNDS;
  const hook = await startReceiver();
  const stopCleanupOnSignal = cleanupOnSignal(cleanupAll);
  try {
    // Rounds alternate one process and two, so that a busy spell of the machine falls on both.
    const scaling: CrawlRun[] = [];
    for (let round = 0; round < rounds; round++) {
      for (const shape of SHAPES) {
        for (const workers of [1, 2]) {
          scaling.push(
            await scalingRun(databaseUrl, hook, { workers, pages: scalingPages, shape }),
          );
        }
      }
    }
    const site = await startCrawlSite({ pages: bigPages, delayMs: BIG_DELAY_MS });
    let big: CrawlRun[];
    let peer: PeerRun;
    try {
      big = await withStack(
        databaseUrl,
        {
          workers: 1,
          concurrency: BIG_CONCURRENCY,
          hostConcurrency: BIG_CONCURRENCY,
          allow: `${site.allow},${hook.allow}`,
        },
        async (stack) => {
          // The same worker process crawls the site again, as a worker runs job after job.
          const runs: CrawlRun[] = [];
          for (let job = 0; job < (options.quick ? 1 : BIG_JOBS); job++) {
            runs.push(
              await crawl(stack, site, hook, { pages: bigPages, pollMs: 250, books: job === 0 }),
            );
          }
          return runs;
        },
      );
      site.inFlight.max = 0;
      peer = await crawleeCrawl(site, bigPages, BIG_CONCURRENCY);
    } finally {
      await site.close();
    }
    return { targets: report(scaling, big, peer, options.quick) };
  } finally {
    stopCleanupOnSignal();
    await hook.close();
  }
}

/**
 * How the crawl of (1) finds its pages: `links`, only by following links from `/p/0`
 * (a binary tree: a page is found 200 ms after its parent, so the first levels offer
 * fewer pages than there are tasks); `sitemap`, also from a sitemap listing every page,
 * which the job admits before its first page (what the workers do with a full queue).
 */
type Shape = 'links' | 'sitemap';
const SHAPES: readonly Shape[] = ['links', 'sitemap'];

/** One crawl of (1): `workers` worker processes on a new site of 200 ms pages. */
async function scalingRun(
  databaseUrl: string,
  hook: Receiver,
  options: { readonly workers: number; readonly pages: number; readonly shape: Shape },
): Promise<CrawlRun> {
  const { workers, pages, shape } = options;
  const site = await startCrawlSite({
    pages,
    delayMs: SCALING_DELAY_MS,
    ...(shape === 'sitemap' ? { sitemap: everyPage(pages) } : {}),
  });
  const warmSite = await startCrawlSite({
    pages: WARMUP_PAGES,
    delayMs: SCALING_DELAY_MS,
    sitemap: everyPage(WARMUP_PAGES),
  });
  try {
    const run = await withStack(
      databaseUrl,
      {
        workers,
        concurrency: SCALING_CONCURRENCY,
        hostConcurrency: SCALING_HOST_CONCURRENCY,
        allow: `${site.allow},${warmSite.allow},${hook.allow}`,
      },
      async (stack) => {
        // Workers run for days: a first job on another site starts their product threads,
        // connections and compiled code, so the measured job meets them warm.
        await crawl(stack, warmSite, hook, { pages: WARMUP_PAGES, pollMs: 100 });
        return crawl(stack, site, hook, { pages, pollMs: 100 });
      },
    );
    return { ...run, shape };
  } finally {
    await site.close();
    await warmSite.close();
  }
}

/** Page numbers 0 … pages-1, for a sitemap of every page. */
function everyPage(pages: number): number[] {
  return Array.from({ length: pages }, (_, i) => i);
}

/** One HTTP instance and its worker processes on a schema of their own. */
interface Stack {
  readonly base: string;
  readonly serverPid: number;
  readonly workerPids: readonly number[];
  readonly schema: string;
  readonly queueSchema: string;
  readonly databaseUrl: string;
  readonly workers: number;
  readonly concurrency: number;
}

interface StackOptions {
  readonly workers: number;
  readonly concurrency: number;
  readonly hostConcurrency: number;
  /** `SAFE_FETCH_ALLOW`: the site and the webhook receiver. */
  readonly allow: string;
}

/** What stops and drops what a stack started, by stack: run on an interrupt too. */
const cleanups = new Set<() => Promise<void>>();

async function cleanupAll(): Promise<void> {
  await Promise.all([...cleanups].map((cleanup) => cleanup()));
}

let stacks = 0;

/**
 * Create a schema and its queue schema, start the HTTP instance (no workers) and
 * `workers` worker processes on them, run `body`, then stop every process and drop both
 * schemas, whatever happened.
 */
async function withStack<T>(
  databaseUrl: string,
  options: StackOptions,
  body: (stack: Stack) => Promise<T>,
): Promise<T> {
  stacks += 1;
  const schema = `bench_jobs_${process.pid}_${Date.now().toString(36)}_${stacks}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-bench-jobs-'));
  const children: ChildProcess[] = [];
  let cleaning: Promise<void> | null = null;
  const cleanup = () => {
    cleaning ??= (async () => {
      await Promise.all(children.map(stopChild));
      await sql(databaseUrl, dropSchemasSql(schema));
      rmSync(dataDir, { recursive: true, force: true });
    })();
    return cleaning;
  };
  cleanups.add(cleanup);
  try {
    await sql(databaseUrl, `CREATE SCHEMA ${schema}`);
    const url = new URL(databaseUrl);
    url.searchParams.set('options', `-c search_path=${schema}`);
    // Names this stack's database sessions, to find their backends' CPU time.
    url.searchParams.set('application_name', schema);
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      DATABASE_URL: url.href,
      JOB_QUEUE_SCHEMA: queueSchemaOf(schema),
      ADMIN_TOKEN,
      SIGNER_PRIVATE_KEY: SIGNER_KEY,
      // No payment stack: these jobs are paid with a key.
      FACILITATOR_URL: 'http://127.0.0.1:9/',
      SAFE_FETCH_ALLOW: options.allow,
    };
    // The HTTP instance first: it creates the tables and the queue's schema.
    const server = await spawnReady(SERVER_MAIN, { ...env, JOB_WORKERS: 'false' }, children);
    const workerEnv = {
      ...env,
      JOB_CONCURRENCY: String(options.concurrency),
      JOB_HOST_CONCURRENCY: String(options.hostConcurrency),
    };
    const workers = await Promise.all(
      Array.from({ length: options.workers }, () => spawnReady(WORKER_MAIN, workerEnv, children)),
    );
    return await body({
      base: server.ready,
      serverPid: server.child.pid as number,
      workerPids: workers.map((w) => w.child.pid as number),
      schema,
      queueSchema: queueSchemaOf(schema),
      databaseUrl,
      workers: options.workers,
      concurrency: options.concurrency,
    });
  } finally {
    await cleanup();
    cleanups.delete(cleanup);
  }
}

/** Spawn a built entry point and wait for its `running at <url>` or `worker <id> running` line. */
async function spawnReady(
  entry: string,
  env: NodeJS.ProcessEnv,
  children: ChildProcess[],
): Promise<{ child: ChildProcess; ready: string }> {
  const child = spawn(process.execPath, [entry], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let output = '';
  const ready = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)|(worker \S+ running)/.exec(output);
      if (match) resolve((match[1] ?? match[2]) as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${entry} exited with ${code}:\n${output}`)));
  });
  // Keep its last output, and say so if it exits before it is stopped.
  child.once('exit', (code, signal) => {
    if (!stopping.has(child)) {
      console.error(
        `\n${entry} exited unexpectedly (${code ?? signal}); its last output:\n${output.slice(-4000)}`,
      );
    }
  });
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-8000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return { child, ready };
}

/** The processes being stopped on purpose. */
const stopping = new WeakSet<ChildProcess>();

/** SIGTERM (drain), then SIGKILL if it has not exited in 10 s. */
async function stopChild(child: ChildProcess): Promise<void> {
  stopping.add(child);
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** CPU time (ms) of the stack's processes: its workers, its HTTP instance, its PostgreSQL backends by pid. */
interface CpuSnapshot {
  readonly workers: number;
  readonly server: number;
  readonly backends: ReadonlyMap<number, number>;
}

/** CPU per page (ms) of each part of the stack during a crawl, and the cores they used. */
interface CpuPerPage {
  readonly workers: number;
  readonly server: number;
  readonly postgres: number;
  /** Cores the three used on average over the crawl. */
  readonly cores: number;
}

async function cpuOf(stack: Stack): Promise<CpuSnapshot> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  let pids: number[];
  try {
    const { rows } = await client.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE application_name = $1',
      [stack.schema],
    );
    pids = rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
  const backends = new Map<number, number>();
  for (const pid of pids) {
    const ms = cpuTimeMs(pid);
    if (ms !== null) backends.set(pid, ms);
  }
  const sum = (values: readonly (number | null)[]) =>
    values.reduce<number>((a, b) => a + (b ?? 0), 0);
  return {
    workers: sum(stack.workerPids.map(cpuTimeMs)),
    server: cpuTimeMs(stack.serverPid) ?? 0,
    backends,
  };
}

/**
 * CPU per page between two snapshots. A backend that started in between counts whole;
 * one that ended in between is missed, so the PostgreSQL figure is a floor.
 */
function cpuSince(
  before: CpuSnapshot,
  after: CpuSnapshot,
  pages: number,
  seconds: number,
): CpuPerPage {
  let postgres = 0;
  for (const [pid, ms] of after.backends) postgres += ms - (before.backends.get(pid) ?? 0);
  const workers = after.workers - before.workers;
  const server = after.server - before.server;
  return {
    workers: workers / pages,
    server: server / pages,
    postgres: postgres / pages,
    cores: (workers + server + postgres) / 1000 / seconds,
  };
}

/** A webhook receiver on loopback that accepts every event (204) and counts them. */
interface Receiver {
  readonly url: string;
  readonly allow: string;
  readonly received: { n: number };
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const received = { n: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.n += 1;
      res.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    allow: `127.0.0.1:${port}`,
    received,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A poll of the job, with the worker processes' RSS at that moment. */
interface Sample {
  /** Seconds since the job was created. */
  readonly t: number;
  /** Pages made (delivered or failed). */
  readonly pages: number;
  readonly rssMb: readonly number[];
}

/** What one crawl job measured. */
interface CrawlRun {
  readonly shape?: Shape;
  readonly workers: number;
  /** Backends of the stack waiting for a lock (a row another transaction holds), mean per sample. */
  readonly lockWaiters: number;
  readonly concurrency: number;
  readonly pages: number;
  readonly failed: number;
  /** From the request that created the job to the poll that saw `completed`. */
  readonly seconds: number;
  readonly samples: readonly Sample[];
  /** Most fetches in flight at the site at once. */
  readonly siteMaxInFlight: number;
  readonly cpu: CpuPerPage;
  /** The machine's busy share of its cores during the crawl. */
  readonly machineBusy: number;
  /** Seconds after `completed` until the last webhook event was delivered. */
  readonly webhookLagSeconds: number | null;
  readonly books: readonly BookRow[] | null;
}

/**
 * Create a crawl job of `pages` pages with a new live key and follow it to its end,
 * sampling `GET /jobs/{id}` and the workers' RSS every `pollMs`; then wait for its
 * webhook events to be delivered and, with `books`, count what it left in the database.
 */
async function crawl(
  stack: Stack,
  site: CrawlSite,
  hook: Receiver,
  options: { readonly pages: number; readonly pollMs: number; readonly books?: boolean },
): Promise<CrawlRun> {
  const key = await liveKey(stack.base, options.pages * TEXT_CREDITS * 2);
  const cpuBefore = await cpuOf(stack);
  const machineBefore = machineTicks();
  const began = performance.now();
  const created = await jsonCall(`${stack.base}/jobs/crawl`, key, 'POST', {
    url: `${site.origin}/p/0`,
    limit: options.pages,
    maxDepth: 100,
    format: 'text',
    webhook: { url: hook.url },
  });
  if (created.status !== 202) {
    throw new Error(`POST /jobs/crawl answered ${created.status}: ${JSON.stringify(created.body)}`);
  }
  const jobId = (created.body as { jobId: string }).jobId;
  const samples: Sample[] = [];
  const waits = await startLockSampler(stack);
  let job: JobView;
  for (;;) {
    job = (await jsonCall(`${stack.base}/jobs/${jobId}`, key, 'GET')).body as JobView;
    samples.push({
      t: (performance.now() - began) / 1000,
      pages: job.completed + job.failed,
      rssMb: stack.workerPids.map(rssMb),
    });
    if (job.status !== 'queued' && job.status !== 'running') break;
    await sleep(options.pollMs);
  }
  const lockWaiters = await waits.stop();
  // The job's own times, from the database's clock: created, and last updated, which for
  // an ended job is when it ended (polling would add up to a poll's interval).
  const seconds = (Date.parse(job.updatedAt) - Date.parse(job.createdAt)) / 1000;
  const machineBusy = busyShare(machineBefore, machineTicks());
  const cpu = cpuSince(cpuBefore, await cpuOf(stack), options.pages, seconds);
  if (job.status !== 'completed' || job.completed + job.failed !== options.pages) {
    throw new Error(
      `the job ended ${job.status} with ${job.completed} pages delivered and ${job.failed} failed of ${options.pages}`,
    );
  }
  const webhookLagSeconds = await webhookLag(stack.base, key, jobId, performance.now());
  const books = options.books ? await bookRows(stack, jobId) : null;
  return {
    workers: stack.workers,
    lockWaiters,
    concurrency: stack.concurrency,
    pages: job.completed,
    failed: job.failed,
    seconds,
    samples,
    siteMaxInFlight: site.inFlight.max,
    cpu,
    machineBusy,
    webhookLagSeconds,
    books,
  };
}

interface JobView {
  readonly status: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly completed: number;
  readonly failed: number;
  readonly webhook?: { readonly pending: number; readonly failed: number };
}

/** Seconds from `since` until the job's webhook has no event pending (null past 5 minutes). */
async function webhookLag(
  base: string,
  key: string,
  jobId: string,
  since: number,
): Promise<number | null> {
  while (performance.now() - since < 300_000) {
    const job = (await jsonCall(`${base}/jobs/${jobId}`, key, 'GET')).body as JobView;
    if ((job.webhook?.pending ?? 0) === 0) return (performance.now() - since) / 1000;
    await sleep(100);
  }
  return null;
}

/**
 * Count, every 20 ms until stopped, the stack's backends waiting for a lock
 * (`pg_stat_activity.wait_event_type = 'Lock'`: a row or transaction another one holds,
 * such as a job's row that every page's commit locks); the mean per sample.
 */
async function startLockSampler(stack: Stack): Promise<{ stop(): Promise<number> }> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  let running = true;
  let samples = 0;
  let waiting = 0;
  const loop = (async () => {
    while (running) {
      const { rows } = await client.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_stat_activity
          WHERE application_name = $1 AND state = 'active' AND wait_event_type = 'Lock'`,
        [stack.schema],
      );
      samples += 1;
      waiting += Number(rows[0]?.n ?? 0);
      await sleep(20);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      await client.end();
      return samples === 0 ? 0 : waiting / samples;
    },
  };
}

/** A live key with `credits`, minted and granted through the instance's own routes. */
async function liveKey(base: string, credits: number): Promise<string> {
  const minted = await jsonCall(`${base}/api/dev/keys?live=true`, null, 'POST');
  const { key, keyId } = minted.body as { key: string; keyId: string };
  const granted = await fetch(`${base}/admin/keys/${keyId}/credits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits }),
  });
  await granted.arrayBuffer();
  if (granted.status !== 200) throw new Error(`granting credits answered ${granted.status}`);
  return key;
}

async function jsonCall(
  url: string,
  key: string | null,
  method: 'GET' | 'POST',
  body?: unknown,
): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method,
    headers: {
      ...(key === null ? {} : { authorization: `Bearer ${key}` }),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/** One table's share of what a crawl left in the database. */
interface BookRow {
  readonly table: string;
  readonly rows: number;
  readonly bytes: number;
}

/** The job's tables this crawl writes to, and the job's rows in each. */
const JOB_TABLES: readonly { readonly table: string; readonly where: string }[] = [
  { table: 'crawl_jobs', where: 'id = $1' },
  { table: 'crawl_pages', where: 'job_id = $1' },
  { table: 'crawl_frontier', where: 'job_id = $1' },
  { table: 'crawl_hosts', where: 'job_id = $1' },
  { table: 'ledger', where: 'job_id = $1' },
  { table: 'job_events', where: 'job_id = $1' },
];

/**
 * The rows the job left in its tables, and every table's size on disk
 * (`pg_total_relation_size`: heap, indexes, TOAST; the schema is this crawl's alone);
 * then each table of the queue's schema: the rows it keeps, and its size.
 */
async function bookRows(stack: Stack, jobId: string): Promise<BookRow[]> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  try {
    const out: BookRow[] = [];
    for (const { table, where } of JOB_TABLES) {
      const { rows } = await client.query<{ n: string; bytes: string }>(
        `SELECT (SELECT count(*) FROM ${stack.schema}.${table} WHERE ${where}) AS n,
                pg_total_relation_size('${stack.schema}.${table}') AS bytes`,
        [jobId],
      );
      out.push({ table, rows: Number(rows[0]?.n), bytes: Number(rows[0]?.bytes) });
    }
    const { rows: tables } = await client.query<{ relname: string }>(
      `SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = $1 AND c.relkind = 'r' ORDER BY c.relname`,
      [stack.queueSchema],
    );
    for (const { relname } of tables) {
      const name = `${stack.queueSchema}.${relname}`;
      const { rows } = await client.query<{ n: string; bytes: string }>(
        `SELECT (SELECT count(*) FROM ${name}) AS n, pg_total_relation_size('${name}') AS bytes`,
      );
      out.push({
        table: `queue ${relname}`,
        rows: Number(rows[0]?.n),
        bytes: Number(rows[0]?.bytes),
      });
    }
    return out;
  } finally {
    await client.end();
  }
}

/** What the Crawlee crawl measured. */
interface PeerRun {
  readonly pages: number;
  readonly failed: number;
  readonly seconds: number;
  readonly samples: readonly Sample[];
  readonly siteMaxInFlight: number;
  readonly cpuMsPerPage: number;
  readonly machineBusy: number;
}

/** The last message of `lib/crawlee-crawl.mjs`. */
interface PeerDone {
  readonly handled: number;
  readonly failed: number;
  readonly seconds: number;
  readonly cpuMs: number;
}

/** Crawlee's crawl of the same site in a process of its own, its RSS sampled every 250 ms. */
async function crawleeCrawl(site: CrawlSite, pages: number, concurrency: number): Promise<PeerRun> {
  const child = fork(CRAWLEE_CHILD, [JSON.stringify({ origin: site.origin, pages, concurrency })], {
    execArgv: [],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const cleanup = () => stopChild(child);
  cleanups.add(cleanup);
  try {
    let handled = 0;
    let began = 0;
    const samples: Sample[] = [];
    const sample = () =>
      samples.push({
        t: (performance.now() - began) / 1000,
        pages: handled,
        rssMb: [rssMb(child.pid as number)],
      });
    const done = new Promise<PeerDone>((resolve, reject) => {
      child.on('message', (message: { type: string; handled: number }) => {
        if (message.type === 'ready') {
          began = performance.now();
          child.send({ type: 'start' });
        } else if (message.type === 'progress') {
          handled = message.handled;
        } else if (message.type === 'done') {
          handled = message.handled;
          sample();
          resolve(message as unknown as PeerDone);
        }
      });
      child.once('exit', (code) => reject(new Error(`the Crawlee crawl exited with ${code}`)));
    });
    const machineBefore = machineTicks();
    const timer = setInterval(() => {
      if (began > 0) sample();
    }, 250);
    let result: PeerDone;
    try {
      result = await done;
    } finally {
      clearInterval(timer);
    }
    return {
      pages: result.handled,
      failed: result.failed,
      seconds: result.seconds,
      samples,
      siteMaxInFlight: site.inFlight.max,
      cpuMsPerPage: result.cpuMs / Math.max(1, result.handled),
      machineBusy: busyShare(machineBefore, machineTicks()),
    };
  } finally {
    await cleanup();
    cleanups.delete(cleanup);
  }
}

/** Print the three tables and the verdicts; return the targets. */
function report(
  scaling: readonly CrawlRun[],
  bigRuns: readonly CrawlRun[],
  peer: PeerRun,
  quick: boolean,
): JobsTarget[] {
  const big = bigRuns[0] as CrawlRun;
  const last = bigRuns[bigRuns.length - 1] as CrawlRun;
  const rate = (run: { pages: number; seconds: number }) => run.pages / run.seconds;
  const targets = reportScaling(scaling, quick);

  const marks = RSS_MARKS.map((fraction) => ({
    fraction,
    ours: atFraction(big.samples, big.pages * fraction),
    theirs: atFraction(peer.samples, peer.pages * fraction),
  }));
  const peak = (samples: readonly Sample[]) => Math.max(...samples.map((s) => s.rssMb[0] ?? 0));
  const mark = (s: Sample | undefined) =>
    s === undefined ? '-' : `${(s.rssMb[0] ?? 0).toFixed(0)} MB at ${s.pages} pages`;
  printColumns(
    `Crawl jobs, a ${big.pages.toLocaleString('en')}-page crawl answered ${BIG_DELAY_MS} ms late: a job on one worker process (JOB_CONCURRENCY=${BIG_CONCURRENCY}, JOB_HOST_CONCURRENCY=${BIG_CONCURRENCY}) next to ${PEER} in one process (concurrency ${BIG_CONCURRENCY}) (${header(quick)})`,
    [
      'measure',
      'storefront crawl job (receipt per page, durable books)',
      `${PEER} (does less: no receipts, no durable books)`,
    ],
    [
      ['pages (failed)', `${big.pages} (${big.failed})`, `${peer.pages} (${peer.failed})`],
      ['start → end, s', big.seconds.toFixed(1), peer.seconds.toFixed(1)],
      ['pages/s', rate(big).toFixed(1), rate(peer).toFixed(1)],
      ...marks.map((m) => [
        `RSS of the crawling process at ${percent(m.fraction)} of the pages`,
        mark(m.ours),
        mark(m.theirs),
      ]),
      [
        'peak RSS of the crawling process (sampled)',
        `${peak(big.samples).toFixed(0)} MB`,
        `${peak(peer.samples).toFixed(0)} MB`,
      ],
      ...bigRuns.map((run, i) => [
        `peak RSS of the worker process during job ${i + 1} of ${bigRuns.length} (same process)`,
        `${peak(run.samples).toFixed(0)} MB`,
        i === 0 ? `${peak(peer.samples).toFixed(0)} MB (its one crawl)` : '-',
      ]),
      ...bigRuns.map((run, i) => [
        `RSS of the worker process at the end of job ${i + 1}`,
        mark(run.samples[run.samples.length - 1]),
        i === 0 ? mark(peer.samples[peer.samples.length - 1]) : '-',
      ]),
      [
        'CPU of the crawling process per page, ms',
        big.cpu.workers.toFixed(2),
        peer.cpuMsPerPage.toFixed(2),
      ],
      ['CPU of the HTTP instance per page, ms', big.cpu.server.toFixed(2), '-'],
      ['CPU of PostgreSQL per page, ms', big.cpu.postgres.toFixed(2), '-'],
      [
        'cores used by the crawl, average',
        big.cpu.cores.toFixed(2),
        ((peer.cpuMsPerPage * peer.pages) / 1000 / peer.seconds).toFixed(2),
      ],
      [
        'most fetches in flight at the site',
        String(big.siteMaxInFlight),
        String(peer.siteMaxInFlight),
      ],
      [
        'machine busy during the crawl (all processes)',
        percent(big.machineBusy),
        percent(peer.machineBusy),
      ],
      ['webhook events delivered, s after completed', lag(big), '-'],
    ],
  );
  const books = big.books ?? [];
  const totalRows = books.reduce((sum, b) => sum + b.rows, 0);
  const totalBytes = books.reduce((sum, b) => sum + b.bytes, 0);
  printColumns(
    `What the ${big.pages.toLocaleString('en')}-page job left in PostgreSQL (rows of the job; bytes of the whole table, indexes and TOAST included, after the webhook events were delivered)`,
    ['table', 'rows', 'rows/page', 'bytes', 'bytes/page'],
    [...books, { table: 'all', rows: totalRows, bytes: totalBytes }].map((b) => [
      b.table,
      String(b.rows),
      (b.rows / big.pages).toFixed(3),
      String(b.bytes),
      (b.bytes / big.pages).toFixed(0),
    ]),
  );

  // Over every job of the worker process: V8 lets its heap grow well past one job
  // before a full collection, so one job's samples would miss the peak.
  const allSamples = bigRuns.flatMap((r) => r.samples);
  const ourPeak = peak(allSamples);
  const growth = peak(last.samples) / peak(big.samples) - 1;
  const pagesInAll = bigRuns.reduce((sum, r) => sum + r.pages, 0);
  targets.push(
    {
      name: `peak RSS of the worker process, ${bigRuns.length} x ${big.pages}-page crawls`,
      goal: `≤ ${GOAL_RSS_MB} MB`,
      measured: `${ourPeak.toFixed(0)} MB`,
      met: ourPeak <= GOAL_RSS_MB,
    },
    {
      name: `RSS flat in page count (peak of the last job vs the first, ${pagesInAll} pages)`,
      goal: `≤ +${percent(GOAL_FLAT)}`,
      measured: `${growth >= 0 ? '+' : ''}${percent(growth)}`,
      met: bigRuns.length < 2 || Number.isNaN(growth) ? null : growth <= GOAL_FLAT,
    },
  );
  printColumns(
    'Crawl-job targets',
    ['target', 'goal', 'measured', 'met'],
    targets.map((t) => [
      t.name,
      t.goal,
      t.measured,
      t.met === null ? '-' : t.met ? 'met' : 'NOT met',
    ]),
  );
  return targets;
}

/** The CPU rows of a table of crawl runs. */
function cpuRows(runs: readonly CrawlRun[]): string[][] {
  return [
    ['CPU per page, worker processes, ms', ...runs.map((r) => r.cpu.workers.toFixed(1))],
    ['CPU per page, HTTP instance, ms', ...runs.map((r) => r.cpu.server.toFixed(1))],
    ['CPU per page, PostgreSQL backends, ms', ...runs.map((r) => r.cpu.postgres.toFixed(1))],
    ['cores used by the crawl, average', ...runs.map((r) => r.cpu.cores.toFixed(2))],
  ];
}

/** Print (1), shape by shape: each side's median run, and the ratio of the medians. */
function reportScaling(scaling: readonly CrawlRun[], quick: boolean): JobsTarget[] {
  const rate = (run: { pages: number; seconds: number }) => run.pages / run.seconds;
  const targets: JobsTarget[] = [];
  for (const shape of SHAPES) {
    const ones = scaling.filter((r) => r.shape === shape && r.workers === 1);
    const twos = scaling.filter((r) => r.shape === shape && r.workers === 2);
    if (ones.length === 0 || twos.length === 0) continue;
    const one = medianRun(ones);
    const two = medianRun(twos);
    const ratio = rate(two) / rate(one);
    const sides = [one, two];
    printColumns(
      `Crawl jobs, one worker process vs two: ${one.pages} pages answered ${SCALING_DELAY_MS} ms late, found ${shape === 'links' ? 'by links only' : 'by links and a sitemap of every page'}; JOB_CONCURRENCY=${SCALING_CONCURRENCY}, JOB_HOST_CONCURRENCY=${SCALING_HOST_CONCURRENCY}; median of ${ones.length} alternated runs each (${header(quick)})`,
      ['measure', '1 worker process', '2 worker processes'],
      [
        ['job created → completed, s', ...sides.map((r) => r.seconds.toFixed(2))],
        ['pages/s (whole job)', ...sides.map((r) => rate(r).toFixed(1))],
        [
          'pages/s of each run, in order',
          ...[ones, twos].map((runs) => runs.map((r) => rate(r).toFixed(1)).join(' / ')),
        ],
        ['seconds to the first page', ...sides.map((r) => secondsTo(r, 1).toFixed(2))],
        [
          'seconds to 10% of the pages',
          ...sides.map((r) => secondsTo(r, r.pages * 0.1).toFixed(2)),
        ],
        [
          'pages/s from 10% to 90% of the pages',
          ...sides.map((r) => rateBetween(r, 0.1, 0.9).toFixed(1)),
        ],
        [
          'most fetches in flight at the site (bound: processes × JOB_CONCURRENCY)',
          ...sides.map((r) => `${r.siteMaxInFlight} (${r.workers * r.concurrency})`),
        ],
        ['backends waiting for a lock, mean', ...sides.map((r) => r.lockWaiters.toFixed(2))],
        ...cpuRows(sides),
        [
          'machine busy during the crawl (all processes)',
          ...sides.map((r) => percent(r.machineBusy)),
        ],
        ['webhook events delivered, s after completed', ...sides.map((r) => lag(r))],
      ],
    );
    const pairs = ones.map((r, i) => {
      const other = twos[i];
      return other === undefined ? NaN : rate(other) / rate(r);
    });
    const middle = rateBetween(two, 0.1, 0.9) / rateBetween(one, 0.1, 0.9);
    console.log(
      `2 processes / 1 process, pages/s (whole job): ${ratio.toFixed(2)}x (goal ≥ ${GOAL_RATIO}x: ${ratio >= GOAL_RATIO ? 'met' : 'NOT met'}); run by run: ${pairs.map((x) => `${x.toFixed(2)}x`).join(', ')}; from 10% to 90% of the pages: ${middle.toFixed(2)}x`,
    );
    targets.push({
      name: `2 worker processes / 1, pages/s at 200 ms upstream, pages found by ${shape === 'links' ? 'links only' : 'links and a sitemap'}`,
      goal: `≥ ${GOAL_RATIO}x`,
      measured: `${ratio.toFixed(2)}x`,
      met: ratio >= GOAL_RATIO,
    });
  }
  return targets;
}

function header(quick: boolean): string {
  const load = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  return `${machine()}, ${cpus().length} cores, load ${load}${quick ? ', --quick' : ''}`;
}

/** The run of median pages/s (the lower middle one of an even count). */
function medianRun(runs: readonly CrawlRun[]): CrawlRun {
  const sorted = [...runs].sort((a, b) => a.pages / a.seconds - b.pages / b.seconds);
  return sorted[Math.floor((sorted.length - 1) / 2)] as CrawlRun;
}

/** Seconds from the job's creation to the first sample with `pages` made. */
function secondsTo(run: CrawlRun, pages: number): number {
  return atFraction(run.samples, pages)?.t ?? NaN;
}

/** Pages/s between the first samples past `from` and `to` (fractions of the pages). */
function rateBetween(run: CrawlRun, from: number, to: number): number {
  const a = atFraction(run.samples, run.pages * from);
  const b = atFraction(run.samples, run.pages * to);
  if (a === undefined || b === undefined || b.t <= a.t) return NaN;
  return (b.pages - a.pages) / (b.t - a.t);
}

/** The first sample at or past `pages`. */
function atFraction(samples: readonly Sample[], pages: number): Sample | undefined {
  return samples.find((s) => s.pages >= pages);
}

function lag(run: CrawlRun): string {
  return run.webhookLagSeconds === null ? 'not in 300 s' : run.webhookLagSeconds.toFixed(1);
}

function percent(share: number): string {
  return `${(share * 100).toFixed(0)}%`;
}

/** The process's resident set in MB, from /proc (0 once it is gone). */
function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/**
 * User and system CPU time a process has used (ms), all its threads, from /proc (clock
 * ticks of 10 ms); null once it is gone.
 */
function cpuTimeMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** The machine's CPU ticks: all, and idle (idle + iowait), from /proc/stat. */
function machineTicks(): { total: number; idle: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] as string;
  const ticks = line.trim().split(/\s+/).slice(1).map(Number);
  const total = ticks.reduce((sum, n) => sum + n, 0);
  return { total, idle: (ticks[3] ?? 0) + (ticks[4] ?? 0) };
}

function busyShare(
  before: { total: number; idle: number },
  after: { total: number; idle: number },
): number {
  const total = after.total - before.total;
  return total <= 0 ? 0 : 1 - (after.idle - before.idle) / total;
}

async function sql(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
