import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyManifest } from '@storefront/attest';
import { DEV_PAYER, type PaymentStack, startPaymentStack } from '@storefront/facilitator';
import { type CrawlSite, startCrawlSite } from '@storefront/test-utils';
import { x402Client } from '@x402/core/client';
import { toClientEvmSigner } from '@x402/evm';
import { UptoEvmScheme } from '@x402/evm/upto/client';
import {
  type EIP712SignedOffer,
  extractOffersFromPaymentRequired,
  type JWSSignedOffer,
  type SignedOffer,
  verifyOfferSignatureEIP712,
  verifyOfferSignatureJWS,
} from '@x402/extensions/offer-receipt';
import { wrapFetchWithPayment } from '@x402/fetch';
import { pino } from 'pino';
import { createWalletClient, type Hex, http as viemHttp } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { base } from 'viem/chains';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wrapFetchWithPayment as wrapFetchWithPaymentV1 } from 'x402-fetch';
import { loadConfig } from '../src/config.js';
import { chainLedger } from '../src/doors/x402/chain.js';
import { reconcilePayments } from '../src/doors/x402/reconcile.js';
import { settleWaitingJobs } from '../src/jobs/payments.js';
import { JobQueue, queueSchemaOf } from '../src/jobs/queue.js';
import { type RunningServer, startServer } from '../src/server.js';
import { createSchema, DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';
import { type Claim, expectReceipts, published, rederive } from './x402/offer-receipt-checks.js';

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

/** A server of its own schema (PGlite: data directory) whose x402 payments go to `facilitatorUrl`. */
async function startJobServer(facilitatorUrl: string, ownSchema: string): Promise<RunningServer> {
  if (DATABASE_URL !== null) await createSchema(ownSchema);
  const dataDir = tempDir('storefront-jobs-x402-');
  return startServer(
    loadConfig(
      {
        NODE_ENV: 'test',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SAFE_FETCH_ALLOW: site.allow,
        FACILITATOR_URL: facilitatorUrl,
        X402_ASSET: stack.asset,
        X402_PAY_TO: stack.payTo,
        X402_RPC_URL: stack.rpcUrl,
        // x402-fetch 1.x (v1) knows the chain by its v1 name only.
        X402_LEGACY_NETWORK_NAMES: 'true',
        ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
      },
      dataDir,
    ),
    { logger: pino({ level: 'silent' }), ...(DATABASE_URL === null ? {} : { schema: ownSchema }) },
  );
}

beforeAll(async () => {
  stack = await startPaymentStack();
  site = await startCrawlSite({ pages: 12 });
  server = await startJobServer(stack.facilitatorUrl, schema);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await site?.close();
  await stack?.close();
  await dropSchema(schema);
});

/** An EIP-712 offer's payload, once its signer is recovered as `address`. */
async function verifyEip712Offer(offer: EIP712SignedOffer, address: string) {
  const { signer, payload } = await verifyOfferSignatureEIP712(offer);
  expect(signer.toLowerCase()).toBe(address.toLowerCase());
  return payload;
}

function payingFetch(): typeof fetch {
  const client = new x402Client().register(
    'eip155:*',
    new UptoEvmScheme(toClientEvmSigner(privateKeyToAccount(DEV_PAYER.privateKey))),
  );
  return wrapFetchWithPayment(fetch, client);
}

async function until(base: string, token: string, id: string, done: (job: JobAnswer) => boolean) {
  for (;;) {
    const answer = await fetch(`${base}/jobs/${id}`, {
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
    const body = (await answer.json()) as {
      accepts: Record<string, unknown>[];
      extensions: Record<string, { info: { offers: SignedOffer[] } }>;
    };
    expect(body.accepts[0]).toMatchObject({ scheme: 'exact', amount: String(20n * TEXT_PRICE) });
    expect(String(body.accepts[0]?.description)).toMatch(/v1 has no upto/);

    // Signed offers beside both faces' terms, verified with @x402/extensions against the
    // published keys: v2's for its upto entry, the body's for the v1 exact one.
    const keys = await published(server.url);
    const resource = `${server.url}/jobs/crawl`;
    const faces = [
      { offers: extractOffersFromPaymentRequired(v2 as never), scheme: 'upto' },
      { offers: body.extensions['offer-receipt']?.info.offers ?? [], scheme: 'exact' },
    ];
    for (const { offers, scheme } of faces) {
      expect(offers.map((offer) => offer.format).sort()).toEqual(['eip712', 'jws']);
      for (const offer of offers) {
        const payload =
          offer.format === 'eip712'
            ? await verifyEip712Offer(offer as EIP712SignedOffer, keys.eip712Address)
            : await verifyOfferSignatureJWS(offer as JWSSignedOffer, keys.jwk);
        expect(payload).toMatchObject({
          resourceUrl: resource,
          scheme,
          amount: String(20n * TEXT_PRICE),
          payTo: stack.payTo,
        });
      }
      // One byte of the signed offer changed: it no longer verifies.
      const jws = offers.find((offer) => offer.format === 'jws') as JWSSignedOffer;
      const [h, p, sig] = jws.signature.split('.') as [string, string, string];
      const bytes = Buffer.from(p, 'base64url');
      bytes[5] = (bytes[5] as number) ^ 1;
      await expect(
        verifyOfferSignatureJWS(
          { ...jws, signature: `${h}.${bytes.toString('base64url')}.${sig}` },
          keys.jwk,
        ),
      ).rejects.toThrow();
    }
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

    const job = await until(
      server.url,
      created.jobToken,
      created.jobId,
      (j) => j.payment.state === 'settled',
    );
    expect(job.status).toBe('completed');
    expect(job.completed).toBe(12);
    const delivered = 12n * TEXT_PRICE;
    expect(job.charged).toBe(Number(delivered));
    expect(job.payment).toMatchObject({ amount: String(delivered) });
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore - delivered);
    expect(await stack.balanceOf(stack.payTo)).toBe(payeeBefore + delivered);

    // The settlement's signed receipt, on the job, verified with @x402/extensions.
    await expectReceipts(
      {
        extensions: job.payment.extensions as Record<string, unknown>,
        payer: String(job.payment.payer),
        transaction: String(job.payment.transaction),
      },
      await published(server.url),
      `${server.url}/jobs/crawl`,
    );
    expect(String(job.payment.payer)).toBe(DEV_PAYER.address.toLowerCase());

    // The job token reads the pages; the manifest verifies them.
    const pages = (await (
      await fetch(`${server.url}/jobs/${created.jobId}/pages?limit=50`, {
        headers: { authorization: `Bearer ${created.jobToken}` },
      })
    ).json()) as { pages: Record<string, unknown>[]; provenance: Claim[] };
    expect(pages.pages).toHaveLength(12);
    expect(verifyManifest(job.manifest, pages.pages, server.signer.address).valid).toBe(true);
    // Each page carries the provenance claim of its single-page call, `/buy/fetch?url=`.
    pages.pages.forEach((page, i) => {
      const claim = pages.provenance[i] as Claim;
      expect(claim.method).toContain('/buy/fetch');
      expect(rederive('/buy/fetch', { url: page.url }, page, claim)).toBe(claim.responseHash);
      const edited = { ...page, text: `${String(page.text)} ` };
      expect(rederive('/buy/fetch', { url: page.url }, edited, claim)).not.toBe(claim.responseHash);
    });
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
    const job = await until(
      server.url,
      created.jobToken,
      created.jobId,
      (j) => j.payment.state === 'settled',
    );
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
    // The settlement answer of v1, with the signed receipt, as a paid call's.
    const settlement = JSON.parse(
      Buffer.from(answer.headers.get('x-payment-response') as string, 'base64').toString(),
    ) as { success: boolean; payer: string; transaction: string; extensions: never };
    expect(settlement).toMatchObject({ success: true, payer: DEV_PAYER.address.toLowerCase() });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    await expectReceipts(settlement, await published(server.url), `${server.url}/jobs/crawl`);
    const created = (await answer.json()) as JobAnswer;
    expect(created.payment.extensions).toStrictEqual(settlement.extensions);
    expect(created.payment).toMatchObject({
      scheme: 'exact',
      x402Version: 1,
      state: 'settled',
      amount: String(5n * TEXT_PRICE),
    });
    // Paid for the limit at creation, as its terms said.
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore - 5n * TEXT_PRICE);
    const job = await until(
      server.url,
      created.jobToken,
      created.jobId,
      (j) => j.status === 'completed',
    );
    expect(job.completed).toBe(5);
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore - 5n * TEXT_PRICE);
  }, 120_000);
});

