/**
 * x402 `batch-settlement` end to end, with real money moving: the local chain and its
 * batch-settlement contract, the facilitator on the official x402 code, the service on
 * real sockets, and the official client (`@x402/core` with the `batch-settlement` client
 * scheme of `@x402/evm`, through `@x402/fetch`) paying from the development wallet. One
 * deposit, then one voucher per call; the service books each charge with its result and
 * redeems the vouchers in one batch.
 */
import { verifyReceipt } from '@storefront/attest';
import { DEV_PAYER, type PaymentStack, startPaymentStack } from '@storefront/facilitator';
import { DEV_RECEIVER_AUTHORIZER } from '@storefront/facilitator/accounts';
import { x402Client } from '@x402/core/client';
import {
  decodePaymentRequiredHeader,
  decodePaymentResponseHeader,
  encodePaymentSignatureHeader,
} from '@x402/core/http';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { BATCH_SETTLEMENT_ADDRESS, toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { pino } from 'pino';
import { createPublicClient, type Hex, http as viemHttp } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { type RunningServer, startServer } from '../src/server.js';
import { receiverAuthorizerKey } from '../src/signer-key.js';
import { createSchema, DATABASE_URL, dropSchema, tempDir, uniqueSchema } from './helpers.js';
import { ADMIN_TOKEN } from './keys.js';

type Body = Record<string, unknown>;

/** The batch contract's view of a channel, and of what a receiver claimed and was paid. */
const CONTRACT_ABI = [
  {
    type: 'function',
    name: 'channels',
    inputs: [{ name: 'channelId', type: 'bytes32' }],
    outputs: [
      { name: 'balance', type: 'uint128' },
      { name: 'totalClaimed', type: 'uint128' },
    ],
    stateMutability: 'view',
  },
  {
    type: 'function',
    name: 'receivers',
    inputs: [
      { name: 'receiver', type: 'address' },
      { name: 'token', type: 'address' },
    ],
    outputs: [
      { name: 'totalClaimed', type: 'uint128' },
      { name: 'totalSettled', type: 'uint128' },
    ],
    stateMutability: 'view',
  },
] as const;

const PRICE = 8000n; // /buy/notarize: $0.008
const SIGNER_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';

let stack: PaymentStack;
const schema = uniqueSchema();
const dataDir = tempDir('storefront-x402-batch-');
let running: RunningServer | null = null;

/** Start the service on the shared database; vouchers are redeemed `redeemSeconds` after a channel's first. */
async function serve(redeemSeconds: number): Promise<RunningServer> {
  const server = await startServer(
    loadConfig(
      {
        NODE_ENV: 'test',
        PORT: '0',
        DATA_DIR: dataDir,
        LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
        ADMIN_TOKEN,
        FACILITATOR_URL: stack.facilitatorUrl,
        X402_ASSET: stack.asset,
        X402_PAY_TO: stack.payTo,
        X402_RPC_URL: stack.rpcUrl,
        X402_BATCH_REDEEM_SECONDS: String(redeemSeconds),
        SIGNER_PRIVATE_KEY: SIGNER_KEY,
        ...(DATABASE_URL === null ? {} : { DATABASE_URL }),
      },
      dataDir,
    ),
    {
      logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
      ...(DATABASE_URL === null ? {} : { schema }),
    },
  );
  await server.ready();
  return server;
}

function server(): RunningServer {
  if (running === null) throw new Error('the service is not running');
  return running;
}

const chain = () =>
  createPublicClient({ transport: viemHttp(stack.rpcUrl) }) as unknown as {
    readContract(args: unknown): Promise<unknown>;
  };

/** The official client for the development payer, paying with `batch-settlement` on channel `salt`. */
function batchPayer(salt: Hex): { client: x402Client; scheme: BatchSettlementEvmScheme } {
  const account = privateKeyToAccount(DEV_PAYER.privateKey as Hex);
  const signer = toClientEvmSigner(account, chain() as never);
  const scheme = new BatchSettlementEvmScheme(signer, {
    salt,
    depositPolicy: { depositMultiplier: 20 },
  });
  const client = new x402Client().setSpendControls(false).register(stack.network, scheme);
  return { client, scheme };
}

async function channelOnChain(channelId: string): Promise<{ balance: bigint; claimed: bigint }> {
  const [balance, claimed] = (await chain().readContract({
    address: BATCH_SETTLEMENT_ADDRESS,
    abi: CONTRACT_ABI,
    functionName: 'channels',
    args: [channelId],
  })) as [bigint, bigint];
  return { balance, claimed };
}

async function receiverOnChain(): Promise<{ claimed: bigint; settled: bigint }> {
  const [claimed, settled] = (await chain().readContract({
    address: BATCH_SETTLEMENT_ADDRESS,
    abi: CONTRACT_ABI,
    functionName: 'receivers',
    args: [stack.payTo, stack.asset],
  })) as [bigint, bigint];
  return { claimed, settled };
}

/** Read the service's books (its own database). */
async function books<R>(sql: string, params: unknown[] = []): Promise<R[]> {
  return (await server().db.query<R>(sql, params)).rows;
}

/** How many calls the books hold. */
async function booked(): Promise<number> {
  const [row] = await books<{ n: string }>('SELECT count(*)::text AS n FROM x402_vouchers');
  return Number(row?.n);
}

/** Wait until `check` holds, asking again as the chain moves (a redemption is a queued task). */
async function until<T>(read: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The channel's charged total after a paid call, from its settlement answer (`PAYMENT-RESPONSE`). */
function chargedTotal(answer: Response): string | undefined {
  const settled = decodePaymentResponseHeader(answer.headers.get('payment-response') ?? '');
  if (!settled.success) return undefined;
  const state = settled.extra?.channelState as { chargedCumulativeAmount?: string } | undefined;
  return state?.chargedCumulativeAmount;
}

const notarize = (text: string) =>
  `${server().url}/buy/notarize?content=${encodeURIComponent(text)}`;

beforeAll(async () => {
  stack = await startPaymentStack();
  if (DATABASE_URL !== null) await createSchema(schema);
  running = await serve(1);
}, 120_000);

afterAll(async () => {
  await running?.close();
  await stack?.close();
  if (DATABASE_URL !== null) await dropSchema(schema);
}, 60_000);

describe('x402 batch-settlement', () => {
  let channelId = '';
  let firstHeader = '';
  let firstBody: Body = {};

  it('offers batch-settlement beside exact in the v2 terms of every paid route', async () => {
    const answer = await fetch(notarize('terms'));
    expect(answer.status).toBe(402);
    const header = answer.headers.get('payment-required');
    if (header === null) throw new Error('no PAYMENT-REQUIRED');
    const terms = decodePaymentRequiredHeader(header);
    expect(terms.accepts.map((a) => a.scheme)).toStrictEqual(['exact', 'batch-settlement']);
    const batch = terms.accepts[1] as PaymentRequirements;
    expect(batch).toMatchObject({
      network: stack.network,
      amount: String(PRICE),
      asset: stack.asset,
      payTo: stack.payTo,
      extra: { withdrawDelay: 900, tier: 'notarize', minDeposit: String(PRICE * 100n) },
    });
    // The service's own authorizer (derived from its signer key), not the facilitator's:
    // no one else can refund what a channel was charged before the service claims it.
    expect(batch.extra.receiverAuthorizer).toBe(
      privateKeyToAccount(receiverAuthorizerKey(SIGNER_KEY)).address,
    );
    expect(batch.extra.receiverAuthorizer).not.toBe(DEV_RECEIVER_AUTHORIZER.address);
    // v1 has no batch-settlement: its body still offers exact alone.
    const body = (await answer.json()) as { accepts: { scheme: string }[] };
    expect(body.accepts.map((a) => a.scheme)).toStrictEqual(['exact']);
  });

  it('deposits once, then pays each call with a voucher: receipts verify, the books hold each charge', async () => {
    const payerBefore = await stack.balanceOf(DEV_PAYER.address);
    const { client } = batchPayer(`0x${'01'.repeat(32)}`);
    let paid: PaymentPayload | null = null;
    client.onAfterPaymentCreation(async ({ paymentPayload }) => {
      paid = paymentPayload;
    });
    const pay = wrapFetchWithPayment(fetch, client);
    const calls = 6;
    let deposit = 0n;
    for (let i = 0; i < calls; i++) {
      const answer = await pay(notarize(`call ${i}`));
      const body = (await answer.json()) as Body;
      expect(answer.status, JSON.stringify(body)).toBe(200);
      expect(verifyReceipt(body as never, server().signer.address).valid).toBe(true);
      expect(chargedTotal(answer)).toBe(String(PRICE * BigInt(i + 1)));
      if (i === 0) {
        channelId = (paid as unknown as { payload: { voucher: { channelId: string } } }).payload
          .voucher.channelId;
        // The first call carried the deposit.
        const first = (
          paid as unknown as { payload: { type: string; deposit: { amount: string } } }
        ).payload;
        expect(first.type).toBe('deposit');
        deposit = BigInt(first.deposit.amount);
      } else {
        expect((paid as unknown as { payload: { type: string } }).payload.type).toBe('voucher');
      }
      if (i === 2) {
        firstHeader = encodePaymentSignatureHeader(paid as unknown as PaymentPayload);
        firstBody = body;
      }
    }
    // One deposit moved money, into the channel; the calls moved none.
    expect(deposit).toBeGreaterThanOrEqual(10n * PRICE);
    expect(await stack.balanceOf(DEV_PAYER.address)).toBe(payerBefore - deposit);
    expect((await channelOnChain(channelId)).balance).toBe(deposit);
    const rows = await books<{ n: string; total: string; top: string }>(
      `SELECT count(*)::text AS n, sum(amount)::text AS total, max(cumulative)::text AS top
         FROM x402_vouchers WHERE channel_id = $1`,
      [channelId.toLowerCase()],
    );
    expect(rows[0]).toStrictEqual({
      n: String(calls),
      total: String(PRICE * BigInt(calls)),
      top: String(PRICE * BigInt(calls)),
    });
  }, 120_000);

  it('answers the same voucher again with the result it paid for, moving nothing', async () => {
    const answer = await fetch(notarize('call 2'), {
      headers: { 'payment-signature': firstHeader },
    });
    expect(answer.status).toBe(200);
    expect(await answer.json()).toStrictEqual(firstBody);
    const again = await fetch(notarize('another call'), {
      headers: { 'payment-signature': firstHeader },
    });
    expect(again.status).toBe(402);
    expect(((await again.json()) as Body).error).toBe('payment_mismatch');
    const rows = await books<{ n: string }>(
      'SELECT count(*)::text AS n FROM x402_vouchers WHERE channel_id = $1',
      [channelId.toLowerCase()],
    );
    expect(rows[0]?.n).toBe('6');
  });

  it('resyncs a payer that lost its record of the channel, without paying twice', async () => {
    // A new client on the same channel (same salt), with no memory: its first voucher's
    // base is wrong; the 402 carries the channel's state and the official client retries.
    const { client } = batchPayer(`0x${'01'.repeat(32)}`);
    const answer = await wrapFetchWithPayment(fetch, client)(notarize('after a restart'));
    expect(answer.status, await answer.clone().text()).toBe(200);
    expect(chargedTotal(answer)).toBe(String(7n * PRICE));
  }, 60_000);

  it('redeems the vouchers in one batch: exactly what was delivered reaches payTo', async () => {
    const payeeBefore = await stack.balanceOf(stack.payTo);
    const receiver = await until(receiverOnChain, (r) => r.settled >= 7n * PRICE);
    expect(receiver).toStrictEqual({ claimed: 7n * PRICE, settled: 7n * PRICE });
    expect((await channelOnChain(channelId)).claimed).toBe(7n * PRICE);
    const delivered = await books<{ total: string }>(
      'SELECT sum(amount)::text AS total FROM x402_vouchers',
    );
    expect(BigInt(delivered[0]?.total ?? '0')).toBe(receiver.claimed);
    expect((await stack.balanceOf(stack.payTo)) - payeeBefore).toBeLessThanOrEqual(7n * PRICE);
  }, 60_000);

  it('refunds the unspent rest of a channel to the payer, and pays payTo what it was charged', async () => {
    const before = await receiverOnChain();
    const payerBefore = await stack.balanceOf(DEV_PAYER.address);
    const booksBefore = await booked();
    const { client, scheme } = batchPayer(`0x${'03'.repeat(32)}`);
    const pay = wrapFetchWithPayment(fetch, client);
    for (let i = 0; i < 2; i++) expect((await pay(notarize(`refund ${i}`))).status).toBe(200);
    const deposited = payerBefore - (await stack.balanceOf(DEV_PAYER.address));
    expect(deposited).toBe(100n * PRICE);
    // The official client's cooperative refund, through the route it paid.
    const answers: Body[] = [];
    const seen: typeof fetch = async (input, init) => {
      const answer = await fetch(input, init);
      if (answer.status === 200) answers.push((await answer.clone().json()) as Body);
      return answer;
    };
    const refunded = await scheme.refund(notarize('refund'), { fetch: seen });
    expect(refunded.success).toBe(true);
    // The answer is the refund's, not a product's: nothing ran, nothing was signed.
    expect(answers).toHaveLength(1);
    expect(answers[0]).toMatchObject({ ok: true, message: expect.stringContaining('Refund made') });
    expect(answers[0]).not.toHaveProperty('attestation');
    expect(payerBefore - (await stack.balanceOf(DEV_PAYER.address))).toBe(2n * PRICE);
    // What the two calls were charged reaches payTo; nothing more.
    const after = await until(receiverOnChain, (r) => r.settled >= before.settled + 2n * PRICE);
    expect(after.claimed).toBe(before.claimed + 2n * PRICE);
    // A refund runs no product and charges nothing: the books gained the two calls only.
    expect((await booked()) - booksBefore).toBe(2);
  }, 60_000);

  it('redeems what an instance charged before it stopped, once the next one starts', async () => {
    await running?.close();
    running = await serve(3600);
    const { client } = batchPayer(`0x${'02'.repeat(32)}`);
    const pay = wrapFetchWithPayment(fetch, client);
    for (let i = 0; i < 3; i++) expect((await pay(notarize(`stopped ${i}`))).status).toBe(200);
    const before = await receiverOnChain();
    // Stopped before its redemption (an hour away) ran: the vouchers are only in the books.
    await running.close();
    running = null;
    expect((await receiverOnChain()).claimed).toBe(before.claimed);
    running = await serve(3600);
    const after = await until(receiverOnChain, (r) => r.settled >= before.claimed + 3n * PRICE);
    expect(after.claimed).toBe(before.claimed + 3n * PRICE);
  }, 120_000);
});
