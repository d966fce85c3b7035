import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type ProfileSummary, profileWhile } from './lib/cpu-profile.js';
import { cleanupOnSignal } from './lib/interrupt.js';
import { machine, printColumns } from './lib/report.js';
import {
  creditsFor,
  type Database,
  dropSchemasSql,
  express,
  loadConfig,
  openDatabase,
  type RunningServer,
  silentLogger,
  startServer,
  type TierPlans,
  tierPlans,
  undici,
} from './lib/server-deps.js';
import { fmt, loadText } from './lib/service-calls.js';
import { startUpstream, type UpstreamPage } from './lib/service-site.js';

const execFileAsync = promisify(execFile);

/** Calls sent at once, each on its own connection. */
const CALLS = 2000;
/** How long the loopback upstream holds back each answer (ms). */
const UPSTREAM_DELAY_MS = 1000;
/** The goal: our p99 overhead above the upstream's second at most this times the bare proxy's. */
const GOAL_RATIO = 1.5;
/** Credits on the key: far more than every round together spends. */
const KEY_CREDITS = 50_000_000;
/** The tuned proxy's accept backlog: the service's (`LISTEN_BACKLOG` in apps/server/src/server.ts). */
const LISTEN_BACKLOG = 4096;
const SIGNER_KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';

/** One target of this benchmark; `met` is null when it could not be measured. */
export interface ScaleTarget {
  readonly name: string;
  readonly goal: string;
  readonly measured: string;
  readonly met: boolean | null;
}

/** What one burst of calls gave, as `lib/burst.mjs` reports it. */
interface Burst {
  readonly latencies: number[];
  readonly statuses: Record<string, number>;
  readonly charges: Record<string, number>;
  readonly errors: Record<string, number>;
}

/** One side of one round. */
interface Row {
  readonly side: string;
  readonly round: number;
  readonly burst: Burst;
}

/**
 * Calls at scale (README.md, "Calls at scale"): 2,000 key-door calls at once, each on
 * its own connection, to `/buy/fetch` of a loopback page that answers after 1 s, next to
 * a bare Express 5 + undici proxy fetching the same page; the latency each side adds
 * above that second, and the key's books after the run.
 */
