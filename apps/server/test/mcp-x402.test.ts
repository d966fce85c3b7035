/**
 * x402 inside MCP, end to end with real money moving: the local chain and facilitator of
 * the development payment stack, the service on real sockets, and an agent built from
 * the MCP SDK's client and `@x402/core`'s client (the official `exact` scheme), paying
 * a `tools/call` as the x402 MCP transport specifies.
 */
import {
  Client as ModernClient,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { verifyReceipt } from '@storefront/attest';
import { DEV_PAYER, type PaymentStack, startPaymentStack } from '@storefront/facilitator';
import { x402Client } from '@x402/core/client';
import type { PaymentPayload, PaymentRequired, SettleResponse } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme } from '@x402/evm/batch-settlement/client';
import { createPublicClient, type Hex, http as viemHttp } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentsFor } from '../src/doors/x402/claims.js';
import type { RunningServer } from '../src/server.js';
import { listeningServer, paymentEnv } from './listening.js';
import { type Site, startSite } from './site.js';
import { officialV2Payer } from './x402/payments.js';

let stack: PaymentStack;
let site: Site;
let server: RunningServer;
let stop: () => Promise<void>;

beforeAll(async () => {
  stack = await startPaymentStack();
  site = await startSite();
  ({ server, stop } = await listeningServer({
    SAFE_FETCH_ALLOW: site.allow,
    ...paymentEnv(stack),
  }));
  await server.ready();
}, 120_000);

afterAll(async () => {
  await stop?.();
  await site?.close();
  await stack?.close();
}, 60_000);

/** The official v2 client, paying from the development wallet. */
function payer(): x402Client {
  return officialV2Payer(DEV_PAYER.privateKey);
}

