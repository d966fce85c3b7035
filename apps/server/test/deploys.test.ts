import { type ChildProcess, spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../src/db/database.js';
import { tierPlans } from '../src/metering/tiers.js';
import {
  createSchema,
  DATABASE_URL,
  dropSchema,
  fetchJson,
  type JsonAnswer,
  tempDir,
  uniqueSchema,
} from './helpers.js';

// Deploys and crashes with real `main` processes: two instances on one PostgreSQL schema
// (PGlite serves one process, so these run on PostgreSQL only).

const main = join(import.meta.dirname, '../src/main.ts');
const ADMIN_TOKEN = 'deploys-test-admin-token';
const plans = tierPlans();
/** The plan of the test keys: 25 calls in flight, 600 a minute, an allowance of calls. */
const TIER = 'business';

/**
 * A page that holds every request until {@link release}; `held` says how many arrived
 * since, and emits `arrived` on each, so a test waits for its calls to be in flight.
 */
class HeldPage extends EventEmitter {
  readonly server: http.Server;
  held = 0;
  #waiting: http.ServerResponse[] = [];
  #open = false;

  constructor() {
    super();
    this.server = http.createServer((_req, res) => {
      if (this.#open) return this.#answer(res);
      this.#waiting.push(res);
      this.held += 1;
      this.emit('arrived');
    });
  }

  async listen(): Promise<number> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return (this.server.address() as AddressInfo).port;
  }

  /** Resolve once `count` requests are held. */
  async heldAtLeast(count: number): Promise<void> {
    while (this.held < count) await once(this, 'arrived');
  }

  release(): void {
    this.#open = true;
    for (const res of this.#waiting.splice(0)) this.#answer(res);
  }

  hold(): void {
    this.#open = false;
    this.held = 0;
  }

  close(): void {
    this.release();
    this.server.closeAllConnections();
    this.server.close();
  }

  #answer(res: http.ServerResponse): void {
    if (res.destroyed) return;
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('A page that took its time.\n');
  }
}

interface Instance {
  readonly child: ChildProcess;
  readonly url: string;
  readonly exited: Promise<number | null>;
  output(): string;
}

const children = new Set<ChildProcess>();
const schema = uniqueSchema();
const dataDir = tempDir('storefront-deploys-');
const page = new HeldPage();
let pagePort = 0;
let db: Database;

/** Start `src/main.ts` as a real process on the shared schema; resolves once it listens. */
async function start(): Promise<Instance> {
  const url = new URL(DATABASE_URL as string);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const child = spawn(
    process.execPath,
    ['--conditions=@storefront/source', '--import', 'tsx', main],
    {
      env: {
        PATH: process.env.PATH,
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        DATABASE_URL: url.href,
        ADMIN_TOKEN,
        SIGNER_PRIVATE_KEY: `0x${'4'.repeat(64)}`,
        SAFE_FETCH_ALLOW: `127.0.0.1:${pagePort}`,
        // Key-door calls only: no development payment stack in these processes.
        FACILITATOR_URL: 'http://127.0.0.1:9/',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  children.add(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      children.delete(child);
      resolve(code);
    });
  });
  const base = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /running at (http:\/\/\S+)/.exec(output);
      if (match) resolve(match[1] as string);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    void exited.then((code) => reject(new Error(`main exited with ${code}:\n${output}`)));
  });
  return { child, url: base, exited, output: () => output };
}

/** A live key on the test plan, with its allowance of calls. */
async function businessKey(base: string): Promise<{ key: string; keyId: string }> {
  const minted = await fetchJson(`${base}/api/dev/keys?live=true`, { method: 'POST' });
  expect(minted.status).toBe(201);
  const { key, keyId } = minted.body as { key: string; keyId: string };
  const tier = await fetchJson(`${base}/admin/keys/${keyId}/tier`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ tier: TIER }),
  });
  expect(tier.status).toBe(200);
  return { key, keyId };
}

function paid(base: string, key: string): Promise<JsonAnswer> {
  const target = encodeURIComponent(`http://127.0.0.1:${pagePort}/held`);
  return fetchJson(`${base}/buy/fetch?url=${target}`, {
    headers: { authorization: `Bearer ${key}` },
  });
}

/** The key's books as the database has them. */
async function books(keyId: string) {
  const key = await db.query<{ in_flight: number; included_remaining: string; calls: string }>(
    'SELECT in_flight, included_remaining, calls FROM api_keys WHERE key_id = $1',
    [keyId],
  );
  const rows = await db.query<{ outcome: string; charged: boolean; n: string }>(
    'SELECT outcome, charged, count(*) AS n FROM ledger WHERE key_id = $1 GROUP BY 1, 2 ORDER BY 1, 2',
    [keyId],
  );
  const k = key.rows[0] as { in_flight: number; included_remaining: string; calls: string };
  return {
    inFlight: k.in_flight,
    includedRemaining: Number(k.included_remaining),
    ledger: Object.fromEntries(
      rows.rows.map((row) => [`${row.outcome}${row.charged ? ':charged' : ''}`, Number(row.n)]),
    ),
  };
}

const included = plans[TIER].included ?? 0;

