import { verifyReceipt } from '@storefront/attest';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REGISTRY } from '../src/registry/index.js';
import {
  buy,
  creditsOf,
  enterpriseKey,
  prepaidKey,
  type RouteApp,
  routeApp,
  type TestKey,
} from './keys.js';
import { type Site, startSite } from './site.js';

type Body = Record<string, unknown>;

/**
 * Page verdicts through the service: a page served in the content's place (a bot
 * challenge, a soft 404, a sign-in wall) is answered `not_content` with the verdict, by
 * the route's rule for an ok:false result, never delivered as content; a real page's
 * answer carries the verdict, and its receipt signs it.
 */

let site: Site;
let t: RouteApp;
let key: TestKey;

beforeAll(async () => {
  site = await startSite();
  t = await routeApp(site);
  key = await enterpriseKey(t.app);
}, 60_000);
afterAll(async () => {
  await t?.dispose();
  await site?.close();
});

const JUDGED = [
  'fetch',
  'extract',
  'markdown',
  'metadata',
  'links',
  'diff',
  'notarize',
  'table',
  'seo',
];

describe('page verdicts', () => {
  it('judges exactly the routes whose value is the page content, and publishes the field', async () => {
    const judged = REGISTRY.filter((route) => route.pageVerdict === 'gate');
    expect(judged.map((route) => route.name)).toEqual(JUDGED);
    const reporting = REGISTRY.filter((route) => route.pageVerdict === 'report');
    expect(reporting.map((route) => route.name)).toEqual(['headers', 'availability']);
    const openapi = await request(t.app).get('/openapi.json').expect(200);
    expect(JSON.stringify(openapi.body)).toContain('"not_content"');
  });

  it('answers a bot challenge served with 200 as not_content, before charging, on markdown', async () => {
    const payer = await prepaidKey(t.app, 1_000);
    const res = await buy(t.app, '/buy/markdown', { url: site.url('/challenge') }, payer.key);
    expect(res.status).toBe(503);
    const body = res.body as Body;
    expect(body).toMatchObject({ ok: false, error: 'not_content', status: 200 });
    expect(body.page).toMatchObject({ verdict: 'challenge', rubric: 'page-verdict/1' });
    expect((body.page as { signals: string[] }).signals).toContain('challenge:header-cf-mitigated');
    expect(body.message).toMatch(/^The page is a challenge page, not the content \(/);
    expect(body.attestation).toBeUndefined();
    expect(await creditsOf(t.app, payer.keyId)).toBe(1_000);
  });

  it("applies each route's rule for ok:false: metadata delivers it free, fetch charges the attempt", async () => {
    const payer = await prepaidKey(t.app, 1_000);
    const metadata = await buy(t.app, '/buy/metadata', { url: site.url('/gone') }, payer.key);
    expect(metadata.status).toBe(200);
    expect(metadata.body).toMatchObject({
      ok: false,
      error: 'not_content',
      page: { verdict: 'error' },
    });
    expect(await creditsOf(t.app, payer.keyId)).toBe(1_000);

    const fetched = await buy(t.app, '/buy/fetch', { url: site.url('/members/story') }, payer.key);
    expect(fetched.status).toBe(200);
    expect(fetched.body).toMatchObject({
      ok: false,
      error: 'not_content',
      url: site.url('/login?next=%2Fmembers%2Fstory'),
      page: { verdict: 'login' },
    });
    expect((fetched.body.page as { signals: string[] }).signals).toEqual([
      'login:heading',
      'login:path',
      'login:redirected',
    ]);
    expect(await creditsOf(t.app, payer.keyId)).toBeLessThan(1_000);
  });

  it('signs the verdict of a real page with its result; an edited verdict is refused', async () => {
    const res = await buy(t.app, '/buy/markdown', { url: site.url('/wiki') }, key.key);
    expect(res.status).toBe(200);
    const body = res.body as Body & {
      attestation: { verify: { message: string }; address: string };
    };
    const page = body.page as { verdict: string; rubric: string; words: number; signals: string[] };
    expect(page).toMatchObject({ verdict: 'content', rubric: 'page-verdict/1' });
    expect(page.words).toBeGreaterThan(150);
    const lines = body.attestation.verify.message.split('\n');
    expect(lines[0]).toBe('storefront-attest/3');
    expect(lines).toContain(`page:content;page-verdict/1;${page.words};${page.signals.join(',')}`);
    const address = body.attestation.address;
    expect(verifyReceipt(body, address)).toMatchObject({ valid: true });
    const edited = verifyReceipt({ ...body, page: { ...page, verdict: 'challenge' } }, address);
    expect(edited.valid).toBe(false);
    expect(edited.problems).toContain('The result’s page verdict differs from the signed one.');
  });

  it('reports the verdict beside the answers of availability and headers, which stand whatever the page is', async () => {
    const probe = await buy(t.app, '/buy/availability', { url: site.url('/challenge') }, key.key);
    expect(probe.status).toBe(200);
    expect(probe.body).toMatchObject({ ok: true, status: 200, data: { up: true } });
    expect(probe.body.page).toMatchObject({ verdict: 'challenge', rubric: 'page-verdict/1' });
    expect(probe.body.attestation.verify.message).toContain('\npage:challenge;page-verdict/1;');
    expect(verifyReceipt(probe.body, probe.body.attestation.address)).toMatchObject({
      valid: true,
    });

    const real = await buy(t.app, '/buy/availability', { url: site.url('/wiki') }, key.key);
    expect(real.body.page).toMatchObject({ verdict: 'content' });

    // The headers audit reads no body: the response alone decides, or nothing is said.
    const audit = await buy(t.app, '/buy/headers', { url: site.url('/challenge') }, key.key);
    expect(audit.status).toBe(200);
    expect(audit.body.ok).toBe(true);
    expect(audit.body.page).toStrictEqual({
      verdict: 'challenge',
      signals: ['challenge:header-cf-mitigated'],
      words: 0,
      rubric: 'page-verdict/1',
    });
    expect(verifyReceipt(audit.body, audit.body.attestation.address)).toMatchObject({
      valid: true,
    });
    const plain = await buy(t.app, '/buy/headers', { url: site.url('/news') }, key.key);
    expect(plain.body.ok).toBe(true);
    expect(plain.body.page).toBeUndefined();
    expect(plain.body.attestation.verify.message).not.toContain('\npage:');
  });

  it('gives no verdict where no page was read: notarize of inline content', async () => {
    const res = await buy(t.app, '/buy/notarize', { content: 'a statement' }, key.key);
    expect(res.status).toBe(200);
    expect(res.body.page).toBeUndefined();
    expect(res.body.attestation.verify.message).not.toContain('\npage:');
  });
});
