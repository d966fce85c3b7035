import { verifyManifest } from '@storefront/attest';
import { DEV_PAYER, type PaymentStack, startPaymentStack } from '@storefront/facilitator';
import { type CrawlSite, startCrawlSite } from '@storefront/test-utils';
import { x402Client } from '@x402/core/client';
import { toClientEvmSigner } from '@x402/evm';
import { UptoEvmScheme } from '@x402/evm/upto/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { pino } from 'pino';
import { createWalletClient, type Hex, http as viemHttp } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPayment as wrapFetchWithPaymentV1 } from 'x402-fetch';
import { loadConfig } from '../src/config.js';
import { type RunningServer, startServer } from '../src/server.js';
import { createSchema, DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';

// A crawl job paid through the x402 door: the official client pays `upto` (Permit2) for
// at most `limit × page price`; the job settles once, at the end, for the pages it
// delivered, and the chain shows exactly that amount moved.

const TEXT_PRICE = 3000n;
const schema = uniqueSchema();
let stack: PaymentStack;
let site: CrawlSite;
let server: RunningServer;

interface JobAnswer {
  jobId: string;
  jobToken: string;
  status: string;
  completed: number;
  charged: number;
  payment: Record<string, unknown>;
  manifest?: unknown;
}

beforeAll(async () => {
  stack = await startPaymentStack();
  site = await startCrawlSite({ pages: 12 });
  if (DATABASE_URL !== null) await createSchema(schema);
  const dataDir = tempDir('storefront-jobs-x402-');
  server = await startServer(
    loadConfig(
      {
        NODE_ENV: 'test',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SAFE_FETCH_ALLOW: site.allow,
        FACILITATOR_URL: stack.facilitatorUrl,
        X402_ASSET: stack.asset,
        X402_PAY_TO: stack.payTo,
        X402_RPC_URL: stack.rpcUrl,
        // x402-fetch 1.x (v1) knows the chain by its v1 name only.
        X402_LEGACY_NETWORK_NAMES: 'true',
        ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
      },
      dataDir,
    ),
    { logger: pino({ level: 'silent' }), ...(DATABASE_URL === null ? {} : { schema }) },
  );
}, 120_000);

afterAll(async () => {
  await server?.close();
  await site?.close();
  await stack?.close();
  await dropSchema(schema);
});

function payingFetch(): typeof fetch {
  const client = new x402Client().register(
    'eip155:*',
    new UptoEvmScheme(toClientEvmSigner(privateKeyToAccount(DEV_PAYER.privateKey))),
  );
  return wrapFetchWithPayment(fetch, client);
}

async function until(token: string, id: string, done: (job: JobAnswer) => boolean) {
  for (;;) {
    const answer = await fetch(`${server.url}/jobs/${id}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    const job = (await answer.json()) as JobAnswer;
    if (done(job)) return job;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('crawl jobs through the x402 door', () => {
  it('answers 402 with upto terms for the limit (v2) and exact for the limit (v1)', async () => {
    const answer = await fetch(`${server.url}/jobs/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/p/0`, limit: 20, format: 'text' }),
    });
    expect(answer.status).toBe(402);
    const v2 = JSON.parse(
      Buffer.from(answer.headers.get('payment-required') as string, 'base64').toString(),
    ) as { accepts: Record<string, unknown>[] };
    expect(v2.accepts).toHaveLength(1);
    expect(v2.accepts[0]).toMatchObject({
      scheme: 'upto',
      amount: String(20n * TEXT_PRICE),
      payTo: stack.payTo,
    });
    const body = (await answer.json()) as { accepts: Record<string, unknown>[] };
    expect(body.accepts[0]).toMatchObject({ scheme: 'exact', amount: String(20n * TEXT_PRICE) });
    expect(String(body.accepts[0]?.description)).toMatch(/v1 has no upto/);
  });

  it('settles once, at the end, for the pages delivered, checked on chain', async () => {
    const payerBefore = await stack.balanceOf(DEV_PAYER.address);
    const payeeBefore = await stack.balanceOf(stack.payTo);
    const answer = await payingFetch()(`${server.url}/jobs/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/p/0`, limit: 20, format: 'text' }),
    });
    expect(answer.status).toBe(202);
    const created = (await answer.json()) as JobAnswer;
    expect(created.jobToken).toMatch(/^jt_/);
    expect(created.payment).toMatchObject({ scheme: 'upto', maxAmount: String(20n * TEXT_PRICE) });
    // Nothing moves at creation.
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore);

    const job = await until(created.jobToken, created.jobId, (j) => j.payment.state === 'settled');
    expect(job.status).toBe('completed');
    expect(job.completed).toBe(12);
    const delivered = 12n * TEXT_PRICE;
    expect(job.charged).toBe(Number(delivered));
    expect(job.payment).toMatchObject({ amount: String(delivered) });
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore - delivered);
    expect(await stack.balanceOf(stack.payTo)).toBe(payeeBefore + delivered);

    // The job token reads the pages; the manifest verifies them.
    const pages = (await (
      await fetch(`${server.url}/jobs/${created.jobId}/pages?limit=50`, {
        headers: { authorization: `Bearer ${created.jobToken}` },
      })
    ).json()) as { pages: unknown[] };
    expect(pages.pages).toHaveLength(12);
    expect(verifyManifest(job.manifest, pages.pages, server.signer.address).valid).toBe(true);
    // Without the token, the job is not there.
    const anonymous = await fetch(`${server.url}/jobs/${created.jobId}`);
    expect(anonymous.status).toBe(404);
  }, 120_000);

  it('refuses the same payment for a second job', async () => {
    const client = new x402Client().register(
      'eip155:*',
      new UptoEvmScheme(toClientEvmSigner(privateKeyToAccount(DEV_PAYER.privateKey))),
    );
    const body = JSON.stringify({ url: `${site.origin}/p/0`, limit: 2, format: 'text' });
    const challenge = await fetch(`${server.url}/jobs/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    const required = JSON.parse(
      Buffer.from(challenge.headers.get('payment-required') as string, 'base64').toString(),
    );
    const payload = await client.createPaymentPayload(required);
    const header = Buffer.from(JSON.stringify(payload)).toString('base64');
    const send = () =>
      fetch(`${server.url}/jobs/crawl`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'payment-signature': header },
        body,
      });
    const first = await send();
    expect(first.status).toBe(202);
    const again = await send();
    expect(again.status).toBe(402);
    expect(((await again.json()) as { message: string }).message).toMatch(/already used/);
    // The first job settles for its pages; nothing is left moving money after this test.
    const created = (await first.json()) as JobAnswer;
    const job = await until(created.jobToken, created.jobId, (j) => j.payment.state === 'settled');
    expect(job.payment).toMatchObject({ amount: String(2n * TEXT_PRICE) });
  }, 60_000);

  it('takes x402 v1 (exact for the whole limit, settled at creation) from x402-fetch 1.x', async () => {
    const wallet = createWalletClient({
      account: privateKeyToAccount(DEV_PAYER.privateKey as Hex),
      chain: base,
      transport: viemHttp(stack.rpcUrl),
    });
    const pay = wrapFetchWithPaymentV1(fetch, wallet as never);
    const payerBefore = await stack.balanceOf(DEV_PAYER.address);
    const answer = await pay(`${server.url}/jobs/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: `${site.origin}/p/0`, limit: 5, format: 'text' }),
    });
    expect(answer.status).toBe(202);
    const created = (await answer.json()) as JobAnswer;
    expect(created.payment).toMatchObject({
      scheme: 'exact',
      x402Version: 1,
      state: 'settled',
      amount: String(5n * TEXT_PRICE),
    });
    // Paid for the limit at creation, as its terms said.
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore - 5n * TEXT_PRICE);
    const job = await until(created.jobToken, created.jobId, (j) => j.status === 'completed');
    expect(job.completed).toBe(5);
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore - 5n * TEXT_PRICE);
  }, 120_000);
});