export async function scaleBenchmark(options: {
  readonly quick: boolean;
  /** Profile the server's thread during one more key-door burst and print the top. */
  readonly profile: boolean;
}): Promise<{ targets: ScaleTarget[] }> {
  const rounds = options.quick ? 1 : 3;
  const databaseUrl = process.env.DATABASE_URL ?? '';
  if (databaseUrl === '') {
    const why = 'DATABASE_URL is not set (the benchmark needs PostgreSQL)';
    console.log(`\nCalls at scale: not measured: ${why}`);
    return { targets: [{ name: TARGET_NAME, goal: '-', measured: why, met: null }] };
  }

  const upstream = await startUpstream(smallPage(), UPSTREAM_DELAY_MS);
  const schema = `bench_scale_${process.pid}_${Date.now().toString(36)}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'storefront-bench-scale-'));
  const adminToken = randomBytes(16).toString('hex');
  const agent = new undici.Agent();
  let server: RunningServer | null = null;
  let bare: Server | null = null;
  let tuned: Server | null = null;
  let db: Database | null = null;
  let cleaning: Promise<void> | null = null;
  const cleanup = () => {
    cleaning ??= (async () => {
      for (const s of [bare, tuned]) {
        await new Promise<void>((resolve) => {
          if (s === null) return resolve();
          s.close(() => resolve());
          s.closeAllConnections();
        });
      }
      await server?.close();
      await agent.close();
      await upstream.close();
      await db?.exec(dropSchemasSql(schema));
      await db?.close();
      rmSync(dataDir, { recursive: true, force: true });
    })();
    return cleaning;
  };
  const stopCleanupOnSignal = cleanupOnSignal(cleanup);
  try {
    const config = loadConfig(
      {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: '0',
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        SIGNER_PRIVATE_KEY: SIGNER_KEY,
        SAFE_FETCH_ALLOW: upstream.allow,
        LOG_LEVEL: 'silent',
        ADMIN_TOKEN: adminToken,
      },
      dataDir,
    );
    const plans = scalePlans();
    server = await startServer(config, { schema, logger: silentLogger(), plans });
    await server.ready();
    db = await openDatabase({ url: databaseUrl, dataDir: null, schema });
    const { key, keyId } = await creditKey(server.url, adminToken);
    bare = await listen(bareProxy(agent));
    tuned = await listen(bareProxy(agent), LISTEN_BACKLOG);
    const portOf = (s: Server) => (s.address() as AddressInfo).port;
    const target = encodeURIComponent(upstream.url);
    const sides = [
      {
        side: BARE,
        url: `http://127.0.0.1:${portOf(bare)}/proxy?url=${target}`,
        headers: {},
      },
      {
        side: TUNED,
        url: `http://127.0.0.1:${portOf(tuned)}/proxy?url=${target}`,
        headers: {},
      },
      {
        side: DOOR,
        url: `${server.url}/buy/fetch?url=${target}`,
        headers: { authorization: `Bearer ${key}` },
      },
    ];
    const price = creditsFor(3000);

    console.log(
      `\nCalls at scale (${machine()}, ${cpus().length} cores; the server, the bare proxy, the ` +
        `upstream, the client and PostgreSQL share the cores; load average at start ${loadText()})`,
    );
    console.log(
      `${CALLS} calls at once, each on its own connection, from a client in its own process; ` +
        `upstream: ${smallPage().bytes.length} B page on 127.0.0.1, each answer ${UPSTREAM_DELAY_MS} ms late; ` +
        `key: prepaid (pays by credits, ${price} per call) with ${plans.prepaid.inFlight} calls in ` +
        `flight and ${plans.prepaid.perMinute} per minute; ${rounds} round(s), sides alternated`,
    );

    // Warm every side (JIT, pools, product thread) with a smaller burst first.
    let delivered = 0;
    for (const s of sides) {
      const warm = await burst(s.url, s.headers, 200);
      if (s.side === DOOR) delivered += warm.statuses['200'] ?? 0;
      await quiet(server.url);
    }
    const rows: Row[] = [];
    for (let round = 1; round <= rounds; round++) {
      const order = sides.map((_, i) => sides[(i + round - 1) % sides.length] as (typeof sides)[0]);
      for (const s of order) {
        const result = await burst(s.url, s.headers, CALLS);
        rows.push({ side: s.side, round, burst: result });
        if (s.side === DOOR) delivered += result.statuses['200'] ?? 0;
        await quiet(server.url);
      }
    }

    printColumns(
      `/buy/fetch?url=<loopback page, ${UPSTREAM_DELAY_MS} ms late>: latency above ${UPSTREAM_DELAY_MS} ms`,
      ['side', 'round', 'calls', 'answers', 'p50 ms', 'p99 ms', 'max ms'],
      rows.map((r) => {
        const o = overheads(r.burst);
        return [
          r.side,
          String(r.round),
          String(r.burst.latencies.length),
          statusText(r.burst),
          fmt(at(o, 0.5)),
          fmt(at(o, 0.99)),
          fmt(at(o, 1)),
        ];
      }),
      1,
    );
    const pooled = (side: string) =>
      overheads({
        latencies: rows.filter((r) => r.side === side).flatMap((r) => r.burst.latencies),
      } as Burst);
    const bareO = pooled(BARE);
    const tunedO = pooled(TUNED);
    const doorO = pooled(DOOR);
    const ratio = at(doorO, 0.99) / at(bareO, 0.99);
    const strict = at(doorO, 0.99) / at(tunedO, 0.99);
    console.log(
      `over all rounds: key door p50 ${fmt(at(doorO, 0.5))} ms, p99 ${fmt(at(doorO, 0.99))} ms; ` +
        `bare proxy p50 ${fmt(at(bareO, 0.5))} ms, p99 ${fmt(at(bareO, 0.99))} ms; ` +
        `bare proxy with the server's backlog p50 ${fmt(at(tunedO, 0.5))} ms, p99 ${fmt(at(tunedO, 0.99))} ms; ` +
        `p99 ratio ${ratio.toFixed(2)} (goal <= ${GOAL_RATIO}), ${strict.toFixed(2)} against the tuned proxy`,
    );

    // Every failed or refused call fails the run: the scenario is that all succeed.
    const failed = rows.filter((r) => (r.burst.statuses['200'] ?? 0) !== r.burst.latencies.length);
    const books = await checkBooks(db, server.url, adminToken, keyId, delivered, price);
    console.log(`books: ${books.text}`);

    const targets: ScaleTarget[] = [
      {
        name: TARGET_NAME,
        goal: `<= ${GOAL_RATIO}x`,
        measured:
          `${ratio.toFixed(2)}x (key door p99 ${fmt(at(doorO, 0.99))} ms, p50 ${fmt(at(doorO, 0.5))} ms; ` +
          `bare p99 ${fmt(at(bareO, 0.99))} ms, p50 ${fmt(at(bareO, 0.5))} ms; ` +
          `${strict.toFixed(2)}x against the proxy with backlog ${LISTEN_BACKLOG})`,
        met: ratio <= GOAL_RATIO && failed.length === 0,
      },
      {
        name: `every call answered 200, books exact`,
        goal: 'all',
        measured:
          failed.length === 0
            ? `${books.exact ? 'books exact' : 'books NOT exact'}`
            : `${failed.length} burst(s) with failures: ${failed.map((r) => `${r.side} #${r.round} ${statusText(r.burst)}`).join('; ')}`,
        met: failed.length === 0 && books.exact,
      },
    ];
    printColumns(
      'Targets',
      ['target', 'measured', 'goal', 'result'],
      targets.map((t) => [t.name, t.measured, t.goal, t.met ? 'met' : 'NOT met']),
    );
    if (options.profile) {
      const door = sides.find((s) => s.side === DOOR)!;
      const file = join(tmpdir(), `storefront-scale-${process.pid}.cpuprofile`);
      let result: Burst | null = null;
      const summary = await profileWhile(file, async () => {
        result = await burst(door.url, door.headers, CALLS);
      });
      await quiet(server.url);
      const o = overheads(result as unknown as Burst);
      console.log(
        `\nCPU profile of the server's thread during one more key-door burst: ` +
          `${(summary.wallMs / 1000).toFixed(1)} s, busy ${fmt(summary.busyMs)} ms ` +
          `(${((summary.busyMs * 1000) / CALLS).toFixed(0)} µs per call); p50 ${fmt(at(o, 0.5))} ms, ` +
          `p99 ${fmt(at(o, 0.99))} ms above the upstream's second\n(${file})`,
      );
      const rows = (entries: ProfileSummary['areas']) =>
        entries.map((e) => [e.name, e.ms.toFixed(0), ((e.ms * 1000) / CALLS).toFixed(0)]);
      printColumns('self time by area', ['area', 'ms', 'µs/call'], rows(summary.areas));
      printColumns(
        'top functions by self time',
        ['function', 'ms', 'µs/call'],
        rows(summary.functions),
      );
    }
    console.log(`load average at the end: ${loadText()}`);
    return { targets };
  } finally {
    stopCleanupOnSignal();
    await cleanup();
  }
}

