import { verifyReceipt } from '@storefront/attest';
import { sha256Hex } from '@storefront/core';
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
interface Slice {
  offset: number;
  length: number;
  total: number;
  wholeHash: string;
  next: number | null;
}

/**
 * Answers in parts (`maxChars`, `offset`) through the key door: every part carries its
 * place in the whole, its receipt verifies offline and signs that place, and the parts
 * put back together are the whole answer, byte for byte.
 */

let site: Site;
let t: RouteApp;
let key: TestKey;
let pinned: string;

beforeAll(async () => {
  site = await startSite();
  t = await routeApp(site);
  key = await enterpriseKey(t.app);
  pinned = (await request(t.app).get('/.well-known/service-attestation').expect(200)).body
    .address as string;
}, 60_000);
afterAll(async () => {
  await t?.dispose();
  await site?.close();
});

/** Every part of a route's answer, `maxChars` at a time, following `slice.next`. */
async function readInParts(
  path: string,
  query: Record<string, string>,
  maxChars: number,
): Promise<Body[]> {
  const parts: Body[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const res = await buy(
      t.app,
      path,
      { ...query, maxChars: String(maxChars), offset: String(offset) },
      key.key,
    );
    expect(res.status).toBe(200);
    parts.push(res.body as Body);
    offset = (res.body.slice as Slice).next;
  }
  return parts;
}

describe('answers in parts', () => {
  it('cuts exactly the text and markdown routes, and publishes the parameters and the field', () => {
    const sliced = REGISTRY.filter((route) => route.slices !== undefined).map((r) => r.name);
    expect(sliced).toStrictEqual(['fetch', 'markdown']);
    for (const name of sliced) {
      const route = REGISTRY.find((r) => r.name === name);
      expect(Object.keys(route?.params.properties as object)).toEqual(
        expect.arrayContaining(['maxChars', 'offset']),
      );
      expect(Object.keys(route?.response.properties as object)).toContain('slice');
    }
  });

  it('gives markdown in parts that verify, share the whole hash and put back together give the whole', async () => {
    const url = site.url('/long');
    const whole = (await buy(t.app, '/buy/markdown', { url }, key.key).expect(200)).body as Body;
    const text = whole.text as string;
    expect(Array.from(text).length).toBeGreaterThan(25_000);
    expect(whole.slice).toBeUndefined();

    const parts = await readInParts('/buy/markdown', { url }, 9_000);
    expect(parts.length).toBe(Math.ceil(Array.from(text).length / 9_000));
    const total = Array.from(text).length;
    let offset = 0;
    for (const part of parts) {
      const slice = part.slice as Slice;
      expect(slice).toStrictEqual({
        offset,
        length: Math.min(9_000, total - offset),
        total,
        wholeHash: sha256Hex(text),
        next: offset + 9_000 < total ? offset + 9_000 : null,
      });
      expect((part.data as Body).markdown).toBe(part.text);
      const verification = verifyReceipt(part, pinned);
      expect(verification.problems).toStrictEqual([]);
      expect(verification.covered).toEqual(expect.arrayContaining(['slice', 'data.markdown']));
      expect(verification.signed?.slice).toMatchObject({ offset, wholeHash: sha256Hex(text) });
      offset += slice.length;
    }
    expect(parts.map((p) => p.text).join('')).toBe(text);
  });

  it('cuts page text on code points: a character outside the BMP is never split', async () => {
    const url = site.url('/long');
    const whole = (await buy(t.app, '/buy/fetch', { url }, key.key).expect(200)).body as Body;
    const points = Array.from(whole.text as string);
    const emoji = points.indexOf('📜');
    expect(emoji).toBeGreaterThan(0);
    const res = await buy(
      t.app,
      '/buy/fetch',
      { url, offset: String(emoji), maxChars: '1' },
      key.key,
    ).expect(200);
    expect(res.body.text).toBe('📜');
    expect(res.body.slice).toMatchObject({ offset: emoji, length: 1, total: points.length });
    expect(verifyReceipt(res.body, pinned).valid).toBe(true);
  });

  it('refuses a part whose place was edited after signing', async () => {
    const url = site.url('/long');
    const part = (
      await buy(t.app, '/buy/markdown', { url, maxChars: '500', offset: '1000' }, key.key).expect(
        200,
      )
    ).body as Body;
    const slice = part.slice as Slice;
    for (const edited of [
      { ...slice, offset: 0, next: 500 },
      { ...slice, total: slice.total - 1 },
      { ...slice, wholeHash: sha256Hex('another page') },
    ]) {
      const verification = verifyReceipt({ ...part, slice: edited }, pinned);
      expect(verification.valid).toBe(false);
      expect(verification.problems).toContain('The result’s slice differs from the signed one.');
    }
    // Dropping the field hides nothing: the signed message still says it is a part.
    const { slice: _dropped, ...bare } = part;
    expect(verifyReceipt(bare, pinned).signed?.slice).toMatchObject({ offset: 1000 });
    // The service's own verify endpoint runs the same checks.
    const served = await request(t.app).post('/x402/verify?route=markdown').send(part).expect(200);
    expect(served.body).toMatchObject({ valid: true, covered: expect.arrayContaining(['slice']) });
    const tampered = await request(t.app)
      .post('/x402/verify')
      .send({ ...part, slice: { ...slice, offset: 0, next: 500 } })
      .expect(200);
    expect(tampered.body).toMatchObject({ valid: false });
    expect(tampered.body.problems).toContain('The result’s slice differs from the signed one.');
  });

  it('answers an offset at or past the end with an empty last part', async () => {
    const url = site.url('/wiki');
    const res = await buy(
      t.app,
      '/buy/fetch',
      { url, offset: '9000000', maxChars: '10' },
      key.key,
    ).expect(200);
    const slice = res.body.slice as Slice;
    expect(res.body.text).toBe('');
    expect(slice).toMatchObject({ length: 0, next: null });
    expect(slice.offset).toBe(slice.total);
    expect(verifyReceipt(res.body, pinned).valid).toBe(true);
  });

  it.each([
    [{ maxChars: '0' }, 'maxChars'],
    [{ maxChars: 'ten' }, 'maxChars'],
    [{ maxChars: '99999999' }, 'maxChars'],
    [{ offset: '-1' }, 'offset'],
    [{ offset: '1.5' }, 'offset'],
    [{ maxChars: '10', extract: 'title,author' }, 'maxChars'],
  ])('refuses %o before charging', async (query, param) => {
    const payer = await prepaidKey(t.app, 100);
    const res = await buy(t.app, '/buy/fetch', { url: site.url('/wiki'), ...query }, payer.key);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_params');
    expect(JSON.stringify(res.body.details)).toContain(param);
    expect(await creditsOf(t.app, payer.keyId)).toBe(100);
  });

  it('prices a part as the whole: the route and tier decide, not the size', async () => {
    const payer = await prepaidKey(t.app, 100);
    await buy(t.app, '/buy/markdown', { url: site.url('/wiki'), maxChars: '50' }, payer.key).expect(
      200,
    );
    const afterPart = await creditsOf(t.app, payer.keyId);
    await buy(t.app, '/buy/markdown', { url: site.url('/wiki') }, payer.key).expect(200);
    expect(100 - afterPart).toBe(afterPart - (await creditsOf(t.app, payer.keyId)));
  });
});
