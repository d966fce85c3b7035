/**
 * Adding a route is a route folder plus one registry line. The folder
 * `test/added-route/wordcount/` is written as a new product would add one under
 * `src/registry/` (its definition, price and wording, receipt rule and example with its
 * own fixture page), and the registry below is the shipped one plus that route. Nothing
 * else changes, and the route appears, priced and callable through all three doors
 * with a receipt that verifies, in discovery, OpenAPI, the Bazaar declaration and MCP.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { verifyReceipt } from '@storefront/attest';
import { DEV_PAYER, type PaymentStack, startPaymentStack } from '@storefront/facilitator';
import { createFetcher } from '@storefront/safe-fetch';
import { edited } from '@storefront/test-utils';
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { toClientEvmSigner } from '@x402/evm';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY } from '../src/registry/index.js';
import { wordcountRoute } from './added-route/wordcount/index.js';
import { fetchJson, testApp } from './helpers.js';
import { ADMIN_TOKEN } from './keys.js';
import { type Site, startSite } from './site.js';

type Body = Record<string, unknown>;

/** The one registry line a new route adds. */
const registry = [...REGISTRY, wordcountRoute];

const route = wordcountRoute;
let stack: PaymentStack;
let site: Site;
let server: http.Server;
let base: string;
let app: Awaited<ReturnType<typeof testApp>>;

beforeAll(async () => {
  stack = await startPaymentStack();
  site = await startSite(registry);
  // The app's public address is the socket it answers on, so payments name it.
  server = http.createServer();
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app = await testApp(
    { registry, fetcher: createFetcher({ testOnlyAllow: site.allow }) },
    {
      publicBaseUrl: base,
      adminToken: ADMIN_TOKEN,
      payment: {
        network: stack.network,
        asset: stack.asset,
        payTo: stack.payTo,
        facilitatorUrl: stack.facilitatorUrl,
        facilitatorTimeoutMs: 15_000,
        legacyNetworkNames: false,
        testnet: true,
        rpcUrl: stack.rpcUrl,
        batchRedeemSeconds: 0,
      },
    },
  );
  server.on('request', app.app);
}, 120_000);

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await app?.dispose();
  await site?.close();
  await stack?.close();
}, 60_000);

const query = () => new URLSearchParams(route.example.call(site)).toString();

/** A live key funded with `credits` credits. */
async function liveKey(credits: number): Promise<string> {
  const minted = await fetchJson(`${base}/api/dev/keys?live=true`, { method: 'POST' });
  const keyId = minted.body.keyId as string;
  const granted = await fetchJson(`${base}/admin/keys/${keyId}/credits`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ credits }),
  });
  expect(granted.status).toBe(200);
  return minted.body.key as string;
}