const TARGET_NAME = `${CALLS} calls at once: p99 overhead, key door / bare proxy`;
const BARE = 'bare Express 5 + undici proxy';
const TUNED = `the same, listen backlog ${LISTEN_BACKLOG}`;
const DOOR = 'key door /buy/fetch';

/**
 * The tier table with the planless plan (credits only) given an enterprise-like
 * allowance: a million calls a minute and 4,000 in flight, so that every call of a
 * burst is admitted and paid by credits.
 */
function scalePlans(): TierPlans {
  const plans = tierPlans(1_000_000);
  return { ...plans, prepaid: { ...plans.prepaid, perMinute: 1_000_000, inFlight: 4000 } };
}

/** Mint a live key (prepaid) and give it {@link KEY_CREDITS} through the operator API. */
async function creditKey(base: string, adminToken: string) {
  const minted = await fetch(`${base}/api/dev/keys?live=true&label=scale`, { method: 'POST' });
  const body = (await minted.json()) as { ok: boolean; key: string; keyId: string };
  if (minted.status !== 201 || !body.ok) throw new Error(`minting a key: ${minted.status}`);
  const granted = await fetch(`${base}/admin/keys/${body.keyId}/credits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits: KEY_CREDITS }),
  });
  if (!granted.ok) throw new Error(`granting credits: ${granted.status}`);
  return { key: body.key, keyId: body.keyId };
}

/**
 * After the run, from the database: the credits the key spent, the charges in its ledger
 * and the delivered calls times the price must be one number, the 200 answers the
 * client counted must be the delivered calls, and nothing may be pending or in flight.
 * The ledger is read after an operator ledger read, which waits for the instance's
 * commits.
 */
async function checkBooks(
  db: Database,
  base: string,
  adminToken: string,
  keyId: string,
  answered: number,
  price: number,
): Promise<{ exact: boolean; text: string }> {
  await fetch(`${base}/admin/ledger?keyId=${keyId}&limit=1`, {
    headers: { authorization: `Bearer ${adminToken}` },
  });
  const { rows } = await db.query<{
    credits: string;
    in_flight: number;
    calls: string;
    charged: string;
    delivered: string;
    pending: string;
    other: string;
  }>(
    `SELECT k.credits, k.in_flight, k.calls,
            (SELECT coalesce(sum(units), 0) FROM ledger WHERE key_id = k.key_id AND charged) AS charged,
            (SELECT count(*) FROM ledger WHERE key_id = k.key_id AND outcome = 'delivered' AND charged) AS delivered,
            (SELECT count(*) FROM ledger WHERE key_id = k.key_id AND outcome = 'pending') AS pending,
            (SELECT count(*) FROM ledger WHERE key_id = k.key_id AND outcome NOT IN ('delivered', 'pending')) AS other
       FROM api_keys k WHERE k.key_id = $1`,
    [keyId],
  );
  const row = rows[0];
  if (row === undefined) return { exact: false, text: 'the key is gone' };
  const spent = KEY_CREDITS - Number(row.credits);
  const charged = Number(row.charged);
  const delivered = Number(row.delivered);
  const exact =
    spent === charged &&
    charged === delivered * price &&
    delivered === answered &&
    Number(row.calls) === delivered &&
    Number(row.pending) === 0 &&
    Number(row.other) === 0 &&
    row.in_flight === 0;
  return {
    exact,
    text:
      `credits spent ${spent}, charges in the ledger ${charged}, delivered ${delivered} x ${price} = ` +
      `${delivered * price}; 200 answers ${answered}; calls on the key ${row.calls}; pending ` +
      `${row.pending}; other outcomes ${row.other}; in flight ${row.in_flight}: ${exact ? 'exact' : 'NOT exact'}`,
  };
}

/** The bare comparison: Express 5, one route that fetches `url` with undici and sends it on. */
function bareProxy(agent: unknown) {
  const app = express();
  app.disable('x-powered-by');
  app.get('/proxy', async (req, res) => {
    const got = await undici.request(String(req.query.url ?? ''), { dispatcher: agent });
    const body = Buffer.from(await got.body.arrayBuffer());
    res.status(got.statusCode);
    res.type(String(got.headers['content-type'] ?? 'application/octet-stream'));
    res.send(body);
  });
  return app;
}

/** A short article (about 1.5 KB): the product's work is small next to the service's. */
function smallPage(): UpstreamPage {
  const paragraphs = Array.from(
    { length: 6 },
    (_, i) =>
      `<p>Paragraph ${i + 1} of the harbour report: the ferry timetable changes on Monday, ` +
      'the quay is resurfaced in two stages, and the market moves to the square.</p>',
  ).join('\n');
  const html =
    '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Harbour report</title>' +
    '<meta name="description" content="Weekly notes from the harbour."></head><body><main><article>' +
    `<h1>Harbour report</h1>\n${paragraphs}\n</article></main></body></html>`;
  const contentType = 'text/html; charset=utf-8';
  return {
    name: 'harbour report',
    bytes: new TextEncoder().encode(html),
    contentType,
    headers: { 'content-type': contentType },
  };
}

/** Run `lib/burst.mjs` in its own process: `calls` GETs of `url` at once. */
async function burst(
  url: string,
  headers: Readonly<Record<string, string>>,
  calls: number,
): Promise<Burst> {
  const script = fileURLToPath(new URL('./lib/burst.mjs', import.meta.url));
  const { stdout } = await execFileAsync(
    process.execPath,
    [script, JSON.stringify({ url, headers, calls })],
    { maxBuffer: 16 << 20 },
  );
  return JSON.parse(stdout) as Burst;
}

/**
 * Wait until the service answers `/healthz` (a database round trip) within 20 ms twice
 * in a row and the connections of the last burst have had a moment to close.
 */
async function quiet(base: string): Promise<void> {
  const deadline = performance.now() + 30_000;
  let quick = 0;
  while (quick < 2 && performance.now() < deadline) {
    const start = performance.now();
    await (await fetch(`${base}/healthz`)).arrayBuffer();
    quick = performance.now() - start < 20 ? quick + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function overheads(b: Burst): number[] {
  return b.latencies.map((ms) => ms - UPSTREAM_DELAY_MS).sort((x, y) => x - y);
}

function at(sorted: readonly number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

function statusText(b: Burst): string {
  const parts = Object.entries(b.statuses).map(
    ([s, n]) => `${n}x${s === '0' ? 'socket error' : s}`,
  );
  const errors = Object.entries(b.errors).map(([e, n]) => `${n}x${e}`);
  return [...parts, ...errors].join(' ');
}

/** Listen on a free loopback port, with Node's default backlog (511) unless given one. */
function listen(app: ReturnType<typeof express>, backlog?: number): Promise<Server> {
  const server = createServer(app);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', ...(backlog ? { backlog } : {}) }, () =>
      resolve(server),
    );
  });
}
