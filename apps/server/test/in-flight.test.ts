import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type Tier, tierPlans } from '../src/metering/tiers.js';
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

const ADMIN_TOKEN = 'in-flight-test-admin-token';
const FETCH_CREDITS = 3; // $0.003
const plans = tierPlans();

function admin(base: string, path: string, body?: unknown): Promise<JsonAnswer> {
  return fetchJson(`${base}${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}

async function mintKey(base: string, live: boolean): Promise<{ key: string; keyId: string }> {
  const minted = await fetchJson(`${base}/api/dev/keys?live=${live}`, { method: 'POST' });
  expect(minted.status).toBe(201);
  return minted.body as { key: string; keyId: string };
}

async function ledger(base: string, keyId: string) {
  const res = await admin(base, `/admin/ledger?keyId=${keyId}&limit=1000`);
  return res.body.entries as { outcome: string; charged: boolean; units: number }[];
}

/**
 * A page that answers only when told to: every request is held until {@link release},
 * and answered at once after it.
 */
class SlowPage {
  readonly server: http.Server;
  #held: http.ServerResponse[] = [];
  #open = false;

  constructor() {
    this.server = http.createServer((_req, res) => {
      if (this.#open) this.#answer(res);
      else this.#held.push(res);
    });
  }

  async listen(): Promise<number> {
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    return (this.server.address() as AddressInfo).port;
  }

  release(): void {
    this.#open = true;
    for (const res of this.#held.splice(0)) this.#answer(res);
  }

  hold(): void {
    this.#open = false;
  }

  close(): void {
    this.release();
    this.server.closeAllConnections();
    this.server.close();
  }

  #answer(res: http.ServerResponse): void {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('A page that took its time.\n');
  }
}

/**
 * Send `count` calls at once, the i-th to `bases[i % bases.length]`; once `refusals`
 * of them have been answered (the refused ones answer without waiting for the page),
 * release the page so the admitted ones finish. Returns every answer, in order.
 */
async function burst(
  bases: readonly string[],
  path: string,
  key: string,
  count: number,
  refusals: number,
  page: SlowPage,
): Promise<{ answers: JsonAnswer[]; early: JsonAnswer[] }> {
  const early: JsonAnswer[] = [];
  let resolveEarly: () => void = () => {};
  const enough = new Promise<void>((resolve) => {
    resolveEarly = resolve;
  });
  const answers = Promise.all(
    Array.from({ length: count }, (_, i) =>
      fetchJson(`${bases[i % bases.length]}${path}`, {
        headers: { authorization: `Bearer ${key}` },
      }).then((answer) => {
        early.push(answer);
        if (early.length === refusals) resolveEarly();
        return answer;
      }),
    ),
  );
  // Before the fix nothing is refused: every call waits for the page, which answers
  // only after the fetch deadline gave up on it.
  await Promise.race([enough, answers]);
  const first = early.slice(0, refusals);
  page.release();
  const all = await answers;
  page.hold();
  return { answers: all, early: first };
}

describe('calls in flight per key', () => {
  const schema = uniqueSchema();
  const dataDir = tempDir('storefront-in-flight-');
  const servers: RunningServer[] = [];
  const page = new SlowPage();
  let slowPath = '';

  beforeAll(async () => {
    const port = await page.listen();
    slowPath = `/buy/fetch?url=${encodeURIComponent(`http://127.0.0.1:${port}/slow`)}`;
    await createSchema(schema);
    const serve = () =>
      startServer(
        loadConfig(
          {
            NODE_ENV: 'test',
            PORT: '0',
            DATA_DIR: dataDir,
            ADMIN_TOKEN,
            LOG_LEVEL: 'silent',
            SAFE_FETCH_ALLOW: `127.0.0.1:${port}`,
            ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
          },
          dataDir,
        ),
        { logger: pino({ level: 'silent' }), ...(DATABASE_URL === null ? {} : { schema }) },
      );
    servers.push(await serve());
    // A second instance on the same database (PostgreSQL only: PGlite is one process's).
    if (DATABASE_URL !== null) servers.push(await serve());
  }, 60_000);

  afterAll(async () => {
    page.close();
    for (const server of servers) await server.close();
    await dropSchema(schema);
  });

  const cases: readonly { tier: Tier; live: boolean; instances: number }[] = [
    { tier: 'prepaid', live: true, instances: 1 },
    { tier: 'sandbox', live: false, instances: 1 },
    ...(DATABASE_URL === null ? [] : [{ tier: 'prepaid' as const, live: true, instances: 2 }]),
  ];

  it.each(cases)(
    '$tier on $instances instance(s): of N+k calls at once exactly N are admitted; k get 429 too_many_in_flight with Retry-After and cost nothing',
    async ({ tier, live, instances }) => {
      const bases = servers.slice(0, instances).map((server) => server.url);
      const base = bases[0] as string;
      const n = plans[tier].inFlight;
      const k = 3;
      const { key, keyId } = await mintKey(base, live);
      const credits = 100 * FETCH_CREDITS;
      if (live) {
        expect((await admin(base, `/admin/keys/${keyId}/credits`, { credits })).status).toBe(200);
      }

      const { answers, early } = await burst(bases, slowPath, key, n + k, k, page);
      // The k refusals come first, while the N admitted calls wait for the page.
      for (const answer of early) {
        expect(answer.status).toBe(429);
        expect(answer.body).toMatchObject({ ok: false, error: 'too_many_in_flight' });
        expect(answer.body.message).toBe(
          `The ${tier} plan allows ${n} calls in flight at once; retry in 1 s`,
        );
        expect(answer.headers.get('retry-after')).toBe('1');
        expect(answer.headers.get('ratelimit-limit')).toBe(String(plans[tier].perMinute));
        expect(answer.headers.get('storefront-charge')).toBe(null);
      }
      const ok = answers.filter((answer) => answer.status === 200);
      expect(ok).toHaveLength(n);
      for (const answer of ok) expect(answer.body.ok).toBe(true);
      expect(answers.filter((answer) => answer.status === 429)).toHaveLength(k);

      // Only the N delivered calls were paid for; the refusals left uncharged rows.
      const balance = await fetchJson(`${base}/api/dev/balance`, {
        headers: { authorization: `Bearer ${key}` },
      });
      if (live) expect(balance.body.credits).toBe(credits - n * FETCH_CREDITS);
      else expect(balance.body.sandbox_remaining).toBe((plans.sandbox.included ?? 0) - n);
      expect(balance.body.calls).toBe(n);
      for (const side of bases) await ledger(side, keyId);
      const rows = await ledger(base, keyId);
      expect(rows).toHaveLength(n + k);
      expect(rows.filter((row) => row.outcome === 'delivered' && row.charged)).toHaveLength(n);
      const refused = rows.filter((row) => row.outcome === 'too_many_in_flight');
      expect(refused).toHaveLength(k);
      for (const row of refused) expect(row).toMatchObject({ charged: false, units: 0 });

      // Every call has ended: the key has all of its calls in flight back.
      if (tier === 'sandbox') return; // its five calls a minute are spent
      page.release();
      const again = await Promise.all(
        Array.from({ length: n }, (_, i) =>
          fetchJson(`${bases[i % bases.length]}${slowPath}`, {
            headers: { authorization: `Bearer ${key}` },
          }),
        ),
      );
      page.hold();
      expect(again.map((answer) => answer.status)).toStrictEqual(Array(n).fill(200));
    },
    60_000,
  );

  it('a caller that sends its next call as soon as an answer arrives is never refused at its limit', async () => {
    const base = (servers[0] as RunningServer).url;
    const { key, keyId } = await mintKey(base, true);
    expect((await admin(base, `/admin/keys/${keyId}/credits`, { credits: 1000 })).status).toBe(200);
    page.release();
    const lanes = plans.prepaid.inFlight;
    const statuses = (
      await Promise.all(
        Array.from({ length: lanes }, async () => {
          const seen: number[] = [];
          for (let i = 0; i < 10; i++) {
            seen.push(
              (
                await fetchJson(`${base}${slowPath}`, {
                  headers: { authorization: `Bearer ${key}` },
                })
              ).status,
            );
          }
          return seen;
        }),
      )
    ).flat();
    page.hold();
    expect(statuses).toStrictEqual(Array(lanes * 10).fill(200));
  }, 60_000);

  // Each lane sends its next call as soon as its answer arrives, alternating between the
  // instances, so the key never has more calls in flight than its plan allows; a call
  // answered by one instance whose charge is still on its way must not count against
  // the next call on the other (nor on the same one).
  it.runIf(DATABASE_URL !== null)(
    'a caller that never exceeds its calls in flight is never refused, across two instances',
    async () => {
      const bases = servers.map((server) => server.url);
      const base = bases[0] as string;
      const { key, keyId } = await mintKey(base, true);
      expect((await admin(base, `/admin/keys/${keyId}/tier`, { tier: 'business' })).status).toBe(
        200,
      );
      page.release();
      const lanes = plans.business.inFlight;
      const perLane = 16; // 400 calls, within the plan's 600 a minute
      const statuses = (
        await Promise.all(
          Array.from({ length: lanes }, async (_, lane) => {
            const seen: number[] = [];
            for (let i = 0; i < perLane; i++) {
              const side = bases[(lane + i) % bases.length] as string;
              const answer = await fetchJson(`${side}${slowPath}`, {
                headers: { authorization: `Bearer ${key}` },
              });
              seen.push(answer.status);
            }
            return seen;
          }),
        )
      ).flat();
      page.hold();
      expect(statuses.filter((status) => status !== 200)).toStrictEqual([]);
      // Every call was charged once, and none is left in flight.
      for (const side of bases) await ledger(side, keyId);
      const balance = await fetchJson(`${base}/api/dev/balance`, {
        headers: { authorization: `Bearer ${key}` },
      });
      expect(balance.body.calls).toBe(lanes * perLane);
      const rows = await ledger(base, keyId);
      expect(rows.filter((row) => row.outcome === 'delivered' && row.charged)).toHaveLength(
        lanes * perLane,
      );
    },
    120_000,
  );
});
