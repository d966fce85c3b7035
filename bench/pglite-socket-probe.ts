import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Logger, run, runMigrations } from 'graphile-worker';
import pg from 'pg';

/**
 * What of graphile-worker works on embedded PGlite through @electric-sql/pglite-socket:
 * several connections at once, transaction isolation between two of them, LISTEN/NOTIFY
 * across them, and the library's migrations, a job queued in a transaction, and a worker
 * running it. Prints one line per check. Run:
 * `node --conditions=@storefront/source --import tsx bench/pglite-socket-probe.ts`.
 * See docs/decisions.md, "Job engine: graphile-worker or pg-boss".
 */
const PORT = 55_432;
const db = await PGlite.create();
const server = new PGLiteSocketServer({ db, port: PORT, host: '127.0.0.1', maxConnections: 16 });
await server.start();
const url = `postgres://postgres@127.0.0.1:${PORT}/postgres`;

async function check(name: string, body: () => Promise<string>, ms = 10_000): Promise<void> {
  const timeout = new Promise<string>((_, reject) =>
    setTimeout(() => reject(new Error(`no answer in ${ms / 1000} s`)), ms),
  );
  try {
    console.log(`ok    ${name}: ${await Promise.race([body(), timeout])}`);
  } catch (error) {
    console.log(`FAIL  ${name}: ${(error as Error).message}`);
  }
}

const a = new pg.Client({ connectionString: url });
const b = new pg.Client({ connectionString: url });
await check('two connections at once', async () => {
  await Promise.all([a.connect(), b.connect()]);
  const [ra, rb] = await Promise.all([a.query('SELECT 1 AS one'), b.query('SELECT 2 AS two')]);
  return `${ra.rows[0].one} and ${rb.rows[0].two}; ${JSON.stringify(server.getStats())}`;
});

await check('an open transaction is invisible to the other connection', async () => {
  await a.query('CREATE TABLE probe (n int)');
  await a.query('BEGIN');
  await a.query('INSERT INTO probe VALUES (1)');
  const seen = b.query('SELECT count(*)::int AS n FROM probe');
  const outcome = await Promise.race([
    seen.then((r) => `the other connection saw ${r.rows[0].n} row(s) before the commit`),
    new Promise<string>((resolve) =>
      setTimeout(() => resolve('the other connection waits until the commit'), 1000),
    ),
  ]);
  await a.query('ROLLBACK');
  await seen;
  return outcome;
});

await check(
  'LISTEN and NOTIFY on one connection',
  async () => {
    const heard = new Promise<string>((resolve) =>
      b.once('notification', (m) => resolve(m.channel)),
    );
    await b.query('LISTEN self');
    await b.query(`NOTIFY self, 'x'`);
    return `heard on ${await heard}`;
  },
  3000,
);

await check(
  'LISTEN on one connection, NOTIFY from the other',
  async () => {
    const heard = new Promise<string>((resolve) =>
      a.once('notification', (m) => resolve(m.channel)),
    );
    await a.query('LISTEN "jobs:insert"');
    await b.query(`NOTIFY "jobs:insert", '{}'`);
    return `heard on ${await heard}`;
  },
  3000,
);

await Promise.all([a.end(), b.end()]);

const pool = new pg.Pool({ connectionString: url, max: 8 });
pool.on('error', (error) => console.log(`pool error: ${error.message}`));
const logger = new Logger(() => (level, message) => {
  if (level === 'error' || level === 'warning')
    console.log(`  graphile-worker ${level}: ${message}`);
});
await check(
  'graphile-worker migrations',
  async () => {
    await runMigrations({ pgPool: pool, schema: 'gw', logger });
    const { rows } = await pool.query('SELECT max(id) AS id FROM gw.migrations');
    return `at migration ${rows[0].id}`;
  },
  60_000,
);

await check('add_job inside a transaction on a pool client', async () => {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `SELECT gw.add_job('crawl-page', '{"url":"https://example.test/"}', job_key => 'k1')`,
    );
    await client.query('COMMIT');
  } finally {
    client.release();
  }
  const { rows } = await pool.query('SELECT count(*)::int AS n FROM gw.jobs');
  return `${rows[0].n} job queued`;
});

/** Run a worker at concurrency 4 until it has run the queued job and one added while it runs. */
async function runTwoJobs(noPreparedStatements: boolean): Promise<string> {
  const ran: string[] = [];
  const errors: string[] = [];
  let second: () => void = () => {};
  const both = new Promise<void>((resolve) => {
    second = resolve;
  });
  const runner = await run({
    pgPool: pool,
    schema: 'gw',
    concurrency: 4,
    noHandleSignals: true,
    noPreparedStatements,
    pollInterval: 1000,
    logger: new Logger(() => (level, message) => {
      if (level === 'error') errors.push(message.split('\n')[0] ?? '');
    }),
    taskList: {
      'crawl-page': async (payload) => {
        ran.push((payload as { url: string }).url);
        if (ran.length === 2) second();
      },
    },
  });
  const t0 = Date.now();
  await pool.query(`SELECT gw.add_job('crawl-page', '{"url":"https://example.test/2"}')`);
  await both;
  const ms = Date.now() - t0;
  await runner.stop().catch((error: Error) => errors.push(`stop: ${error.message}`));
  const logged = errors.length === 0 ? 'no errors' : `${errors.length} errors, first: ${errors[0]}`;
  return `ran ${ran.length} jobs; the second started ${ms} ms after its add_job; ${logged}`;
}

await check('a worker with prepared statements (the default)', () => runTwoJobs(false), 30_000);
await pool.query(`SELECT gw.add_job('crawl-page', '{"url":"https://example.test/3"}')`);
await check('a worker with noPreparedStatements: true', () => runTwoJobs(true), 30_000);

await pool.end();
await server.stop();
await db.close();
