import http from 'node:http';
import { createFetcher, type Fetcher } from '@storefront/safe-fetch';
import request from 'supertest';
import { expect } from 'vitest';
import type { App } from '../src/app.js';
import type { AppParts } from '../src/deps.js';
import { ProductPool } from '../src/work/pool.js';
import { silentLogger, testApp } from './helpers.js';
import type { Site } from './site.js';

/** The operator token of the route-test app. */
export const ADMIN_TOKEN = 'route-tests-admin-token-0123456789';

/** An app whose fetcher may read the fixture site, with the operator API enabled. */
export interface RouteApp {
  readonly app: App;
  readonly signerAddress: string;
  readonly publicBaseUrl: string;
  /** The app's product threads. */
  readonly pool: ProductPool;
  /**
   * Every fetch the app started, in order, with its result: a test proves that no
   * request went out by this list, at once, instead of waiting to see none arrive.
   */
  readonly fetches: { readonly url: string; readonly done: Promise<unknown> }[];
  dispose(): Promise<void>;
}

/**
 * Build the in-process app on a fresh database, reading `site` (and the `127.0.0.1:port`
 * entries of `alsoAllow`) and with `ADMIN_TOKEN`.
 */
export async function routeApp(
  site: Site,
  alsoAllow: readonly string[] = [],
  extra: Partial<AppParts> = {},
): Promise<RouteApp> {
  const real: Fetcher = createFetcher({
    testOnlyAllow: [site.allow, ...alsoAllow].join(','),
  });
  const fetches: { url: string; done: Promise<unknown> }[] = [];
  const fetcher: Fetcher = {
    fetch(url, init) {
      const done = real.fetch(url, init);
      fetches.push({ url, done: done.catch(() => {}) });
      return done;
    },
    close: () => real.close(),
  };
  // The products run on real product threads, as in the server.
  const pool = new ProductPool({
    threads: 2,
    deadlineMs: 30_000,
    heapMb: 512,
    logger: silentLogger,
  });
  // Calls are timed from their arrival: the threads load before any call is made.
  await pool.ready();
  const t = await testApp(
    { fetcher, compute: pool.compute, ...extra },
    { adminToken: ADMIN_TOKEN },
  );
  return {
    app: t.app,
    signerAddress: t.signer.address,
    publicBaseUrl: t.deps.config.publicBaseUrl,
    pool,
    fetches,
    async dispose() {
      await pool.close();
      await fetcher.close();
      await t.dispose();
    },
  };
}

/** A minted key: the raw key and its id. */
export interface TestKey {
  readonly key: string;
  readonly keyId: string;
}

/** Mint a live key through the public route. */
export async function mintLiveKey(app: App): Promise<TestKey> {
  const res = await request(app).post('/api/dev/keys?live=true').expect(201);
  expect(res.body.env).toBe('live');
  return { key: res.body.key as string, keyId: res.body.keyId as string };
}

function admin(test: request.Test): request.Test {
  return test.set('authorization', `Bearer ${ADMIN_TOKEN}`);
}

/** Put a key on a tier through the operator API. */
export async function setTier(app: App, keyId: string, tier: string): Promise<void> {
  const res = await admin(request(app).post(`/admin/keys/${keyId}/tier`)).send({ tier });
  expect(res.status).toBe(200);
  expect(res.body.tier).toBe(tier);
}

/** Grant credits through the operator API. */
export async function grantCredits(app: App, keyId: string, credits: number): Promise<void> {
  const before = await creditsOf(app, keyId);
  const res = await admin(request(app).post(`/admin/keys/${keyId}/credits`)).send({ credits });
  expect(res.status).toBe(200);
  expect(res.body.credits).toBe(before + credits);
}

/** A live key on the enterprise tier (unmetered; its rate window never interferes). */
export async function enterpriseKey(app: App): Promise<TestKey> {
  const key = await mintLiveKey(app);
  await setTier(app, key.keyId, 'enterprise');
  return key;
}

/** A fresh prepaid live key holding `credits`. */
export async function prepaidKey(app: App, credits: number): Promise<TestKey> {
  const key = await mintLiveKey(app);
  await grantCredits(app, key.keyId, credits);
  return key;
}

/** The key's credits, read through the operator API. */
export async function creditsOf(app: App, keyId: string): Promise<number> {
  const res = await admin(request(app).get(`/admin/keys/${keyId}`)).expect(200);
  return res.body.credits as number;
}

/** One ledger row as GET /admin/ledger shows it. */
export interface LedgerRow {
  readonly id: string;
  readonly keyId: string;
  readonly route: string;
  readonly price: number;
  readonly units: number;
  readonly source: string;
  readonly charged: boolean;
  readonly outcome: string;
  readonly error: string | null;
  readonly upstreamStatus: number | null;
  readonly receiptNonce: string | null;
  readonly requestId: string | null;
}

/** Every ledger row of a key, oldest first. */
export async function ledgerOf(app: App, keyId: string): Promise<LedgerRow[]> {
  const rows: LedgerRow[] = [];
  let after: string | null = null;
  for (;;) {
    const query: string = `/admin/ledger?keyId=${keyId}&limit=1000${after === null ? '' : `&after=${after}`}`;
    const res = await admin(request(app).get(query)).expect(200);
    rows.push(...(res.body.entries as LedgerRow[]));
    after = res.body.next as string | null;
    if (after === null) return rows;
  }
}

/** A snapshot of a key's money and ledger, to compare after a call. */
export interface KeyState {
  readonly credits: number;
  readonly ledger: readonly LedgerRow[];
}

export async function stateOf(app: App, keyId: string): Promise<KeyState> {
  return { credits: await creditsOf(app, keyId), ledger: await ledgerOf(app, keyId) };
}

/** The ledger rows written since `before`. */
export async function newRows(app: App, keyId: string, before: KeyState): Promise<LedgerRow[]> {
  const seen = new Set(before.ledger.map((row) => row.id));
  return (await ledgerOf(app, keyId)).filter((row) => !seen.has(row.id));
}

/** A GET of `path` with `query` (values in order; an array repeats the name), with a key. */
export function buy(
  app: App,
  path: string,
  query: Readonly<Record<string, string | readonly string[]>>,
  key: string | null,
): request.Test {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const one of typeof value === 'string' ? [value] : value) search.append(name, one);
  }
  const qs = search.toString();
  const test = request(app).get(qs === '' ? path : `${path}?${qs}`);
  return key === null ? test : test.set('authorization', `Bearer ${key}`);
}

/**
 * GET `url` on a listening server with the key, and hang up once `hangUp` resolves (or
 * after `hangUp` ms) unless the answer came first. Resolves once the request has ended
 * either way.
 */
export function callAndHangUp(
  url: string,
  key: string,
  hangUp: number | (() => Promise<unknown>),
): Promise<void> {
  return new Promise<void>((resolve) => {
    const req = http.get(url, { headers: { authorization: `Bearer ${key}` } });
    req.on('error', () => resolve());
    req.on('response', () => resolve());
    if (typeof hangUp === 'number') setTimeout(() => req.destroy(), hangUp);
    else void hangUp().then(() => req.destroy());
  });
}
