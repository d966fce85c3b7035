import { ENVELOPE_FIELDS, RECEIPT_RULES, type ReceiptRoute } from '@storefront/attest';
import { edited } from '@storefront/test-utils';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY } from '../src/registry/index.js';
import { type AuditNet, startAuditNet } from './hosts.js';
import { buy, enterpriseKey, type RouteApp, routeApp, type TestKey } from './keys.js';
import { type Site, startSite } from './site.js';

type Body = Record<string, unknown>;
type Query = Record<string, string>;

/**
 * `POST /x402/verify` re-derives each route's `text` from the result's own fields:
 * real answers of every route verify, and an edit to any field the answer says it
 * covers is refused although `text`, its hash and the signature are untouched.
 */

let site: Site;
let net: AuditNet;
let t: RouteApp;
let key: TestKey;

beforeAll(async () => {
  site = await startSite();
  net = await startAuditNet();
  t = await routeApp(site, [], { probes: net.probes });
  key = await enterpriseKey(t.app);
}, 60_000);
afterAll(async () => {
  await t?.dispose();
  await site?.close();
  await net?.close();
});

/**
 * A successful call per route (each route's own example call, from its registry folder)
 * and per variant of a route's answer, and whether its fields restate `text`: they do
 * wherever the route's rule restates it, except `/buy/fetch` without a field list.
 */
function calls(): Record<
  string,
  { path: string; query: Query; route: string; fields: boolean | null }
> {
  const url = (path: string) => site.url(path);
  const byRoute = Object.fromEntries(
    REGISTRY.map((route) => [
      route.name,
      {
        path: route.path,
        query: { ...route.example.call(site) },
        route: route.name,
        fields: route.receiptRule.kind === 'none' ? null : true,
      },
    ]),
  );
  return {
    ...byRoute,
    fetch: { path: '/buy/fetch', query: { url: url('/product') }, route: 'fetch', fields: null },
    'fetch extract=1': {
      path: '/buy/fetch',
      query: { url: url('/product'), extract: '1', links: '1' },
      route: 'fetch',
      fields: null,
    },
    'fetch extract=<fields>': {
      path: '/buy/fetch',
      query: { url: url('/product'), extract: 'title,price,sku' },
      route: 'fetch',
      fields: true,
    },
    notarize: {
      path: '/buy/notarize',
      query: { url: url('/product') },
      route: 'notarize',
      fields: true,
    },
    'notarize inline': {
      path: '/buy/notarize',
      query: { content: 'Hello, notary.' },
      route: 'notarize',
      fields: true,
    },
    signal: { path: '/buy/signal', query: {}, route: 'signal', fields: true },
  };
}

/** The covered fields beyond `text` and the envelope, with a wholly covered `data` spelt out. */
function restated(result: Body, covered: readonly string[]): string[] {
  return (
    covered
      // The envelope and the page verdict are compared with the signed message, not re-derived.
      .filter(
        (path) =>
          path !== 'text' &&
          path !== 'page' &&
          !(ENVELOPE_FIELDS as readonly string[]).includes(path),
      )
      .flatMap((path) =>
        path === 'data' ? Object.keys(result.data as Body).map((inner) => `data.${inner}`) : [path],
      )
  );
}

async function verify(body: unknown, query = ''): Promise<Body> {
  const res = await request(t.app)
    .post(`/x402/verify${query}`)
    .send(body as object);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Body;
}