describe.runIf(DATABASE_URL !== null)('deploys and crashes (two instances on PostgreSQL)', () => {
  beforeAll(async () => {
    pagePort = await page.listen();
    await createSchema(schema);
    db = await openDatabase({
      url: DATABASE_URL as string,
      dataDir: null,
      schema,
      maxConnections: 2,
    });
  }, 60_000);

  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    page.close();
    await db?.close();
    await dropSchema(schema);
  });

  it('SIGTERM drains: calls in flight finish, new calls get 503 draining and succeed on the other instance, exit 0, books exact', async () => {
    const a = await start();
    const b = await start();
    const { key, keyId } = await businessKey(b.url);

    // 20 calls in flight on A, held by the page.
    page.hold();
    const inFlight = Array.from({ length: 20 }, () => paid(a.url, key));
    await page.heldAtLeast(20);

    a.child.kill('SIGTERM');
    // A load balancer's health check sees the drain.
    let health = await fetchJson(`${a.url}/healthz`);
    while (health.status === 200) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      health = await fetchJson(`${a.url}/healthz`);
    }
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ ok: false, error: 'draining', draining: true });

    // Calls arriving now are refused before admission, told to retry, and the retries
    // (on the other instance, as a load balancer would send them) succeed.
    const late = await Promise.all(Array.from({ length: 5 }, () => paid(a.url, key)));
    for (const answer of late) {
      expect(answer.status).toBe(503);
      expect(answer.body).toMatchObject({ ok: false, error: 'draining' });
      expect(answer.body.message).toBe(
        'This instance is shutting down and admits no new calls; retry in 1 s',
      );
      expect(answer.headers.get('retry-after')).toBe('1');
      expect(answer.headers.get('storefront-charge')).toBe(null);
    }
    const retried = Array.from({ length: 5 }, () => paid(b.url, key));
    await page.heldAtLeast(25);
    page.release();

    const answers = [...(await Promise.all(inFlight)), ...(await Promise.all(retried))];
    expect(answers.map((answer) => answer.status)).toStrictEqual(Array(25).fill(200));
    for (const answer of answers) expect(answer.body.ok).toBe(true);
    expect(await a.exited).toBe(0);
    page.hold();

    // A gave up its lease; B still holds its own.
    const leases = await db.query<{ n: string }>('SELECT count(*) AS n FROM instances');
    expect(Number(leases.rows[0]?.n)).toBe(1);
    // Once B has drained too (its last charges are committed a moment after their
    // answers), every reservation was committed: 25 calls charged, nothing pending.
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect(await books(keyId)).toStrictEqual({
      inFlight: 0,
      includedRemaining: included - 25,
      ledger: { 'delivered:charged': 25 },
    });
  }, 120_000);

  it('a second SIGTERM stops a draining instance at once; the other instance releases what it held', async () => {
    const a = await start();
    const b = await start();
    const { key, keyId } = await businessKey(b.url);

    page.hold();
    const cut = Array.from({ length: 3 }, () => paid(a.url, key).catch(() => null));
    await page.heldAtLeast(3);
    a.child.kill('SIGTERM');
    let health = await fetchJson(`${a.url}/healthz`);
    while (health.status === 200) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      health = await fetchJson(`${a.url}/healthz`);
    }
    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(1);
    expect(a.output()).toContain('SIGTERM again: stopping without draining');
    expect(await Promise.all(cut)).toStrictEqual([null, null, null]);

    let state = await books(keyId);
    while (state.inFlight > 0) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      state = await books(keyId);
    }
    expect(state).toStrictEqual({
      inFlight: 0,
      includedRemaining: included,
      ledger: { abandoned: 3 },
    });
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
  }, 120_000);

  it("kill -9: the other instance releases the crashed instance's reservations within seconds; the key is not refused; books exact", async () => {
    const a = await start();
    const b = await start();
    const { key, keyId } = await businessKey(b.url);
    const cap = plans[TIER].inFlight;

    page.hold();
    const lost = Array.from({ length: 20 }, () => paid(a.url, key).catch(() => null));
    await page.heldAtLeast(20);
    expect((await books(keyId)).inFlight).toBe(20);

    const killed = Date.now();
    a.child.kill('SIGKILL');
    expect(await a.exited).toBe(null);
    expect(await Promise.all(lost)).toStrictEqual(Array(20).fill(null));

    // B releases them once A's lease has expired: wait for it (the age sweep alone
    // would take 300 s; 30 s is far beyond a lease).
    let state = await books(keyId);
    while (state.inFlight > 0 && Date.now() - killed < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      state = await books(keyId);
    }
    const releasedAfterMs = Date.now() - killed;
    expect(state).toStrictEqual({
      inFlight: 0,
      includedRemaining: included,
      ledger: { abandoned: 20 },
    });
    process.stdout.write(
      `reservations of the killed instance released after ${releasedAfterMs} ms\n`,
    );

    // The key has all of its calls in flight: as many as its plan allows are admitted.
    page.hold();
    const again = Array.from({ length: cap }, () => paid(b.url, key));
    await page.heldAtLeast(cap);
    page.release();
    expect((await Promise.all(again)).map((answer) => answer.status)).toStrictEqual(
      Array(cap).fill(200),
    );
    page.hold();
    b.child.kill('SIGTERM');
    expect(await b.exited).toBe(0);
    expect(await books(keyId)).toStrictEqual({
      inFlight: 0,
      includedRemaining: included - cap,
      ledger: { abandoned: 20, 'delivered:charged': cap },
    });
  }, 120_000);
});
