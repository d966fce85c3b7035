/**
 * The x402 door end to end, with real money moving: a local EVM chain (id 8453) with an
 * EIP-3009 test token, a facilitator on the official x402 code, the service on real
 * sockets against the loopback fixture site, and the official clients (`@x402/fetch`
 * v2, `x402-fetch` v1) paying from the development wallet.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyReceipt } from '@storefront/attest';
import { DEV_PAYER, type PaymentStack, startPaymentStack } from '@storefront/facilitator';
import type { x402Client } from '@x402/core/client';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  decodePaymentSignatureHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import { appendPaymentIdentifierToExtensions } from '@x402/extensions/payment-identifier';
import { wrapFetchWithPayment } from '@x402/fetch';
import { pino } from 'pino';
import { createWalletClient, type Hex, http as viemHttp } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPayment as wrapFetchWithPaymentV1 } from 'x402-fetch';
import { loadConfig } from '../src/config.js';
import { chainLedger } from '../src/doors/x402/chain.js';
import { paymentsFor } from '../src/doors/x402/claims.js';
import { reconcilePayments } from '../src/doors/x402/reconcile.js';
import { type RunningServer, startServer } from '../src/server.js';
import { createSchema, DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';
import { type AuditNet, startAuditNet } from './hosts.js';
import { ADMIN_TOKEN } from './keys.js';
import { type Site, startSite } from './site.js';
import { officialV2Payer } from './x402/payments.js';

type Body = Record<string, unknown>;

/** A facilitator in front of the real one that can be made to fail. */
type FaultMode =
  | 'pass'
  | 'drop'
  | 'hang'
  | 'garbage'
  | 'settle-refused'
  | 'settle-hangs'
  | 'slow-verify'
  | 'settle-lost'
  | 'settle-late';

let stack: PaymentStack;
let site: Site;
let net: AuditNet;
let proxy: {
  url: string;
  mode: FaultMode;
  /** Send the settlements held in `settle-late` mode on to the facilitator; resolves once they landed. */
  flush(): Promise<void>;
  /** Forget the settlements held in `settle-late` mode: they never reach the facilitator. */
  discard(): void;
  close(): Promise<void>;
};
const schema = uniqueSchema();
const servers: Record<'main' | 'second' | 'legacy' | 'faulty' | 'tight', RunningServer | null> = {
  main: null,
  second: null,
  legacy: null,
  faulty: null,
  tight: null,
};

function server(name: keyof typeof servers): RunningServer {
  const found = servers[name];
  if (found === null) throw new Error(`server ${name} is not running`);
  return found;
}

/** Start an instance of the service on the shared database, paid through `facilitatorUrl`. */
async function serve(facilitatorUrl: string, env: Record<string, string> = {}) {
  const dataDir = tempDir('storefront-x402-');
  const running = await startServer(
    loadConfig(
      {
        NODE_ENV: 'test',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        ADMIN_TOKEN,
        SAFE_FETCH_ALLOW: `${site.allow},${net.tls.allow}`,
        DNS_RESOLVER: net.dns.server,
        TLS_AUDIT_PORT: String(net.tls.port),
        FACILITATOR_URL: facilitatorUrl,
        X402_ASSET: stack.asset,
        X402_PAY_TO: stack.payTo,
        X402_RPC_URL: stack.rpcUrl,
        // The same signer on every instance, so receipts pin one key.
        SIGNER_PRIVATE_KEY: '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318',
        ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
        ...env,
      },
      dataDir,
    ),
    { logger: pino({ level: 'silent' }), ...(DATABASE_URL === null ? {} : { schema }) },
  );
  // Calls are timed from their arrival: the product threads (and pdf.js) load first.
  await running.ready();
  return running;
}

beforeAll(async () => {
  stack = await startPaymentStack();
  site = await startSite();
  net = await startAuditNet();
  proxy = await faultyFacilitator(stack.facilitatorUrl);
  if (DATABASE_URL !== null) await createSchema(schema);
  servers.main = await serve(stack.facilitatorUrl);
  // A second instance on the same database (PostgreSQL only: PGlite is one process's),
  // behind the same public address, as instances behind one load balancer are.
  if (DATABASE_URL !== null) {
    servers.second = await serve(stack.facilitatorUrl, { PUBLIC_BASE_URL: servers.main.url });
  }
}, 120_000);

