import { validateDiscoveryExtension } from '@x402/extensions/bazaar';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runsOnThread } from '../src/pipeline/work.js';
import { REGISTRY } from '../src/registry/index.js';
import type { AnyRoute } from '../src/registry/types.js';
import { testApp } from './helpers.js';

type Body = Record<string, unknown>;

/** Prices in USDC atomic units from the spec's route summary (validate's is not given there). */
const SPEC_PRICES: Readonly<Record<string, readonly number[]>> = {
  fetch: [3000, 6000, 12000],
  extract: [4000],
  markdown: [5000],
  metadata: [6000],
  links: [5000],
  robots: [5000],
  diff: [6000],
  notarize: [8000],
  headers: [5000],
  table: [6000],
  feed: [5000],
  availability: [5000],
};

const DOCUMENTS = [
  '/catalog',
  '/manifest',
  '/.well-known/x402',
  '/x402/discovery',
  '/openapi.json',
];

/** USDC atomic units (6 decimals) as a dollar string: 3000 → `$0.003`. */
function dollarString(amount: number): string {
  return `$${amount / 1_000_000}`;
}

/** A route's price points as discovery lists them. */
function expectedPrices(route: AnyRoute) {
  return route.prices.map((price) => ({
    tier: price.tier,
    amount: String(price.amount),
    price: dollarString(price.amount),
    credits: Math.max(1, price.amount / 1000),
    includes: price.includes,
  }));
}

let t: Awaited<ReturnType<typeof testApp>>;
let base: string;
const docs = new Map<string, Body>();

beforeAll(async () => {
  t = await testApp();
  base = t.deps.config.publicBaseUrl;
}, 60_000);
afterAll(() => t.dispose());

async function doc(path: string): Promise<Body> {
  const cached = docs.get(path);
  if (cached !== undefined) return cached;
  const res = await request(t.app).get(path).expect(200);
  docs.set(path, res.body as Body);
  return res.body as Body;
}

describe('discovery documents', () => {
  it.each(DOCUMENTS)('%s answers 200 JSON without a key', async (path) => {
    const res = await request(t.app).get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body).toBeTypeOf('object');
  });

  it('the registry prices are the spec prices, cheapest first', () => {
    for (const route of REGISTRY) {
      const amounts = route.prices.map((price) => price.amount);
      expect(amounts.length).toBeGreaterThan(0);
      expect([...amounts].sort((a, b) => a - b)).toStrictEqual(amounts);
      const spec = SPEC_PRICES[route.name];
      if (spec !== undefined) expect([route.name, amounts]).toStrictEqual([route.name, spec]);
    }
  });

  it('/catalog lists every route with its prices, params and output schema', async () => {
    const catalog = await doc('/catalog');
    const routes = catalog.routes as Body[];
    expect(routes.map((row) => row.name)).toStrictEqual(REGISTRY.map((route) => route.name));
    for (const route of REGISTRY) {
      const row = routes.find((r) => r.name === route.name) as Body;
      expect(row).toMatchObject({
        method: 'GET',
        path: route.path,
        url: `${base}${route.path}`,
        chargeRule: route.chargeRule,
        required: route.params.required,
      });
      expect(row.prices).toStrictEqual(expectedPrices(route));
      expect(row.params).toStrictEqual(route.params.properties);
      expect(row.output).toStrictEqual(route.response);
    }
  });

  it('/manifest names no door that does not answer: no x402 without a facilitator', async () => {
    const manifest = await doc('/manifest');
    expect(Object.keys(manifest.doors as Body)).toStrictEqual(['apiKey', 'mcp']);
    expect((manifest.doors as Record<string, Body>).mcp).toMatchObject({
      endpoint: `${base}/mcp`,
      transport: 'streamable-http',
    });
  });

  it('/manifest lists every route with the same prices', async () => {
    const manifest = await doc('/manifest');
    const routes = manifest.routes as Body[];
    expect(routes.map((row) => row.name)).toStrictEqual(REGISTRY.map((route) => route.name));
    for (const route of REGISTRY) {
      const row = routes.find((r) => r.name === route.name) as Body;
      expect(row).toMatchObject({ path: route.path, chargeRule: route.chargeRule });
      expect(row.prices).toStrictEqual(expectedPrices(route));
    }
    expect(manifest.baseUrl).toBe(base);
    expect((manifest.signer as Body).address).toBe(t.signer.address);
  });

  it('/.well-known/x402 names every paid route by absolute URL', async () => {
    const wellKnown = await doc('/.well-known/x402');
    expect(wellKnown.x402Version).toBe(1);
    const resources = wellKnown.resources as string[];
    expect(resources).toStrictEqual(REGISTRY.map((route) => `${base}${route.path}`));
    for (const resource of resources) {
      const url = new URL(resource);
      expect(url.href).toBe(resource);
      expect(['http:', 'https:']).toContain(url.protocol);
      expect(url.pathname).toMatch(/^\/buy\/[a-z]+$/);
    }
    expect(wellKnown.payment).toMatchObject({
      protocols: ['x402'],
      x402Version: 1,
      scheme: 'exact',
      network: 'eip155:8453',
      currency: 'USDC',
      testnet: false,
      maxTimeoutSeconds: 60,
    });
  });

  it('/x402/discovery has one item per route and one per MCP tool, whose accepts carry every price', async () => {
    const discovery = await doc('/x402/discovery');
    expect(discovery.x402Version).toBe(1);
    const all = discovery.items as Body[];
    const items = all.filter((item) => item.type === 'http');
    expect(items.map((item) => item.resource)).toStrictEqual(
      REGISTRY.map((route) => `${base}${route.path}`),
    );
    // The MCP tools in the bazaar extension's MCP form, validated by @x402/extensions.
    const tools = all.filter((item) => item.type === 'mcp');
    expect(tools).toHaveLength(REGISTRY.length);
    expect(all).toHaveLength(2 * REGISTRY.length);
    expect(discovery.pagination).toMatchObject({ total: 2 * REGISTRY.length });
    for (const [i, route] of REGISTRY.entries()) {
      const tool = tools[i] as Body;
      expect(tool.resource).toBe(`${base}/mcp`);
      const bazaar = (tool.extensions as { bazaar: Record<string, unknown> }).bazaar;
      expect(validateDiscoveryExtension(bazaar as never)).toMatchObject({ valid: true });
      expect(bazaar.info).toMatchObject({
        input: {
          type: 'mcp',
          // The official package names it `toolName` (the spec's prose says `tool`).
          toolName: route.name,
          transport: 'streamable-http',
          inputSchema: { type: 'object' },
        },
      });
      expect((tool.accepts as Body[]).map((a) => a.amount)).toStrictEqual(
        route.prices.map((price) => String(price.amount)),
      );
    }
    for (const route of REGISTRY) {
      const item = items.find((i) => i.resource === `${base}${route.path}`) as Body;
      const accepts = item.accepts as Body[];
      expect(accepts).toHaveLength(route.prices.length);
      route.prices.forEach((price, i) => {
        expect(accepts[i]).toMatchObject({
          scheme: 'exact',
          network: 'eip155:8453',
          amount: String(price.amount),
          maxAmountRequired: String(price.amount),
          price: dollarString(price.amount),
          resource: `${base}${route.path}`,
          maxTimeoutSeconds: 60,
          extra: { tier: price.tier, includes: price.includes },
        });
      });
    }
  });

  it('/openapi.json is OpenAPI 3.1.0 with a 402 and x402 payment info on every paid route', async () => {
    const openapi = await doc('/openapi.json');
    expect(openapi.openapi).toBe('3.1.0');
    const paths = openapi.paths as Record<string, Record<string, Body>>;
    const paid = Object.keys(paths).filter((path) => path.startsWith('/buy/'));
    expect(paid.sort()).toStrictEqual(REGISTRY.map((route) => route.path).sort());
    for (const route of REGISTRY) {
      const operation = paths[route.path]?.get as Body;
      expect(operation, route.path).toBeDefined();
      const responses = operation.responses as Body;
      expect(Object.keys(responses)).toContain('200');
      expect(Object.keys(responses)).toContain('402');
      // 503 on every paid route: the x402 door's facilitator_unavailable; and where a page
      // can pass a product thread's bounds, page_too_complex.
      const unavailable = responses['503'] as Body | undefined;
      const codes503 = JSON.stringify(unavailable?.content);
      expect([route.path, codes503]).toStrictEqual([
        route.path,
        expect.stringContaining('facilitator_unavailable'),
      ]);
      if (runsOnThread(route)) {
        expect(unavailable?.description).toContain('page_too_complex');
        expect(codes503).toContain('page_too_complex');
      }
      const cheapest = Math.min(...route.prices.map((price) => price.amount));
      const info = operation['x-payment-info'] as Body;
      expect(info).toMatchObject({
        protocols: ['x402'],
        pricingMode: 'fixed',
        price: dollarString(cheapest),
        amount: String(cheapest),
      });
      if (route.prices.length > 1) expect(info.tiers).toStrictEqual(expectedPrices(route));
      const parameters = operation.parameters as Body[];
      expect(parameters.map((p) => p.name).sort()).toStrictEqual(
        Object.keys(route.params.properties as object).sort(),
      );
      for (const parameter of parameters) {
        expect(parameter.in).toBe('query');
        expect(parameter.required).toBe(
          (route.params.required as string[]).includes(parameter.name as string),
        );
      }
    }
  });
});

