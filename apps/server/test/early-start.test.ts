import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EarlyStart } from '../src/http/early-start.js';
import { mintKey } from '../src/metering/keys.js';
import {
  buy,
  callAndHangUp,
  creditsOf,
  enterpriseKey,
  ledgerOf,
  mintLiveKey,
  prepaidKey,
  type RouteApp,
  routeApp,
  setTier,
} from './keys.js';
import { type Site, startSite } from './site.js';

const LIMITS = { trustMs: 1000, perKey: 2, maxKeys: 3 };
const PAID = { metered: true };
const STARTED = { metered: true };

describe('EarlyStart', () => {
  it('trusts a key only after a paid admission, and only for a while', () => {
    let now = 0;
    const policy = new EarlyStart(LIMITS, () => now);
    expect(policy.begin('a')).toBe(null);
    policy.settle('a', false, PAID);
    expect(policy.begin('a')).toStrictEqual(STARTED);
    policy.settle('a', true, PAID);
    now = 999;
    expect(policy.begin('a')).toStrictEqual(STARTED);
    policy.settle('a', true, PAID);
    now = 999 + 1000;
    expect(policy.begin('a')).toBe(null);
    expect(policy.size).toBe(0);
  });

  it('remembers whether the last paid admission was metered', () => {
    const policy = new EarlyStart(LIMITS, () => 0);
    policy.settle('a', false, { metered: false });
    expect(policy.begin('a')).toStrictEqual({ metered: false });
    policy.settle('a', true, { metered: true });
    expect(policy.begin('a')).toStrictEqual({ metered: true });
  });

  it('lets at most `perKey` calls of one key wait for admission with work started', () => {
    const policy = new EarlyStart(LIMITS, () => 0);
    policy.settle('a', false, PAID);
    expect([policy.begin('a'), policy.begin('a'), policy.begin('a')]).toStrictEqual([
      STARTED,
      STARTED,
      null,
    ]);
    policy.settle('a', true, PAID);
    expect(policy.begin('a')).toStrictEqual(STARTED);
    policy.settle('b', false, PAID);
    expect(policy.begin('b')).toStrictEqual(STARTED);
  });

  it('stops trusting a key at its first refusal, and never trusts an unpaid admission', () => {
    const policy = new EarlyStart(LIMITS, () => 0);
    policy.settle('a', false, PAID);
    expect(policy.begin('a')).toStrictEqual(STARTED);
    expect(policy.begin('a')).toStrictEqual(STARTED);
    policy.settle('a', true, null);
    expect(policy.begin('a')).toBe(null);
    // The other call already out still settles; it does not restore the trust.
    policy.settle('a', true, null);
    expect(policy.begin('a')).toBe(null);
    policy.settle('sandbox', false, null);
    expect(policy.begin('sandbox')).toBe(null);
  });

  it('never starts early with `perKey: 0`', () => {
    const policy = new EarlyStart({ ...LIMITS, perKey: 0 }, () => 0);
    policy.settle('a', false, PAID);
    expect(policy.begin('a')).toBe(null);
    expect(policy.size).toBe(1);
  });

  it('forgets the least recently admitted key beyond `maxKeys`', () => {
    const policy = new EarlyStart(LIMITS, () => 0);
    for (const key of ['a', 'b', 'c']) policy.settle(key, false, PAID);
    policy.settle('a', false, PAID);
    policy.settle('d', false, PAID);
    expect(policy.size).toBe(3);
    expect(['a', 'b', 'c', 'd'].map((key) => policy.begin(key))).toStrictEqual([
      STARTED,
      null,
      STARTED,
      STARTED,
    ]);
  });
});