/** An MCP SDK client on the service's `/mcp`, with no key. */
async function connect(): Promise<Client> {
  const client = new Client({ name: 'storefront-x402-agent', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  return client;
}

/** The refusal's code, named first in the second text block of a terms result. */
function codeOf(result: CallToolResult): string {
  const text = (result.content as { type: string; text: string }[])[1]?.text ?? '';
  return text.slice(0, text.indexOf(':'));
}

/** The payment terms of an `isError` result, as the transport says a client reads them. */
function termsOf(result: CallToolResult): PaymentRequired {
  expect(result.isError).toBe(true);
  const terms = result.structuredContent as unknown as PaymentRequired;
  expect(terms.x402Version).toBe(2);
  expect(Array.isArray(terms.accepts)).toBe(true);
  return terms;
}

async function call(
  client: Client,
  name: string,
  args: Record<string, string>,
  payment?: PaymentPayload,
): Promise<CallToolResult> {
  return (await client.callTool({
    name,
    arguments: args,
    ...(payment === undefined ? {} : { _meta: { 'x402/payment': payment } }),
  })) as CallToolResult;
}

async function balances(): Promise<{ payer: bigint; payee: bigint }> {
  return {
    payer: await stack.balanceOf(DEV_PAYER.address),
    payee: await stack.balanceOf(stack.payTo),
  };
}

describe('x402 inside MCP on a local chain', () => {
  it('pays a tool call: the terms as an isError result, the payment in _meta, the settlement back in _meta, the exact price on chain, a receipt that verifies', async () => {
    const client = await connect();
    const pinned = (
      (await (await fetch(`${server.url}/.well-known/service-attestation`)).json()) as {
        address: string;
      }
    ).address;
    const args = { url: site.url('/wiki') };
    const before = await balances();
    const asked = await call(client, 'markdown', args);
    const terms = termsOf(asked);
    expect(codeOf(asked)).toBe('payment_required');
    // The transport's first text block is the same object as JSON.
    const blocks = asked.content as { type: string; text: string }[];
    expect(JSON.parse(blocks[0]?.text ?? '')).toStrictEqual(terms);
    expect(terms.accepts[0]).toMatchObject({
      scheme: 'exact',
      network: stack.network,
      amount: '5000',
      asset: stack.asset,
      payTo: stack.payTo,
    });
    // Asking cost nothing.
    expect(await balances()).toStrictEqual(before);

    const payment = await payer().createPaymentPayload(terms);
    const paid = await call(client, 'markdown', args, payment);
    expect(paid.isError).toBeUndefined();
    const body = paid.structuredContent as Record<string, unknown>;
    expect(body.ok).toBe(true);
    const settlement = paid._meta?.['x402/payment-response'] as {
      success: boolean;
      transaction: string;
      network: string;
      payer: string;
    };
    expect(settlement).toMatchObject({ success: true, network: stack.network });
    expect(settlement.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(settlement.payer.toLowerCase()).toBe(DEV_PAYER.address.toLowerCase());

    const after = await balances();
    expect(before.payer - after.payer).toBe(5000n);
    expect(after.payee - before.payee).toBe(5000n);
    const verification = verifyReceipt(body, pinned);
    expect(verification.problems).toStrictEqual([]);
    expect(verification.valid).toBe(true);
    // The same books as the HTTP door: one settled, charged row with its transaction.
    const rows = await paymentsFor(server.db, { payer: DEV_PAYER.address, limit: 100 });
    const row = rows.find((r) => r.transaction === settlement.transaction);
    expect(row).toMatchObject({ state: 'settled', charged: true });
    await client.close();
  }, 60_000);

  it('refuses a replayed payment with the terms, before any work, and moves no more money', async () => {
    const client = await connect();
    const args = { url: site.url('/moved') };
    const terms = termsOf(await call(client, 'fetch', args));
    const payment = await payer().createPaymentPayload(terms);
    const hits = site.hits.get('/moved') ?? 0;
    const before = await balances();
    const first = await call(client, 'fetch', args, payment);
    expect(first.isError).toBeUndefined();
    const second = await call(client, 'fetch', args, payment);
    termsOf(second);
    expect(codeOf(second)).toBe('payment_replayed');
    expect(second._meta?.['x402/payment-response']).toBeUndefined();
    expect(site.hits.get('/moved')).toBe(hits + 1);
    const after = await balances();
    expect(before.payer - after.payer).toBe(3000n);
    await client.close();
  }, 60_000);

  it('binds a payment to its call: the payment for one tool does not pay another', async () => {
    const client = await connect();
    const terms = termsOf(await call(client, 'links', { url: site.url('/product') }));
    const payment = await payer().createPaymentPayload(terms);
    const before = await balances();
    // Same price (5000), other tool.
    const other = await call(client, 'headers', { url: site.url('/product') }, payment);
    termsOf(other);
    expect(codeOf(other)).toBe('payment_mismatch');
    expect(await balances()).toStrictEqual(before);
    // The payment still pays the call it was signed for.
    const own = await call(client, 'links', { url: site.url('/product') }, payment);
    expect(own.isError).toBeUndefined();
    expect(before.payer - (await balances()).payer).toBe(5000n);
    await client.close();
  }, 60_000);

  it('pays a tool call over protocol 2026-07-28 with the v2 client the same way: terms, payment in _meta, settlement in _meta', async () => {
    const client = new ModernClient(
      { name: 'storefront-x402-agent-v2', version: '1.0.0' },
      { versionNegotiation: { mode: { pin: '2026-07-28' } } },
    );
    await client.connect(new ModernTransport(new URL(`${server.url}/mcp`)));
    await client.listTools();
    const args = { content: 'paid over 2026-07-28' };
    const before = await balances();
    const asked = (await client.callTool({ name: 'notarize', arguments: args })) as CallToolResult;
    const terms = termsOf(asked);
    expect(codeOf(asked)).toBe('payment_required');
    expect(await balances()).toStrictEqual(before);
    const payment = await payer().createPaymentPayload(terms);
    const paid = await client.callTool({
      name: 'notarize',
      arguments: args,
      _meta: { 'x402/payment': payment },
    });
    expect(paid.isError).toBeUndefined();
    expect((paid.structuredContent as { ok: boolean }).ok).toBe(true);
    expect(paid._meta?.['x402/payment-response']).toMatchObject({
      success: true,
      network: stack.network,
    });
    expect(before.payer - (await balances()).payer).toBe(8000n);
    await client.close();
  }, 60_000);

  it('pays tool calls with batch-settlement vouchers in _meta: one deposit, then calls that move no money until redeemed', async () => {
    const client = await connect();
    const account = privateKeyToAccount(DEV_PAYER.privateKey as Hex);
    const chain = createPublicClient({ transport: viemHttp(stack.rpcUrl) });
    const vouchers = new x402Client().setSpendControls(false).register(
      stack.network,
      new BatchSettlementEvmScheme(toClientEvmSigner(account, chain as never), {
        salt: `0x${'42'.repeat(32)}`,
      }),
    );
    const before = await balances();
    const charged: string[] = [];
    for (const word of ['one', 'two', 'three']) {
      const args = { content: `mcp batch ${word}` };
      const terms = termsOf(await call(client, 'notarize', args));
      expect(terms.accepts.map((a) => a.scheme)).toStrictEqual(['exact', 'batch-settlement']);
      const payment = await vouchers.createPaymentPayload(terms);
      const paid = await call(client, 'notarize', args, payment);
      expect(paid.isError).toBeUndefined();
      expect((paid.structuredContent as Record<string, unknown>).ok).toBe(true);
      const settlement = paid._meta?.['x402/payment-response'] as SettleResponse;
      expect(settlement.success).toBe(true);
      // The client's hooks read the settlement, as the HTTP client does from its header.
      await vouchers.handlePaymentResponse({
        paymentPayload: payment,
        requirements: payment.accepted,
        settleResponse: settlement,
      });
      const state = settlement.extra?.channelState as
        | { chargedCumulativeAmount?: string }
        | undefined;
      charged.push(state?.chargedCumulativeAmount ?? '');
    }
    expect(charged).toStrictEqual(['8000', '16000', '24000']);
    // One transfer: the deposit (100 calls' worth); payTo is paid when the vouchers are redeemed.
    const after = await balances();
    expect(before.payer - after.payer).toBe(800_000n);
    expect(after.payee).toBe(before.payee);
    const { rows } = await server.db.query<{ n: string }>(
      "SELECT count(*)::text AS n FROM x402_vouchers WHERE route = 'notarize'",
    );
    expect(Number(rows[0]?.n)).toBe(3);
    await client.close();
  }, 60_000);

  it('refuses a payment that is not a PaymentPayload with the terms, and charges nothing', async () => {
    const client = await connect();
    const before = await balances();
    const bad = await client.callTool({
      name: 'notarize',
      arguments: { content: 'x' },
      _meta: { 'x402/payment': { x402Version: 2, payload: 'nonsense' } },
    });
    termsOf(bad as CallToolResult);
    expect(codeOf(bad as CallToolResult)).toBe('payment_invalid');
    expect(await balances()).toStrictEqual(before);
    await client.close();
  }, 60_000);
});
