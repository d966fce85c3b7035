import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { type TierPlans, tierPlans } from '../src/metering/tiers.js';
import { type RunningServer, startServer } from '../src/server.js';
import {
  createSchema,
  DATABASE_URL,
  dropSchema,
  fetchJson,
  type JsonAnswer,
  tempDir,
  uniqueSchema,
} from './helpers.js';

const ADMIN_TOKEN = 'metering-test-admin-token';
const NOTARIZE_CREDITS = 8; // $0.008
const silent = pino({ level: 'silent' });

function admin(base: string, path: string, body?: unknown): Promise<JsonAnswer> {
  return fetchJson(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function liveKey(base: string, credits: number): Promise<{ key: string; keyId: string }> {
  const minted = await fetchJson(`${base}/api/dev/keys?live=true`, { method: 'POST' });
  expect(minted.status).toBe(201);
  const { key, keyId } = minted.body as { key: string; keyId: string };
  if (credits > 0)
    expect((await admin(base, `/admin/keys/${keyId}/credits`, { credits })).status).toBe(200);
  return { key, keyId };
}

async function ledger(base: string, keyId: string) {
  const res = await admin(base, `/admin/ledger?keyId=${keyId}&limit=1000`);
  return res.body.entries as { outcome: string; charged: boolean; units: number; source: string }[];
}

function notarizeUrl(base: string, i: number): string {
  return `${base}/buy/notarize?content=${encodeURIComponent(`attempt ${i}`)}`;
}

/** Start one in-process server on `schema` (PostgreSQL) or its own PGlite. */
async function serve(
  schema: string,
  dataDir: string,
  extra: Record<string, string> = {},
  plans?: TierPlans,
): Promise<RunningServer> {
  const config = loadConfig(
    {
      NODE_ENV: 'test',
      PORT: '0',
      DATA_DIR: dataDir,
      ADMIN_TOKEN,
      LOG_LEVEL: 'silent',
      ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
      ...extra,
    },
    dataDir,
  );
  return startServer(config, {
    logger: silent,
    ...(DATABASE_URL === null ? {} : { schema }),
    ...(plans === undefined ? {} : { plans }),
  });
}

describe('credits under concurrency', () => {
  const schema = uniqueSchema();
  const dataDir = tempDir('storefront-metering-');
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    await createSchema(schema);
    servers.push(await serve(schema, dataDir));
    // A second instance on the same database (PostgreSQL only: PGlite is one process's).
    if (DATABASE_URL !== null) servers.push(await serve(schema, dataDir));
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    await dropSchema(schema);
  });

  it('a key with credits for exactly N calls gets exactly N of 5N concurrent calls; the rest 402; balance 0; one ledger row per attempt', async () => {
    const base = (servers[0] as RunningServer).url;
    const N = 10;
    const { key, keyId } = await liveKey(base, N * NOTARIZE_CREDITS);
    const results = await Promise.all(
      Array.from({ length: 5 * N }, (_, i) =>
        fetchJson(notarizeUrl(base, i), { headers: { authorization: `Bearer ${key}` } }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    const refused = results.filter((r) => r.status === 402);
    expect(ok).toHaveLength(N);
    expect(refused).toHaveLength(4 * N);
    for (const r of ok) expect(r.body.ok).toBe(true);
    for (const r of refused) {
      expect(r.body.error).toBe('insufficient_credits');
      expect((r.body.accepts as unknown[]).length).toBe(1);
    }
    const balance = await fetchJson(`${base}/api/dev/balance`, {
      headers: { authorization: `Bearer ${key}` },
    });
    // `calls` counts the calls that were served, not the refusals.
    expect(balance.body).toMatchObject({ credits: 0, env: 'live', tier: 'prepaid', calls: N });
    const rows = await ledger(base, keyId);
    expect(rows).toHaveLength(5 * N);
    expect(rows.filter((r) => r.outcome === 'delivered' && r.charged)).toHaveLength(N);
    expect(rows.filter((r) => r.outcome === 'insufficient_credits' && !r.charged)).toHaveLength(
      4 * N,
    );
  });

  it.runIf(DATABASE_URL !== null)(
    'two server instances sharing one database serve one key with the same guarantee',
    async () => {
      const [a, b] = servers as [RunningServer, RunningServer];
      // No more than the plan's calls in flight (10), so that money alone refuses calls.
      const N = 10;
      const { key, keyId } = await liveKey(a.url, N * NOTARIZE_CREDITS);
      const results = await Promise.all(
        Array.from({ length: 5 * N }, (_, i) =>
          fetchJson(notarizeUrl(i % 2 === 0 ? a.url : b.url, i), {
            headers: { authorization: `Bearer ${key}` },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(N);
      expect(results.filter((r) => r.status === 402)).toHaveLength(4 * N);
      // Each instance metered its half of the calls against the shared key (which of
      // them won the credits is up to scheduling).
      for (const side of [0, 1]) {
        const answered = results.filter((_r, i) => i % 2 === side);
        expect(answered.every((r) => r.status === 200 || r.status === 402)).toBe(true);
        expect(answered).toHaveLength((5 * N) / 2);
      }
      const balance = await fetchJson(`${b.url}/api/dev/balance`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(balance.body.credits).toBe(0);
      // An instance commits a charge once its answer is written, and settles its own
      // answers before it shows the ledger: read it through both.
      await ledger(a.url, keyId);
      const rows = await ledger(b.url, keyId);
      expect(rows).toHaveLength(5 * N);
      expect(rows.filter((r) => r.charged)).toHaveLength(N);
      expect(rows.filter((r) => r.outcome === 'pending')).toHaveLength(0);
    },
  );

  it('the sandbox allows 100 calls in all and 5 per minute, at as many calls at once as it may make', async () => {
    const base = (servers[0] as RunningServer).url;
    const minted = await fetchJson(`${base}/api/dev/keys?live=false`, { method: 'POST' });
    const { key, keyId } = minted.body as { key: string; keyId: string };
    // Two lanes of six calls: the sandbox's two calls in flight, all the time (a third
    // would be refused 429 too_many_in_flight, which test/in-flight.test.ts covers).
    const lanes = await Promise.all(
      [0, 1].map(async (lane) => {
        const answers: JsonAnswer[] = [];
        for (let i = 0; i < 6; i++) {
          answers.push(
            await fetchJson(notarizeUrl(base, lane * 6 + i), {
              headers: { authorization: `Bearer ${key}` },
            }),
          );
        }
        return answers;
      }),
    );
    const results = lanes.flat();
    const ok = results.filter((r) => r.status === 200);
    const limited = results.filter((r) => r.status === 429);
    // A call that straddles a minute boundary may land in the next window.
    expect(ok.length).toBeGreaterThanOrEqual(5);
    expect(ok.length).toBeLessThanOrEqual(10);
    expect(ok.length + limited.length).toBe(12);
    for (const r of limited) {
      expect(r.body.error).toBe('rate_limited');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(r.headers.get('ratelimit-limit')).toBe('5');
      expect(r.headers.get('ratelimit-remaining')).toBe('0');
    }
    const rows = await ledger(base, keyId);
    expect(rows).toHaveLength(12);
    expect(rows.filter((r) => r.outcome === 'rate_limited')).toHaveLength(limited.length);
    const balance = await fetchJson(`${base}/api/dev/balance`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(balance.body).toMatchObject({ sandbox_remaining: 100 - ok.length, sandbox_cap: 100 });
  });
});

describe('calls at scale on one key, two instances', () => {
  const schema = uniqueSchema();
  const dataDir = tempDir('storefront-metering-scale-');
  const servers: RunningServer[] = [];
  // The planless plan with room for every call at once, so that money alone refuses:
  // each instance then admits many calls of the key per meter statement.
  const base = tierPlans();
  const plans = {
    ...base,
    prepaid: { ...base.prepaid, perMinute: 100_000, inFlight: 1000 },
  };
  beforeAll(async () => {
    if (DATABASE_URL === null) return;
    await createSchema(schema);
    for (let i = 0; i < 2; i++) servers.push(await serve(schema, dataDir, {}, plans));
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    await dropSchema(schema);
  });

  it.runIf(DATABASE_URL !== null)(
    '300 calls at once through two instances on one key with credits for 37: exactly 37 served, no overspend, books exact',
    async () => {
      const [a, b] = servers as [RunningServer, RunningServer];
      const N = 37;
      const LEFT = 5; // less than one call
      const CALLS = 300;
      const { key, keyId } = await liveKey(a.url, N * NOTARIZE_CREDITS + LEFT);
      const results = await Promise.all(
        Array.from({ length: CALLS }, (_, i) =>
          fetchJson(notarizeUrl(i % 2 === 0 ? a.url : b.url, i), {
            headers: { authorization: `Bearer ${key}` },
          }),
        ),
      );
      expect(results.filter((r) => r.status === 200)).toHaveLength(N);
      expect(results.filter((r) => r.status === 402)).toHaveLength(CALLS - N);
      // Both instances' commits are written before the books are read.
      await ledger(a.url, keyId);
      await ledger(b.url, keyId);
      const db = await openDatabase({
        url: DATABASE_URL,
        dataDir: null,
        schema,
        maxConnections: 1,
      });
      try {
        const { rows } = await db.query<Record<string, string | number>>(
          `SELECT k.credits, k.in_flight, k.calls,
                  (SELECT count(*) FROM ledger WHERE key_id = k.key_id) AS attempts,
                  (SELECT coalesce(sum(units), 0) FROM ledger WHERE key_id = k.key_id AND charged) AS charged,
                  (SELECT count(*) FROM ledger WHERE key_id = k.key_id AND outcome = 'delivered') AS delivered,
                  (SELECT count(*) FROM ledger WHERE key_id = k.key_id AND outcome = 'insufficient_credits') AS refused,
                  (SELECT count(*) FROM ledger WHERE key_id = k.key_id AND outcome = 'pending') AS pending,
                  (SELECT count(DISTINCT (created_at, instance_id)) FROM ledger WHERE key_id = k.key_id) AS statements,
                  (SELECT count(DISTINCT instance_id) FROM ledger WHERE key_id = k.key_id) AS instances
             FROM api_keys k WHERE k.key_id = $1`,
          [keyId],
        );
        const books = Object.fromEntries(
          Object.entries(rows[0] ?? {}).map(([name, value]) => [name, Number(value)]),
        );
        expect(books).toMatchObject({
          credits: LEFT,
          in_flight: 0,
          calls: N,
          attempts: CALLS,
          charged: N * NOTARIZE_CREDITS,
          delivered: N,
          refused: CALLS - N,
          pending: 0,
          instances: 2,
        });
        // The instances admitted several calls per statement (rows of one statement share
        // its transaction's time).
        expect(books.statements).toBeLessThan(CALLS);
      } finally {
        await db.close();
      }
    },
  );
});

describe('key issuance', () => {
  const schema = uniqueSchema();
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    await createSchema(schema);
    servers.push(await serve(schema, tempDir('storefront-issue-')));
    servers.push(
      await serve(`${schema}`, tempDir('storefront-issue-proxy-'), { TRUST_PROXY: '1' }),
    );
  }, 60_000);
  afterAll(async () => {
    for (const server of servers) await server.close();
    await dropSchema(schema);
  });

  it('25 key requests from one IP in an hour: 20 succeed, 5 get 429 with Retry-After', async () => {
    const base = (servers[0] as RunningServer).url;
    const results = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        fetchJson(`${base}/api/dev/keys?live=${i % 2 === 0}`, { method: 'POST' }),
      ),
    );
    const created = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 429);
    expect(created).toHaveLength(20);
    expect(refused).toHaveLength(5);
    for (const r of refused) {
      expect(r.body.error).toBe('rate_limited');
      const retry = Number(r.headers.get('retry-after'));
      expect(retry).toBeGreaterThan(3000);
      expect(retry).toBeLessThanOrEqual(3600);
    }
    // Every key is distinct and well formed.
    const keys = new Set(created.map((r) => r.body.key as string));
    expect(keys.size).toBe(20);
    for (const key of keys) expect(key).toMatch(/^mk_(test|live)_[0-9A-Za-z]{43}$/);
  });

  it('without trust proxy, X-Forwarded-For cannot dodge the cap; with TRUST_PROXY=1 it names the client', async () => {
    const [plain, proxied] = servers as [RunningServer, RunningServer];
    // The first server already used up 127.0.0.1 above (on PGlite each server has its own store).
    const spoofed = await fetchJson(`${plain.url}/api/dev/keys`, {
      method: 'POST',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(spoofed.status).toBe(429);
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      const res = await fetchJson(`${proxied.url}/api/dev/keys`, {
        method: 'POST',
        headers: { 'x-forwarded-for': '198.51.100.7' },
      });
      statuses.push(res.status);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.at(-1)).toBe(429);
    const other = await fetchJson(`${proxied.url}/api/dev/keys`, {
      method: 'POST',
      headers: { 'x-forwarded-for': '198.51.100.8' },
    });
    expect(other.status).toBe(201);
  });
});

describe('a crash between reserve and finish', () => {
  const schema = uniqueSchema();
  const dataDir = tempDir('storefront-crash-');
  const children = new Set<ChildProcess>();
  let upstream: http.Server;
  let upstreamPort = 0;
  beforeAll(async () => {
    await createSchema(schema);
    // An upstream that accepts the request and never answers.
    upstream = http.createServer(() => {});
    upstream.listen(0, '127.0.0.1');
    await once(upstream, 'listening');
    upstreamPort = (upstream.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    upstream.closeAllConnections();
    upstream.close();
    await dropSchema(schema);
  });

  it.runIf(DATABASE_URL !== null)(
    'leaves a pending reservation that the next instance releases: credits back, ledger row abandoned',
    async () => {
      const env: NodeJS.ProcessEnv = {
        PATH: process.env.PATH,
        NODE_ENV: 'test',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        ADMIN_TOKEN,
        SAFE_FETCH_ALLOW: `127.0.0.1:${upstreamPort}`,
        DATABASE_URL: withSchema(DATABASE_URL as string, schema),
      };
      const first = await startProcess(env, children);
      const { key, keyId } = await liveKey(first.url, 100);
      // The call reserves 8 credits, then waits on the silent upstream; the process dies.
      const pending = fetch(
        `${first.url}/buy/notarize?url=${encodeURIComponent(`http://127.0.0.1:${upstreamPort}/slow`)}`,
        {
          headers: { authorization: `Bearer ${key}` },
        },
      ).catch(() => null);
      await waitFor(async () =>
        (await ledger(first.url, keyId)).some((r) => r.outcome === 'pending'),
      );
      first.child.kill('SIGKILL');
      await pending;

      const db = await openDatabase({
        url: DATABASE_URL,
        dataDir: null,
        schema,
        maxConnections: 1,
      });
      try {
        const held = await db.query<{ credits: string }>(
          'SELECT credits FROM api_keys WHERE key_id = $1',
          [keyId],
        );
        expect(Number(held.rows[0]?.credits)).toBe(100 - NOTARIZE_CREDITS);
        // Age the reservation past the bound instead of waiting five minutes.
        await db.query(
          "UPDATE ledger SET created_at = now() - interval '10 minutes' WHERE key_id = $1 AND outcome = 'pending'",
          [keyId],
        );
      } finally {
        await db.close();
      }

      const second = await startProcess(env, children);
      const rows = await ledger(second.url, keyId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        outcome: 'abandoned',
        charged: false,
        source: 'credits',
        units: NOTARIZE_CREDITS,
      });
      const balance = await fetchJson(`${second.url}/api/dev/balance`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(balance.body.credits).toBe(100);
      second.child.kill('SIGTERM');
    },
    60_000,
  );
});

function withSchema(url: string, schema: string): string {
  const parsed = new URL(url);
  parsed.searchParams.set('options', `-c search_path=${schema}`);
  return parsed.href;
}

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('condition not met in time');
}

async function startProcess(
  env: NodeJS.ProcessEnv,
  children: Set<ChildProcess>,
): Promise<{ child: ChildProcess; url: string }> {
  const main = join(import.meta.dirname, '../src/main.ts');
  const child = spawn(
    process.execPath,
    ['--conditions=@storefront/source', '--import', 'tsx', main],
    {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => reject(new Error(`main exited with ${code}:\n${output}`)));
  });
  return { child, url };
}
