import { ENVELOPE_FIELDS } from '@storefront/attest';
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

/** A successful call per route shape, and whether its fields restate `text`. */
function calls(): Record<
  string,
  { path: string; query: Query; route: string; fields: boolean | null }
> {
  const url = (path: string) => site.url(path);
  return {
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
    extract: {
      path: '/buy/extract',
      query: { url: url('/product'), schema: 'name,price:number,sku' },
      route: 'extract',
      fields: true,
    },
    markdown: {
      path: '/buy/markdown',
      query: { url: url('/wiki') },
      route: 'markdown',
      fields: true,
    },
    metadata: {
      path: '/buy/metadata',
      query: { url: url('/product') },
      route: 'metadata',
      fields: true,
    },
    links: { path: '/buy/links', query: { url: url('/product') }, route: 'links', fields: true },
    robots: {
      path: '/buy/robots',
      query: { domain: url('/product') },
      route: 'robots',
      fields: true,
    },
    diff: {
      path: '/buy/diff',
      query: { url: url('/changing'), prevText: 'Version zero.' },
      route: 'diff',
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
    headers: { path: '/buy/headers', query: { url: url('/news') }, route: 'headers', fields: true },
    table: { path: '/buy/table', query: { url: url('/wiki') }, route: 'table', fields: true },
    feed: { path: '/buy/feed', query: { url: url('/feed.xml') }, route: 'feed', fields: true },
    availability: {
      path: '/buy/availability',
      query: { url: url('/product') },
      route: 'availability',
      fields: true,
    },
    validate: {
      path: '/buy/validate',
      query: { url: url('/data.json'), schema: 'id:integer,name,price:number' },
      route: 'validate',
      fields: true,
    },
    dns: { path: '/buy/dns', query: { domain: 'good.example.com' }, route: 'dns', fields: true },
    tls: {
      path: '/buy/tls',
      query: { domain: 'good.tls.example.com' },
      route: 'tls',
      fields: true,
    },
    signal: { path: '/buy/signal', query: {}, route: 'signal', fields: true },
    map: { path: '/buy/map', query: { url: site.shop.url('/') }, route: 'map', fields: true },
    crawl: {
      path: '/buy/crawl',
      query: { url: site.shop.url('/'), limit: '3' },
      route: 'crawl',
      fields: true,
    },
    seo: { path: '/buy/seo', query: { url: url('/seo') }, route: 'seo', fields: true },
    pdf: { path: '/buy/pdf', query: { url: url('/report.pdf') }, route: 'pdf', fields: true },
  };
}

/** The covered fields beyond `text` and the envelope, with a wholly covered `data` spelt out. */
function restated(result: Body, covered: readonly string[]): string[] {
  return covered
    .filter((path) => path !== 'text' && !(ENVELOPE_FIELDS as readonly string[]).includes(path))
    .flatMap((path) =>
      path === 'data' ? Object.keys(result.data as Body).map((inner) => `data.${inner}`) : [path],
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
  it('has a call for every paid route', () => {
    const routes = new Set(Object.values(calls()).map((call) => call.path));
    for (const route of REGISTRY) expect(routes).toContain(route.path);
  });

  for (const name of [
    'fetch',
    'fetch extract=1',
    'fetch extract=<fields>',
    'extract',
    'markdown',
    'metadata',
    'links',
    'robots',
    'diff',
    'notarize',
    'notarize inline',
    'headers',
    'table',
    'feed',
    'availability',
    'validate',
    'dns',
    'tls',
    'signal',
    'map',
    'crawl',
    'seo',
    'pdf',
  ]) {
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
    expect(verdict.covered).toStrictEqual(['text', 'url', 'status']);
    expect((verdict.signed as Body).fetchedAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('refuses an answer checked as another route, and answers 400 for an unknown route', async () => {
    const res = await buy(t.app, '/buy/metadata', { url: site.url('/product') }, key.key);
    const named = await verify(res.body, '?route=/buy/markdown');
    // The receipt names its route (storefront-attest/2): the signed one is reported.
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