describe('the key door with early work (loopback site)', () => {
  let site: Site;
  let slow: http.Server;
  let slowOrigin: string;
  let t: RouteApp;
  let listening: http.Server;
  let base: string;

  beforeAll(async () => {
    site = await startSite();
    // A page that takes 400 ms, for a caller that leaves before its answer.
    slow = http.createServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<html><head><title>Slow</title></head><body><p>At last.</p></body></html>');
      }, 400);
    });
    slow.listen(0, '127.0.0.1');
    await once(slow, 'listening');
    slowOrigin = `127.0.0.1:${(slow.address() as AddressInfo).port}`;
    t = await routeApp(site, [slowOrigin]);
    listening = http.createServer(t.app);
    listening.listen(0, '127.0.0.1');
    await once(listening, 'listening');
    base = `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    listening?.closeAllConnections();
    listening?.close();
    slow?.closeAllConnections();
    slow?.close();
    await t?.dispose();
    await site?.close();
  });

  const hitsOf = (path: string) => site.hits.get(path) ?? 0;
  /** Fetches of `url` the app has started (counted when started, not when they land). */
  const fetchesOf = (url: string) => t.fetches.filter((f) => f.url === url).length;

  /** Wait until `path` has been requested `n` times (a discarded request may land late). */
  async function hitsReach(path: string, n: number): Promise<number> {
    const deadline = Date.now() + 3000;
    while (hitsOf(path) < n && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return hitsOf(path);
  }

  it('never reaches out for an unknown key, and stops for a key that ran dry', async () => {
    const page = '/wiki';
    const markdown = { url: site.url(page) };
    const start = hitsOf(page);
    const unknown = await buy(t.app, '/buy/markdown', markdown, mintKey('live').key);
    expect(unknown.status).toBe(401);

    // Credits for two markdown calls (5 credits each).
    const key = await prepaidKey(t.app, 10);
    const first = await buy(t.app, '/buy/markdown', markdown, key.key);
    const second = await buy(t.app, '/buy/markdown', markdown, key.key);
    expect([first.status, second.status]).toStrictEqual([200, 200]);
    expect(second.body.text).toBe(first.body.text);
    expect(second.headers['storefront-charge']).toBe('credits;credits=5');
    expect(hitsOf(page)).toBe(start + 2);

    // The third call was trusted, so its request went out; it is refused and free.
    const third = await buy(t.app, '/buy/markdown', markdown, key.key);
    expect(third.status).toBe(402);
    expect(third.body.error).toBe('insufficient_credits');
    expect(await hitsReach(page, start + 3)).toBe(start + 3);
    // After that refusal the key waits for its admission again: no request at all. Work
    // started early is started before the admission answers, so none was started here.
    const fetched = fetchesOf(markdown.url);
    const fourth = await buy(t.app, '/buy/markdown', markdown, key.key);
    expect(fourth.status).toBe(402);
    expect(fetchesOf(markdown.url)).toBe(fetched);
    expect(hitsOf(page)).toBe(start + 3);

    expect(await creditsOf(t.app, key.keyId)).toBe(0);
    const rows = await ledgerOf(t.app, key.keyId);
    expect(rows.map((r) => [r.outcome, r.charged])).toStrictEqual([
      ['delivered', true],
      ['delivered', true],
      ['insufficient_credits', false],
      ['insufficient_credits', false],
    ]);
  });

  it('never starts early for a sandbox key: a call over its rate makes no request', async () => {
    const page = '/product';
    const minted = await request(t.app).post('/api/dev/keys?live=false').expect(201);
    const key = minted.body.key as string;
    const start = hitsOf(page);
    const fetched = fetchesOf(site.url(page));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await buy(t.app, '/buy/metadata', { url: site.url(page) }, key)).status);
    }
    // A call straddling a minute boundary may land in a fresh window.
    const served = statuses.filter((s) => s === 200).length;
    expect(served).toBeGreaterThanOrEqual(5);
    if (served === 5) expect(statuses[5]).toBe(429);
    // Only the served calls started a fetch, and each of them has landed.
    expect(fetchesOf(site.url(page))).toBe(fetched + served);
    expect(hitsOf(page)).toBe(start + served);
  });

  it("never hands a refused call's page to a product thread when it arrives after the refusal", async () => {
    // Credits for one markdown call (5 credits) of a page that takes 400 ms.
    const key = await prepaidKey(t.app, 5);
    const target = { url: `http://${slowOrigin}/page` };
    const first = await buy(t.app, '/buy/markdown', target, key.key);
    expect(first.status).toBe(200);
    const started = t.pool.stats.started;

    // The key is trusted, so the second call's work starts; its admission is refused
    // long before the page arrives, and the page never reaches a thread.
    const fetched = t.fetches.length;
    const second = await buy(t.app, '/buy/markdown', target, key.key);
    expect(second.status).toBe(402);
    expect(second.body.error).toBe('insufficient_credits');
    // Wait for the early fetch to end (the page arrives), then for whatever that
    // settles in the app, which runs no I/O before a hand-off to a thread.
    const early = t.fetches.slice(fetched);
    expect(early.map((f) => f.url)).toStrictEqual([target.url]);
    await Promise.all(early.map((f) => f.done));
    await new Promise((resolve) => setImmediate(resolve));
    expect(t.pool.stats).toMatchObject({ started, busy: 0, queued: 0 });
    expect((await ledgerOf(t.app, key.keyId)).map((r) => [r.outcome, r.charged])).toStrictEqual([
      ['delivered', true],
      ['insufficient_credits', false],
    ]);
  });

  it("redoes early work that assumed the key's previous plan", async () => {
    const key = await enterpriseKey(t.app);
    const query = { url: site.url('/product'), schema: 'name,sku' };
    const unmetered = await buy(t.app, '/buy/extract', query, key.key);
    expect([unmetered.status, unmetered.body.metered]).toStrictEqual([200, false]);
    expect(unmetered.headers['storefront-charge']).toBe('unmetered;credits=0');

    // The next call starts early as if still unmetered; the admission says otherwise.
    await setTier(t.app, key.keyId, 'pro');
    const metered = await buy(t.app, '/buy/extract', query, key.key);
    expect([metered.status, metered.body.metered]).toStrictEqual([200, true]);
    expect(metered.headers['storefront-charge']).toBe('included;credits=0');
    expect(metered.body.extract).toStrictEqual(unmetered.body.extract);
    const again = await buy(t.app, '/buy/extract', query, key.key);
    expect([again.status, again.body.metered]).toStrictEqual([200, true]);
  });

  it('releases the charge of a caller who left before the answer was written', async () => {
    const key = await mintLiveKey(t.app);
    await request(t.app)
      .post(`/admin/keys/${key.keyId}/credits`)
      .set('authorization', 'Bearer route-tests-admin-token-0123456789')
      .send({ credits: 100 })
      .expect(200);
    const target = encodeURIComponent(`http://${slowOrigin}/page`);
    // The caller hangs up once its call is admitted (its ledger row is there), which is
    // before the 400 ms page arrives.
    await callAndHangUp(`${base}/buy/fetch?url=${target}`, key.key, () =>
      vi.waitFor(async () => expect(await ledgerOf(t.app, key.keyId)).toHaveLength(1), {
        timeout: 20_000,
        interval: 10,
      }),
    );

    // The work goes on after the caller left; the call ends released, not charged.
    let rows = await ledgerOf(t.app, key.keyId);
    await vi.waitFor(
      async () => {
        rows = await ledgerOf(t.app, key.keyId);
        expect(rows.some((r) => r.outcome === 'pending')).toBe(false);
      },
      { timeout: 20_000, interval: 20 },
    );
    expect(rows.map((r) => [r.route, r.outcome, r.charged, r.error])).toStrictEqual([
      ['fetch', 'failed', false, 'client_closed'],
    ]);
    expect(await creditsOf(t.app, key.keyId)).toBe(100);

    // The same call, waited for, is charged once its answer is out.
    const res = await fetch(`${base}/buy/fetch?url=${target}`, {
      headers: { authorization: `Bearer ${key.key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('storefront-charge')).toBe('credits;credits=3');
    expect(((await res.json()) as { ok: boolean }).ok).toBe(true);
    expect(await creditsOf(t.app, key.keyId)).toBe(97);
    rows = await ledgerOf(t.app, key.keyId);
    expect(rows.map((r) => [r.outcome, r.charged])).toStrictEqual([
      ['failed', false],
      ['delivered', true],
    ]);
  });
});