afterAll(async () => {
  for (const running of Object.values(servers)) await running?.close();
  await proxy?.close();
  await site?.close();
  await net?.close();
  await stack?.close();
  if (DATABASE_URL !== null) await dropSchema(schema);
}, 60_000);

/** The official v2 client, paying from the development wallet. */
function v2Client(): x402Client {
  return officialV2Payer(DEV_PAYER.privateKey);
}

/** The official v2 client naming its payments with `id` (the `payment-identifier` extension). */
function v2ClientWithId(id: string): x402Client {
  return v2Client().onBeforePaymentCreation(async ({ paymentRequired }) => {
    appendPaymentIdentifierToExtensions(paymentRequired.extensions ?? {}, id);
  });
}

/** The row of the payment in `header` (a `PAYMENT-SIGNATURE`) on `running`'s database. */
async function rowOf(running: RunningServer, header: string) {
  const payload = decodePaymentSignatureHeader(header) as unknown as {
    payload: { authorization: { nonce: string } };
  };
  const nonce = payload.payload.authorization.nonce.toLowerCase();
  const rows = await paymentsFor(running.db, { payer: DEV_PAYER.address, limit: 1000 });
  return rows.find((row) => row.nonce === nonce);
}

/** `@x402/fetch` with the development wallet. */
function payingFetch(): typeof fetch {
  return wrapFetchWithPayment(fetch, v2Client()) as typeof fetch;
}

/** The payer's and the payee's balances. */
async function balances(): Promise<{ payer: bigint; payee: bigint }> {
  return {
    payer: await stack.balanceOf(DEV_PAYER.address),
    payee: await stack.balanceOf(stack.payTo),
  };
}

/** The 402 terms a call would pay (the v2 face), as the official client decodes them. */
async function termsOf(url: string) {
  const challenge = await fetch(url);
  expect(challenge.status).toBe(402);
  const header = challenge.headers.get('payment-required');
  if (header === null) throw new Error('no PAYMENT-REQUIRED header');
  return decodePaymentRequiredHeader(header);
}

/**
 * A `PAYMENT-SIGNATURE` for a call of `url`, signed by the official client for the
 * terms the service gives, changed by `alter` first (a wrong payee, another price, an
 * expired window).
 */
async function signedPayment(
  url: string,
  alter: (accept: Record<string, unknown>) => void = () => {},
  client: x402Client = v2Client(),
): Promise<string> {
  const required = await termsOf(url);
  const accept = required.accepts[0] as unknown as Record<string, unknown>;
  alter(accept);
  const payload = await client.createPaymentPayload(required);
  return encodePaymentSignatureHeader(payload);
}

/** The pinned receipt key of a running instance. */
async function pinnedKey(running: RunningServer): Promise<string> {
  const res = await fetch(`${running.url}/.well-known/service-attestation`);
  return ((await res.json()) as { address: string }).address;
}

/** Every paid route with a query that succeeds on the fixture site, and its price. */
function paidCalls(): {
  path: string;
  query: Record<string, string>;
  price: bigint;
  hit: string;
}[] {
  const call = (path: string, query: Record<string, string>, price: number, hit: string) => ({
    path,
    query,
    price: BigInt(price),
    hit,
  });
  return [
    call('/buy/fetch', { url: site.url('/product') }, 3000, '/product'),
    call('/buy/fetch', { url: site.url('/product'), links: '1' }, 6000, '/product'),
    call('/buy/fetch', { url: site.url('/product'), extract: 'title,price' }, 12000, '/product'),
    call('/buy/extract', { url: site.url('/product'), schema: 'name,sku' }, 4000, '/product'),
    call('/buy/markdown', { url: site.url('/wiki') }, 5000, '/wiki'),
    call('/buy/metadata', { url: site.url('/product') }, 6000, '/product'),
    call('/buy/links', { url: site.url('/product') }, 5000, '/product'),
    call('/buy/robots', { domain: site.url('/product') }, 5000, '/robots.txt'),
    call('/buy/diff', { url: site.url('/changing'), prevText: 'Version zero.' }, 6000, '/changing'),
    call('/buy/notarize', { content: 'hello, x402' }, 8000, ''),
    call('/buy/headers', { url: site.url('/news') }, 5000, '/news'),
    call('/buy/table', { url: site.url('/wiki') }, 6000, '/wiki'),
    call('/buy/feed', { url: site.url('/feed.xml') }, 5000, '/feed.xml'),
    call('/buy/availability', { url: site.url('/product') }, 5000, '/product'),
    call(
      '/buy/validate',
      { url: site.url('/data.json'), schema: 'id:integer,name,price:number' },
      5000,
      '/data.json',
    ),
    call('/buy/map', { url: site.shop.url('/') }, 10000, '/'),
    call('/buy/crawl', { url: site.shop.url('/'), limit: '2' }, 30000, '/'),
    call('/buy/seo', { url: site.url('/seo') }, 6000, '/seo'),
    call('/buy/pdf', { url: site.url('/report.pdf') }, 10000, '/report.pdf'),
    call('/buy/dns', { domain: 'good.example.com' }, 5000, ''),
    call('/buy/tls', { domain: 'good.tls.example.com' }, 5000, ''),
  ];
}