describe('POST /x402/verify re-derives text from the fields', () => {
  it("applies each route's rule from its registry folder, the rule the offline verifier has built in", async () => {
    const res = await request(t.app).get('/.well-known/service-attestation');
    const published = res.body.receiptRules as Record<string, unknown>;
    for (const route of REGISTRY) {
      expect([route.name, published[route.name]]).toStrictEqual([route.name, route.receiptRule]);
      // The verifier's own table covers the routes it was built with; a later route's
      // rule reaches verifiers through the document above.
      if (!Object.hasOwn(RECEIPT_RULES, route.name)) continue;
      expect([route.name, RECEIPT_RULES[route.name as ReceiptRoute]]).toStrictEqual([
        route.name,
        route.receiptRule,
      ]);
    }
  });

  it('has a call for every paid route', () => {
    const routes = new Set(Object.values(calls()).map((call) => call.path));
    for (const route of REGISTRY) expect(routes).toContain(route.path);
  });

  const variants = ['fetch extract=1', 'fetch extract=<fields>', 'notarize inline', 'signal'];
  for (const name of [...REGISTRY.map((route) => route.name), ...variants]) {
    it(`${name}: the real answer verifies; an edit to any covered field is refused`, async () => {
      const call = calls()[name];
      if (call === undefined) throw new Error(`no call for ${name}`);
      const res = await buy(t.app, call.path, call.query, key.key);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const result = res.body as Body;

      const verdict = await verify(result);
      expect(verdict.problems).toStrictEqual([]);
      expect(verdict).toMatchObject({ ok: true, valid: true, route: call.route });
      expect((verdict.checks as Body).fields).toBe(call.fields);
      expect(await verify(result, `?route=${call.route}`)).toMatchObject({ valid: true });

      const paths = restated(result, verdict.covered as string[]);
      if (call.fields === null) expect(paths).toStrictEqual([]);
      else expect(paths.length).toBeGreaterThan(0);
      for (const path of paths) {
        const tampered = await verify(edited(result, path));
        expect([path, tampered.valid, (tampered.checks as Body).fields]).toStrictEqual([
          path,
          false,
          false,
        ]);
        expect(tampered.checks).toMatchObject({
          contentHash: true,
          signature: true,
          pinnedKey: true,
        });
      }
      // An answer made from a page carries the verdict, signed: an edit to it is refused.
      if (result.page !== undefined) {
        expect(verdict.covered).toContain('page');
        const page = result.page as Body;
        const tampered = await verify({
          ...result,
          page: { ...page, words: Number(page.words) + 1 },
        });
        expect([tampered.valid, (tampered.checks as Body).envelope]).toStrictEqual([false, false]);
        expect(tampered.problems).toContain(
          'The result’s page verdict differs from the signed one.',
        );
      }
    });
  }

  it('refuses `.extract.price = 999` in a /buy/extract answer', async () => {
    const res = await buy(
      t.app,
      '/buy/extract',
      { url: site.url('/product'), schema: 'name,price:number' },
      key.key,
    );
    const result = res.body as Body;
    expect(await verify(result)).toMatchObject({ valid: true });
    const verdict = await verify({
      ...result,
      extract: { ...(result.extract as Body), price: 999 },
    });
    expect(verdict).toMatchObject({ ok: true, valid: false, checks: { fields: false } });
    expect(verdict.problems).toContain('`extract` differs from the record in the signed text.');
  });

  it('says a /buy/fetch answer has no fetchedAt to compare', async () => {
    const res = await buy(t.app, '/buy/fetch', { url: site.url('/product') }, key.key);
    const verdict = await verify(res.body);
    expect(verdict.covered).toStrictEqual(['text', 'url', 'status', 'page']);
    expect((verdict.signed as Body).fetchedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('refuses an answer checked as another route, and answers 400 for an unknown route', async () => {
    const res = await buy(t.app, '/buy/metadata', { url: site.url('/product') }, key.key);
    const named = await verify(res.body, '?route=/buy/markdown');
    // The receipt names its route (storefront-attest/2 and later): the signed one is reported.
    expect(named).toMatchObject({ valid: false, route: 'metadata', checks: { fields: false } });
    expect(named.problems).toStrictEqual([
      'The receipt was signed for a /buy/metadata result, not /buy/markdown.',
    ]);
    const bad = await request(t.app).post('/x402/verify?route=nope').send(res.body).expect(400);
    expect(bad.body).toMatchObject({ ok: false, error: 'invalid_params' });
    expect(bad.body.details).toStrictEqual([
      {
        path: '?route',
        message: expect.stringMatching(/^Expected `route` to be one of signal, fetch/),
      },
    ]);
  });
});