async function creditsOf(key: string): Promise<number> {
  const balance = await fetchJson(`${base}/api/dev/balance`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return balance.body.credits as number;
}

async function serviceDocument(): Promise<Body> {
  return (await fetchJson(`${base}/.well-known/service-attestation`)).body;
}

/** The result verifies against the service's pinned document, its fields covered by the route's rule. */
async function expectVerified(body: Body): Promise<void> {
  const document = await serviceDocument();
  const verification = verifyReceipt(body, document as never);
  expect(verification.problems).toStrictEqual([]);
  expect(verification).toMatchObject({ valid: true, route: 'wordcount' });
  expect(verification.checks.fields).toBe(true);
  // An edited field is refused though `text` and the signature are untouched.
  const tampered = verifyReceipt(edited(body, 'data.words'), document as never);
  expect(tampered.checks.fields).toBe(false);
  const server = await fetchJson(`${base}/x402/verify`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(server.body).toMatchObject({ ok: true, valid: true, route: 'wordcount' });
}

const EXPECTED_DATA = { title: 'Three little words', titleWords: 3, words: 9 };

describe('a route added as one folder and one registry line', () => {
  it('is listed, priced, in every discovery document and in OpenAPI', async () => {
    const catalog = (await fetchJson(`${base}/catalog`)).body;
    const listed = (catalog.routes as Body[]).find((entry) => entry.path === '/buy/wordcount');
    expect(listed).toMatchObject({ name: 'wordcount', title: 'Word count' });
    expect(JSON.stringify(listed)).toContain('2000');

    const wellKnown = (await fetchJson(`${base}/.well-known/x402`)).body;
    expect(wellKnown.resources).toContain(`${base}/buy/wordcount`);

    const manifest = JSON.stringify((await fetchJson(`${base}/manifest`)).body);
    expect(manifest).toContain('/buy/wordcount');
    const discovery = JSON.stringify((await fetchJson(`${base}/x402/discovery`)).body);
    expect(discovery).toContain('/buy/wordcount');

    const openapi = (await fetchJson(`${base}/openapi.json`)).body;
    const operation = (openapi.paths as Record<string, { get: Body }>)['/buy/wordcount']?.get;
    expect(operation?.responses).toHaveProperty('402');
    expect(operation?.['x-payment-info']).toMatchObject({ price: expect.anything() });
    expect(JSON.stringify(operation?.['x-payment-info'])).toContain('0.002');

    const document = await serviceDocument();
    expect((document.receiptRules as Body).wordcount).toStrictEqual({ kind: 'canonical-json' });
  });

  it('answers 402 with its price and its Bazaar declaration, example query included', async () => {
    const res = await fetch(`${base}/buy/wordcount?${query()}`);
    expect(res.status).toBe(402);
    const required = decodePaymentRequiredHeader(res.headers.get('payment-required') as string);
    expect(required.accepts[0]).toMatchObject({ amount: '2000', extra: { tier: 'wordcount' } });
    const bazaar = required.extensions?.bazaar as {
      info: { input: { queryParams: unknown } };
      schema: unknown;
    };
    expect(bazaar.info.input.queryParams).toStrictEqual(route.example.query);
    expect(JSON.stringify(bazaar.schema)).toContain('titleWords');
  });

  it('is callable through the key door, charged its example credits, with a receipt that verifies', async () => {
    const key = await liveKey(50);
    const res = await fetchJson(`${base}/buy/wordcount?${query()}`, {
      headers: { authorization: `Bearer ${key}` },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toStrictEqual(EXPECTED_DATA);
    await expectVerified(res.body);
    await expect.poll(() => creditsOf(key)).toBe(50 - route.example.credits);
  });

  it('is an MCP tool, callable with a key, with the same receipt', async () => {
    const key = await liveKey(50);
    const client = new Client({ name: 'add-route-test', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    const { tools } = await client.listTools();
    const tool = tools.find((entry) => entry.name === 'wordcount');
    expect(tool?.inputSchema.properties).toHaveProperty('url');
    const result = await client.callTool({
      name: 'wordcount',
      arguments: route.example.call(site),
    });
    expect(result.isError ?? false).toBe(false);
    const body = result.structuredContent as Body;
    expect(body.data).toStrictEqual(EXPECTED_DATA);
    await expectVerified(body);
    await expect.poll(() => creditsOf(key)).toBe(50 - route.example.credits);
    await client.close();
  });

  it('is payable through the x402 door by the official client, the price moving on chain', async () => {
    const client = new x402Client();
    registerExactEvmScheme(client, {
      signer: toClientEvmSigner(privateKeyToAccount(DEV_PAYER.privateKey as Hex)),
    });
    const pay = wrapFetchWithPayment(fetch, client);
    const before = await stack.balanceOf(stack.payTo);
    const res = await pay(`${base}/buy/wordcount?${query()}`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Body;
    expect(body.data).toStrictEqual(EXPECTED_DATA);
    const settlement = decodePaymentResponseHeader(res.headers.get('payment-response') as string);
    expect(settlement.success).toBe(true);
    await expectVerified(body);
    expect((await stack.balanceOf(stack.payTo)) - before).toBe(2000n);
  });
});