/**
 * A facilitator in front of the local one whose `/settle` answers can be lost: `lost`
 * forwards the settlement (the transfer lands) and drops its answer; `late` drops the
 * answer at once and forwards the settlement only when `flush` is called.
 */
async function startLossyFacilitator(target: string) {
  const state: { mode: 'pass' | 'lost' | 'late' } = { mode: 'pass' };
  const held: (() => Promise<void>)[] = [];
  const proxy = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const forward = () =>
      fetch(`${target}${req.url ?? ''}`, {
        method: req.method ?? 'GET',
        headers: { 'content-type': 'application/json' },
        ...(req.method === 'POST' ? { body: Buffer.concat(chunks) } : {}),
      });
    const settling = (req.url ?? '').endsWith('/settle');
    if (state.mode === 'late' && settling) {
      held.push(async () => {
        const settled = (await (await forward()).json()) as { success?: boolean };
        if (settled.success !== true)
          throw new Error(`held settlement failed: ${JSON.stringify(settled)}`);
      });
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
      return;
    }
    const answer = await forward();
    const body = Buffer.from(await answer.arrayBuffer());
    if (state.mode === 'lost' && settling) {
      req.socket.destroy();
      return;
    }
    res.writeHead(answer.status, { 'content-type': 'application/json' });
    res.end(body);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`,
    state,
    async flush() {
      for (const send of held.splice(0)) await send();
    },
    discard() {
      held.length = 0;
    },
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

describe('x402 v1 jobs whose settlement answer is lost', () => {
  const lossySchema = uniqueSchema();
  let lossy: Awaited<ReturnType<typeof startLossyFacilitator>>;
  let instance: RunningServer;

  beforeAll(async () => {
    lossy = await startLossyFacilitator(stack.facilitatorUrl);
    instance = await startJobServer(lossy.url, lossySchema);
  }, 120_000);

  afterAll(async () => {
    await instance?.close();
    await lossy?.close();
    await dropSchema(lossySchema);
  });

  /** x402-fetch 1.x paying for a job of `limit` pages; the X-PAYMENT headers it sent. */
  async function payV1(limit: number) {
    const sent: string[] = [];
    const recording: typeof fetch = (input, init) => {
      const header = new Headers(init?.headers).get('x-payment');
      if (header !== null) sent.push(header);
      return fetch(input, init);
    };
    const wallet = createWalletClient({
      account: privateKeyToAccount(DEV_PAYER.privateKey as Hex),
      chain: base,
      transport: viemHttp(stack.rpcUrl),
    });
    const body = JSON.stringify({ url: `${site.origin}/p/0`, limit, format: 'text' });
    const answer = await wrapFetchWithPaymentV1(recording, wallet as never)(
      `${instance.url}/jobs/crawl`,
      { method: 'POST', headers: { 'content-type': 'application/json' }, body },
    );
    const resend = () =>
      fetch(`${instance.url}/jobs/crawl`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-payment': sent[0] as string },
        body,
      });
    return { answer, resend };
  }

  /** The jobs of this instance: id, status and payment state. */
  async function jobRows() {
    const { rows } = await instance.db.query<{ id: string; status: string; state: string }>(
      `SELECT id, status, payment->>'state' AS state FROM crawl_jobs ORDER BY created_at`,
    );
    return rows;
  }

  it('starts the job when the transfer landed but its answer was lost', async () => {
    const payerBefore = await stack.balanceOf(DEV_PAYER.address);
    lossy.state.mode = 'lost';
    let created: JobAnswer;
    try {
      const { answer } = await payV1(3);
      expect(answer.status).toBe(202);
      created = (await answer.json()) as JobAnswer;
    } finally {
      lossy.state.mode = 'pass';
    }
    expect(created.payment).toMatchObject({ scheme: 'exact', state: 'settled' });
    expect(created.payment.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    const job = await until(
      instance.url,
      created.jobToken,
      created.jobId,
      (j) => j.status === 'completed',
    );
    expect(job.completed).toBe(3);
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore - 3n * TEXT_PRICE);
  }, 120_000);

  it('settles a payment of unknown outcome again when the same header is sent again and the chain shows it unpaid', async () => {
    const payerBefore = await stack.balanceOf(DEV_PAYER.address);
    lossy.state.mode = 'late';
    let resend: () => Promise<Response>;
    try {
      const paid = await payV1(2);
      resend = paid.resend;
      expect(paid.answer.status).toBe(402);
    } finally {
      lossy.state.mode = 'pass';
    }
    // The held settlement never reaches the chain; the payer asks again.
    lossy.discard();
    const again = await resend();
    expect(again.status).toBe(202);
    const created = (await again.json()) as JobAnswer;
    expect(created.payment).toMatchObject({ state: 'settled' });
    const job = await until(
      instance.url,
      created.jobToken,
      created.jobId,
      (j) => j.status === 'completed',
    );
    expect(job.completed).toBe(2);
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore - 2n * TEXT_PRICE);
  }, 120_000);

  it('keeps the job of a payment of unknown outcome, starts it in the sweep once paid, and hands it to the same header sent again', async () => {
    const payerBefore = await stack.balanceOf(DEV_PAYER.address);
    const jobsBefore = (await jobRows()).length;
    lossy.state.mode = 'late';
    let resend: () => Promise<Response>;
    try {
      const paid = await payV1(4);
      resend = paid.resend;
      expect(paid.answer.status).toBe(402);
      const refused = (await paid.answer.json()) as { message: string };
      expect(refused.message).toMatch(/no known outcome yet.*same X-PAYMENT/);
    } finally {
      lossy.state.mode = 'pass';
    }
    // Nothing moved yet; the job exists, waiting for its payment.
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore);
    const waiting = (await jobRows()).slice(jobsBefore);
    expect(waiting).toMatchObject([{ status: 'queued', state: 'settling' }]);

    // The transfer lands after the answer; the sweep reads the chain and starts the job.
    await lossy.flush();
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore - 4n * TEXT_PRICE);
    const ledger = chainLedger(stack.rpcUrl, stack.network, stack.asset);
    expect(await reconcilePayments(instance.db, ledger)).toMatchObject({ paid: 1 });
    const queue = new JobQueue(queueSchemaOf(DATABASE_URL === null ? undefined : lossySchema));
    expect(await settleWaitingJobs(instance.db, queue)).toStrictEqual({ started: 1, dropped: 0 });
    expect(await settleWaitingJobs(instance.db, queue)).toStrictEqual({ started: 0, dropped: 0 });

    // The payer, who never got the job, sends the same header again and gets it, once.
    const again = await resend();
    expect(again.status).toBe(202);
    const created = (await again.json()) as JobAnswer;
    expect(created.jobId).toBe(waiting[0]?.id);
    const job = await until(
      instance.url,
      created.jobToken,
      created.jobId,
      (j) => j.status === 'completed',
    );
    expect(job.completed).toBe(4);
    const third = await resend();
    expect(third.status).toBe(402);
    expect(((await third.json()) as { message: string }).message).toMatch(/already used/);
    // Paid once, for the limit.
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore - 4n * TEXT_PRICE);
  }, 120_000);
});