describe('the 402 challenge', () => {
  it('GET /buy/markdown without a key answers the x402 v1 terms', async () => {
    const res = await request(t.app).get('/buy/markdown?url=https%3A%2F%2Fexample.com%2F');
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ ok: false, error: 'payment_required', x402Version: 1 });
    expect(res.body.message).toBeTypeOf('string');
    const accepts = res.body.accepts as Body[];
    expect(accepts).toHaveLength(1);
    const markdown = REGISTRY.find((route) => route.name === 'markdown') as AnyRoute;
    expect(accepts[0]).toMatchObject({
      scheme: 'exact',
      network: 'eip155:8453',
      amount: '5000',
      price: '$0.005',
      maxAmountRequired: '5000',
      resource: `${base}/buy/markdown`,
      maxTimeoutSeconds: 60,
      asset: t.deps.config.payment.asset,
      payTo: t.signer.address,
      extra: {
        tier: 'markdown',
        includes: markdown.prices[0]?.includes,
        name: 'USD Coin',
        version: '2',
      },
    });
    expect((accepts[0] as Body).extra).toStrictEqual({
      tier: 'markdown',
      includes: 'clean markdown plus signed receipt',
      name: 'USD Coin',
      version: '2',
    });
  });

  it('every paid route answers 402 with the price its example query selects', async () => {
    for (const route of REGISTRY) {
      const checked = route.check(route.example.query);
      expect(checked.ok, route.name).toBe(true);
      const price = route.priceFor((checked as { params: unknown }).params);
      const query = new URLSearchParams(route.example.query);
      const res = await request(t.app).get(`${route.path}?${query}`);
      expect(res.status, `${route.path}: ${JSON.stringify(res.body)}`).toBe(402);
      expect(res.body.accepts[0]).toMatchObject({
        amount: String(price.amount),
        price: dollarString(price.amount),
        resource: `${base}${route.path}`,
        extra: { tier: price.tier },
      });
    }
  });
});