function urlOf(running: RunningServer, path: string, query: Record<string, string>): string {
  return `${running.url}${path}?${new URLSearchParams(query)}`;
}

describe('the x402 door on a local chain', () => {
  it('is named in /manifest with both payment headers once it answers', async () => {
    const manifest = (await (await fetch(`${server('main').url}/manifest`)).json()) as {
      doors: Record<string, Body>;
    };
    expect(Object.keys(manifest.doors).sort()).toStrictEqual(['apiKey', 'mcp', 'x402']);
    expect(manifest.doors.x402).toMatchObject({
      headers: { v1: 'X-PAYMENT', v2: 'PAYMENT-SIGNATURE' },
      facilitator: stack.facilitatorUrl,
      asset: stack.asset,
      testnet: true,
    });
  });

  it('is paid by @x402/fetch on every paid route: the exact catalog price moves, the receipt verifies offline', async () => {
    const main = server('main');
    const pinned = await pinnedKey(main);
    const catalog = (await (await fetch(`${main.url}/catalog`)).json()) as {
      routes: { path: string }[];
    };
    const paths = new Set(paidCalls().map((c) => c.path));
    expect([...paths].sort()).toStrictEqual(catalog.routes.map((r) => r.path).sort());

    const pay = payingFetch();
    for (const { path, query, price } of paidCalls()) {
      const before = await balances();
      const res = await pay(urlOf(main, path, query));
      const body = (await res.json()) as Body;
      expect([path, res.status, body.ok]).toStrictEqual([path, 200, true]);
      const settlement = decodePaymentResponseHeader(res.headers.get('payment-response') ?? '');
      expect(settlement.success).toBe(true);
      expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
      const after = await balances();
      expect([path, before.payer - after.payer]).toStrictEqual([path, price]);
      expect([path, after.payee - before.payee]).toStrictEqual([path, price]);
      const verification = verifyReceipt(body, pinned);
      expect([path, verification.problems]).toStrictEqual([path, []]);
      expect(verification.valid).toBe(true);
    }
    // Every attempt left its row: settled, charged, with its transaction.
    const rows = await paymentsFor(main.db, { payer: DEV_PAYER.address, limit: 100 });
    const settled = rows.filter((row) => row.state === 'settled');
    expect(settled.length).toBeGreaterThanOrEqual(paidCalls().length);
    for (const row of settled) {
      expect(row.charged).toBe(true);
      expect(row.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    }
  }, 120_000);

  it('is paid by x402-fetch 1.2.0 (v1, X-PAYMENT) with the legacy network names on', async () => {
    servers.legacy = await serve(stack.facilitatorUrl, { X402_LEGACY_NETWORK_NAMES: 'true' });
    const legacy = server('legacy');
    const wallet = createWalletClient({
      account: privateKeyToAccount(DEV_PAYER.privateKey as Hex),
      chain: base,
      transport: viemHttp(stack.rpcUrl),
    });
    const pay = wrapFetchWithPaymentV1(fetch, wallet as never);
    const before = await balances();
    const res = await pay(urlOf(legacy, '/buy/notarize', { content: 'paid with v1' }));
    const body = (await res.json()) as Body;
    expect([res.status, body.ok]).toStrictEqual([200, true]);
    const settlement = JSON.parse(
      Buffer.from(res.headers.get('x-payment-response') ?? '', 'base64').toString('utf8'),
    ) as Body;
    expect(settlement).toMatchObject({ success: true, network: 'base' });
    const after = await balances();
    expect(before.payer - after.payer).toBe(8000n);
    expect(after.payee - before.payee).toBe(8000n);
    expect(verifyReceipt(body, await pinnedKey(legacy)).valid).toBe(true);
  }, 60_000);

  it('takes one payment once: sent twice in a row, the second is refused before any work', async () => {
    const main = server('main');
    const url = urlOf(main, '/buy/fetch', { url: site.url('/moved') });
    const payment = await signedPayment(url);
    const hits = site.hits.get('/moved') ?? 0;
    const before = await balances();
    const first = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
    expect(first.status).toBe(200);
    const second = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
    expect(second.status).toBe(402);
    expect(((await second.json()) as Body).error).toBe('payment_replayed');
    expect(second.headers.get('payment-required')).not.toBe(null);
    expect(site.hits.get('/moved')).toBe(hits + 1);
    const after = await balances();
    expect(before.payer - after.payer).toBe(3000n);
  }, 60_000);

  it('takes one payment once when it is sent concurrently, to one instance or two', async () => {
    const instances = [server('main'), ...(servers.second === null ? [] : [server('second')])];
    const path = '/buy/fetch';
    const query = { url: site.url('/moved'), format: 'markdown' };
    const payment = await signedPayment(urlOf(instances[0] as RunningServer, path, query));
    const hits = site.hits.get('/moved') ?? 0;
    const before = await balances();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        fetch(urlOf(instances[i % instances.length] as RunningServer, path, query), {
          headers: { 'PAYMENT-SIGNATURE': payment },
        }),
      ),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toStrictEqual([200, 402, 402, 402, 402, 402, 402, 402]);
    for (const res of answers.filter((r) => r.status === 402)) {
      expect(((await res.json()) as Body).error).toBe('payment_replayed');
    }
    // The work was done once, and the money moved once.
    expect(site.hits.get('/moved')).toBe(hits + 1);
    const after = await balances();
    expect(before.payer - after.payer).toBe(6000n);
    expect(after.payee - before.payee).toBe(6000n);
  }, 60_000);

  describe('refuses a payment that does not fit, before any work and with no transfer', () => {
    const cases: {
      name: string;
      error: string;
      query: () => Record<string, string>;
      /** How the payer's terms were changed before signing, or the signed payment after. */
      alter?: (accept: Record<string, unknown>) => void;
      tamper?: (payload: Record<string, unknown>) => void;
    }[] = [
      {
        name: 'a tampered amount (signed for less, claiming the price)',
        error: 'payment_rejected',
        query: () => ({ url: site.url('/moved') }),
        alter: (accept) => {
          accept.amount = '1000';
        },
        tamper: (payload) => {
          const inner = payload.payload as { authorization: { value: string } };
          inner.authorization.value = '3000';
          (payload.accepted as { amount: string }).amount = '3000';
        },
      },
      {
        name: 'a wrong payee',
        error: 'payment_mismatch',
        query: () => ({ url: site.url('/moved') }),
        alter: (accept) => {
          accept.payTo = DEV_PAYER.address;
        },
      },
      {
        name: 'an expired authorization',
        error: 'payment_expired',
        query: () => ({ url: site.url('/moved') }),
        alter: (accept) => {
          accept.maxTimeoutSeconds = -120;
        },
      },
      {
        name: 'the fetch tier paid for a structured extract (the pro tier)',
        error: 'payment_mismatch',
        query: () => ({ url: site.url('/moved'), extract: 'title,price' }),
        alter: (accept) => {
          accept.amount = '3000';
        },
      },
    ];
    it.each(cases)(
      '$name',
      async ({ error, query, alter, tamper }) => {
        const main = server('main');
        const url = urlOf(main, '/buy/fetch', query());
        let payment = await signedPayment(url, alter);
        if (tamper !== undefined) {
          const payload = decodePaymentSignatureHeader(payment) as unknown as Record<
            string,
            unknown
          >;
          tamper(payload);
          payment = encodePaymentSignatureHeader(payload as never);
        }
        const hits = site.hits.get('/moved') ?? 0;
        const before = await balances();
        const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
        const body = (await res.json()) as Body;
        expect([res.status, body.error]).toStrictEqual([402, error]);
        expect(body).not.toHaveProperty('text');
        expect(res.headers.get('payment-required')).not.toBe(null);
        expect(site.hits.get('/moved') ?? 0).toBe(hits);
        expect(await balances()).toStrictEqual(before);
      },
      60_000,
    );
  });

  it('leaves the payer untouched where the route does not charge', async () => {
    const main = server('main');
    const pay = payingFetch();
    const uncharged = [
      { path: '/buy/metadata', query: { url: site.url('/missing') }, status: 200 },
      { path: '/buy/notarize', query: { url: site.deadUrl }, status: 200 },
      { path: '/buy/markdown', query: { url: site.url('/missing') }, status: 503 },
      { path: '/buy/table', query: { url: site.url('/broken') }, status: 503 },
      { path: '/buy/validate', query: { url: site.url('/missing'), schema: 'id' }, status: 503 },
      { path: '/buy/map', query: { url: site.deadUrl }, status: 200 },
      { path: '/buy/crawl', query: { url: site.shop.url('/private/secret') }, status: 200 },
    ];
    for (const { path, query, status } of uncharged) {
      const before = await balances();
      const res = await pay(urlOf(main, path, query));
      const body = (await res.json()) as Body;
      expect([path, res.status, body.ok]).toStrictEqual([path, status, false]);
      expect(res.headers.get('payment-response')).toBe(null);
      expect([path, await balances()]).toStrictEqual([path, before]);
    }
    const rows = await paymentsFor(main.db, { payer: DEV_PAYER.address, limit: 200 });
    const released = rows.filter((row) => row.state === 'released');
    expect(released.length).toBeGreaterThanOrEqual(uncharged.length);
    for (const row of released) expect([row.charged, row.transaction]).toStrictEqual([false, null]);
  }, 60_000);

  it('uses the payment when a call carries both a payment and a key', async () => {
    const main = server('main');
    const minted = await fetch(`${main.url}/api/dev/keys?live=true`, { method: 'POST' });
    const { key, keyId } = (await minted.json()) as { key: string; keyId: string };
    await fetch(`${main.url}/admin/keys/${keyId}/credits`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ credits: 100 }),
    });
    const url = urlOf(main, '/buy/notarize', { content: 'both doors' });
    const payment = await signedPayment(url);
    const before = await balances();
    const res = await fetch(url, {
      headers: { 'PAYMENT-SIGNATURE': payment, authorization: `Bearer ${key}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('payment-response')).not.toBe(null);
    expect(before.payer - (await balances()).payer).toBe(8000n);
    const balance = await fetch(`${main.url}/api/dev/balance`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(((await balance.json()) as Body).credits).toBe(100);
  }, 60_000);

  it('binds a payment to the call it was signed for: another route of the same price is payment_mismatch, and the header still pays its own route', async () => {
    const main = server('main');
    const markdown = urlOf(main, '/buy/markdown', { url: site.url('/wiki') });
    const links = urlOf(main, '/buy/links', { url: site.url('/wiki') });
    const payment = await signedPayment(markdown);
    const hits = site.hits.get('/wiki') ?? 0;
    const before = await balances();
    const wrong = await fetch(links, { headers: { 'PAYMENT-SIGNATURE': payment } });
    const body = (await wrong.json()) as Body;
    expect([wrong.status, body.error]).toStrictEqual([402, 'payment_mismatch']);
    expect(body.message).toMatch(/resource\.url: this payment was signed for .*\/buy\/markdown/);
    expect(site.hits.get('/wiki') ?? 0).toBe(hits);
    expect(await balances()).toStrictEqual(before);
    expect(await rowOf(main, payment)).toMatchObject({ state: 'released', charged: false });

    // Refused before settlement, so not burned: the same header pays the route it names.
    const right = await fetch(markdown, { headers: { 'PAYMENT-SIGNATURE': payment } });
    expect([right.status, ((await right.json()) as Body).ok]).toStrictEqual([200, true]);
    const after = await balances();
    expect(before.payer - after.payer).toBe(5000n);
    expect(after.payee - before.payee).toBe(5000n);
    expect(await rowOf(main, payment)).toMatchObject({ state: 'settled', charged: true });
    // Settled: never again.
    const replay = await fetch(markdown, { headers: { 'PAYMENT-SIGNATURE': payment } });
    expect([replay.status, ((await replay.json()) as Body).error]).toStrictEqual([
      402,
      'payment_replayed',
    ]);
    expect(await balances()).toStrictEqual(after);
  }, 60_000);

  it('binds a payment to its tier: the same route and price under another tier is payment_mismatch', async () => {
    const main = server('main');
    const url = urlOf(main, '/buy/fetch', { url: site.url('/moved') });
    const payment = await signedPayment(url, (accept) => {
      (accept.extra as Record<string, unknown>).tier = 'pro';
    });
    const before = await balances();
    const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
    const body = (await res.json()) as Body;
    expect([res.status, body.error]).toStrictEqual([402, 'payment_mismatch']);
    expect(body.message).toMatch(/accepted\.extra\.tier/);
    expect(await balances()).toStrictEqual(before);
  }, 60_000);
});

describe('the x402 door when the facilitator fails', () => {
  beforeAll(async () => {
    servers.faulty = await serve(proxy.url, { FACILITATOR_TIMEOUT_MS: '1500' });
  }, 60_000);

  const faults: { mode: FaultMode; status: number; error: string; worked: boolean }[] = [
    { mode: 'drop', status: 503, error: 'facilitator_unavailable', worked: false },
    { mode: 'hang', status: 503, error: 'facilitator_unavailable', worked: false },
    { mode: 'garbage', status: 503, error: 'facilitator_unavailable', worked: false },
    { mode: 'settle-refused', status: 402, error: 'settlement_failed', worked: true },
    { mode: 'settle-hangs', status: 402, error: 'settlement_failed', worked: true },
  ];
  it.each(faults)(
    '$mode: no result, nothing charged, a clear error, and the server stays up',
    async ({ mode, status, error, worked }) => {
      const faulty = server('faulty');
      const url = urlOf(faulty, '/buy/fetch', { url: site.url('/moved') });
      const payment = await signedPayment(url);
      const hits = site.hits.get('/moved') ?? 0;
      const before = await balances();
      proxy.mode = mode;
      try {
        const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
        const body = (await res.json()) as Body;
        expect([res.status, body.error]).toStrictEqual([status, error]);
        expect(body.message).toBeTypeOf('string');
        expect(body).not.toHaveProperty('text');
        expect(body).not.toHaveProperty('attestation');
        expect(res.headers.get('payment-response')).toBe(null);
        if (status === 503) expect(res.headers.get('retry-after')).toBe('5');
        expect(site.hits.get('/moved') ?? 0).toBe(hits + (worked ? 1 : 0));
      } finally {
        proxy.mode = 'pass';
      }
      expect(await balances()).toStrictEqual(before);
      expect((await fetch(`${faulty.url}/healthz`)).status).toBe(200);
    },
    60_000,
  );

  it('does not burn a payment the facilitator could not verify: the same header pays once it is back', async () => {
    const faulty = server('faulty');
    const url = urlOf(faulty, '/buy/fetch', { url: site.url('/moved') });
    const payment = await signedPayment(url);
    const before = await balances();
    proxy.mode = 'drop';
    try {
      const down = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
      expect([down.status, ((await down.json()) as Body).error]).toStrictEqual([
        503,
        'facilitator_unavailable',
      ]);
    } finally {
      proxy.mode = 'pass';
    }
    expect(await balances()).toStrictEqual(before);
    expect(await rowOf(faulty, payment)).toMatchObject({ state: 'released', charged: false });
    const up = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
    expect([up.status, ((await up.json()) as Body).ok]).toStrictEqual([200, true]);
    const after = await balances();
    expect(before.payer - after.payer).toBe(3000n);
    expect(after.payee - before.payee).toBe(3000n);
    const replay = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
    expect([replay.status, ((await replay.json()) as Body).error]).toStrictEqual([
      402,
      'payment_replayed',
    ]);
    expect(await balances()).toStrictEqual(after);
  }, 60_000);

  it('delivers the result when the settlement answer is lost after the transfer landed', async () => {
    const faulty = server('faulty');
    const url = urlOf(faulty, '/buy/notarize', { content: 'lost answer' });
    const payment = await signedPayment(url);
    const before = await balances();
    proxy.mode = 'settle-lost';
    let transaction: string;
    try {
      const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
      const body = (await res.json()) as Body;
      expect([res.status, body.ok]).toStrictEqual([200, true]);
      expect(verifyReceipt(body, await pinnedKey(faulty)).valid).toBe(true);
      const settlement = decodePaymentResponseHeader(res.headers.get('payment-response') ?? '');
      expect(settlement).toMatchObject({ success: true, payer: DEV_PAYER.address });
      transaction = settlement.transaction;
    } finally {
      proxy.mode = 'pass';
    }
    const after = await balances();
    expect(before.payer - after.payer).toBe(8000n);
    expect(after.payee - before.payee).toBe(8000n);
    expect(await rowOf(faulty, payment)).toMatchObject({
      state: 'settled',
      charged: true,
      transaction,
    });
  }, 60_000);

  it('keeps the result of a settlement whose answer was lost, and hands it to a retry of the same header, paid once', async () => {
    const faulty = server('faulty');
    const url = urlOf(faulty, '/buy/notarize', { content: 'paid late' });
    const payment = await signedPayment(url);
    const before = await balances();
    proxy.mode = 'settle-late';
    try {
      const first = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
      const body = (await first.json()) as Body;
      expect([first.status, body.error]).toStrictEqual([402, 'settlement_failed']);
      expect(body.message).toMatch(/not known yet.*same PAYMENT-SIGNATURE/);
      expect(body).not.toHaveProperty('attestation');
    } finally {
      proxy.mode = 'pass';
    }
    expect(await balances()).toStrictEqual(before);
    expect(await rowOf(faulty, payment)).toMatchObject({ state: 'unknown', charged: false });
    // The transfer lands after the service answered.
    await proxy.flush();
    const paid = await balances();
    expect(before.payer - paid.payer).toBe(8000n);

    for (let i = 0; i < 2; i++) {
      const retry = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
      const body = (await retry.json()) as Body;
      expect([retry.status, body.ok]).toStrictEqual([200, true]);
      expect(verifyReceipt(body, await pinnedKey(faulty)).valid).toBe(true);
      const settlement = decodePaymentResponseHeader(retry.headers.get('payment-response') ?? '');
      expect(settlement.transaction).toBe((await rowOf(faulty, payment))?.transaction);
      expect(await balances()).toStrictEqual(paid);
    }
    expect(await rowOf(faulty, payment)).toMatchObject({ state: 'settled', charged: true });
    // Exactly one transfer: the payee got the price once.
    expect((await balances()).payee - before.payee).toBe(8000n);
  }, 60_000);

  it('settles the books of a lost settlement answer in the sweep, without a retry', async () => {
    const faulty = server('faulty');
    const url = urlOf(faulty, '/buy/notarize', { content: 'swept' });
    const payment = await signedPayment(url);
    const before = await balances();
    proxy.mode = 'settle-late';
    try {
      const first = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
      expect(first.status).toBe(402);
    } finally {
      proxy.mode = 'pass';
    }
    await proxy.flush();
    const ledger = chainLedger(stack.rpcUrl, stack.network, stack.asset);
    // Paid on chain, recorded as paid (an unpaid, unexpired one of an earlier test stays open).
    expect(await reconcilePayments(faulty.db, ledger)).toMatchObject({ paid: 1, unknown: 0 });
    const row = await rowOf(faulty, payment);
    expect(row).toMatchObject({ state: 'settled', charged: true });
    expect(row?.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const after = await balances();
    expect(before.payer - after.payer).toBe(8000n);
    expect(after.payee - before.payee).toBe(8000n);
    // The result is still there for the payer's retry, which moves nothing.
    const retry = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
    expect([retry.status, ((await retry.json()) as Body).ok]).toStrictEqual([200, true]);
    expect(await balances()).toStrictEqual(after);
  }, 60_000);

  it('answers a new payment with the same payment-identifier id from the paid one, moving no money', async () => {
    const faulty = server('faulty');
    const url = urlOf(faulty, '/buy/notarize', { content: 'idempotent by id' });
    const id = `pay_${randomBytes(12).toString('hex')}`;
    const first = await signedPayment(url, () => {}, v2ClientWithId(id));
    const before = await balances();
    proxy.mode = 'settle-late';
    try {
      const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': first } });
      expect(res.status).toBe(402);
    } finally {
      proxy.mode = 'pass';
    }
    await proxy.flush();
    const paid = await balances();
    expect(before.payer - paid.payer).toBe(8000n);
    // A fresh authorization (new nonce) under the same id: the first one's result.
    const second = await signedPayment(url, () => {}, v2ClientWithId(id));
    expect(second).not.toBe(first);
    const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': second } });
    const body = (await res.json()) as Body;
    expect([res.status, body.ok]).toStrictEqual([200, true]);
    expect(res.headers.get('payment-response')).not.toBe(null);
    expect(await balances()).toStrictEqual(paid);
    expect(await rowOf(faulty, first)).toMatchObject({ state: 'settled', charged: true });
    expect(await rowOf(faulty, second)).toMatchObject({ state: 'released', charged: false });
  }, 60_000);

  it('settles a payment of unknown outcome again when its payer retries and it never landed, and only for the same call', async () => {
    const faulty = server('faulty');
    const url = urlOf(faulty, '/buy/notarize', { content: 'never landed' });
    const payment = await signedPayment(url);
    const before = await balances();
    proxy.mode = 'settle-late';
    try {
      const first = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
      expect([first.status, ((await first.json()) as Body).error]).toStrictEqual([
        402,
        'settlement_failed',
      ]);
    } finally {
      proxy.mode = 'pass';
      proxy.discard();
    }
    // The same header for other parameters of the same route: not this payment's call.
    const other = urlOf(faulty, '/buy/notarize', { content: 'something else' });
    const wrong = await fetch(other, { headers: { 'PAYMENT-SIGNATURE': payment } });
    expect([wrong.status, ((await wrong.json()) as Body).error]).toStrictEqual([
      402,
      'payment_mismatch',
    ]);
    expect(await balances()).toStrictEqual(before);

    const retry = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
    const body = (await retry.json()) as Body;
    expect([retry.status, body.ok]).toStrictEqual([200, true]);
    expect(verifyReceipt(body, await pinnedKey(faulty)).valid).toBe(true);
    const paid = await balances();
    expect(before.payer - paid.payer).toBe(8000n);
    expect(paid.payee - before.payee).toBe(8000n);
    expect(await rowOf(faulty, payment)).toMatchObject({ state: 'settled', charged: true });
  }, 60_000);

  it("gives the work its whole budget after a slow verification: the facilitator's time is not the work's", async () => {
    // A 1.5 s budget, and a verification that takes longer than that.
    servers.tight = await serve(proxy.url, {
      CALL_DEADLINE_MS: '1500',
      FACILITATOR_TIMEOUT_MS: '10000',
    });
    const tight = server('tight');
    const url = urlOf(tight, '/buy/fetch', { url: site.url('/moved') });
    const payment = await signedPayment(url);
    const before = await balances();
    proxy.mode = 'slow-verify';
    try {
      const res = await fetch(url, { headers: { 'PAYMENT-SIGNATURE': payment } });
      const body = (await res.json()) as Body;
      expect([res.status, body.ok]).toStrictEqual([200, true]);
    } finally {
      proxy.mode = 'pass';
    }
    const after = await balances();
    expect(before.payer - after.payer).toBe(3000n);
  }, 60_000);
});

/** How long the proxy holds a verification in `slow-verify` mode (ms). */
const SLOW_VERIFY_MS = 2000;

/**
 * A facilitator proxy on 127.0.0.1 that forwards to `target` unless told to fail:
 * drop the connection, never answer, answer garbage, or refuse or never answer a
 * settlement (verification still passes through).
 */
async function faultyFacilitator(target: string) {
  const hanging = new Set<http.ServerResponse>();
  const state = { mode: 'pass' as FaultMode };
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const settling = (req.url ?? '').endsWith('/settle');
    const mode = state.mode;
    if (mode === 'slow-verify' && !settling) {
      await new Promise((resolve) => setTimeout(resolve, SLOW_VERIFY_MS));
    }
    if (mode === 'drop') {
      req.socket.destroy();
      return;
    }
    if (mode === 'hang' || (mode === 'settle-hangs' && settling)) {
      hanging.add(res);
      return;
    }
    if (mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('<html>not a facilitator</html>');
      return;
    }
    if (mode === 'settle-refused' && settling) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          success: false,
          errorReason: 'insufficient_funds',
          transaction: '',
          network: 'eip155:8453',
        }),
      );
      return;
    }
    const forward = () =>
      fetch(`${target}${req.url ?? ''}`, {
        method: req.method ?? 'GET',
        headers: { 'content-type': 'application/json' },
        ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
      });
    if (mode === 'settle-late' && settling) {
      // The answer is lost at once; the transfer is sent later, when the test says so.
      held.push(forward);
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
      return;
    }
    const forwarded = await forward();
    const answer = Buffer.from(await forwarded.arrayBuffer());
    if (mode === 'settle-lost' && settling) {
      // The facilitator settled on chain; its answer never reaches the service.
      req.socket.destroy();
      return;
    }
    res.writeHead(forwarded.status, { 'content-type': 'application/json' });
    res.end(answer);
  });
  const held: (() => Promise<Response>)[] = [];
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get mode() {
      return state.mode;
    },
    set mode(mode: FaultMode) {
      state.mode = mode;
    },
    async flush() {
      for (const forward of held.splice(0)) {
        const settled = (await (await forward()).json()) as Body;
        if (settled.success !== true)
          throw new Error(`held settlement failed: ${JSON.stringify(settled)}`);
      }
    },
    discard() {
      held.length = 0;
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
