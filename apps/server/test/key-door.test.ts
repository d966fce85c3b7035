import { Writable } from 'node:stream';
import { pino } from 'pino';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerKey, hashKey, isKeyShaped, mintKey } from '../src/metering/keys.js';
import { clientBucket } from '../src/routes/dev-keys.js';
import { testApp } from './helpers.js';

const ADMIN = 'key-door-admin-token-0123';
let logged = '';
const logger = pino(
  { level: 'trace' },
  new Writable({
    write(chunk, _encoding, done) {
      logged += chunk.toString();
      done();
    },
  }),
);

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp({ logger }, { adminToken: ADMIN });
});
afterAll(() => t.dispose());

const NOTARIZE = '/buy/notarize?content=hello';

async function mint(live: boolean) {
  const res = await request(t.app).post(`/api/dev/keys?live=${live}&label=ci`).expect(201);
  return res.body as { key: string; keyId: string; tail: string; env: string; tier: string };
}

describe('POST /api/dev/keys', () => {
  it('mints a test key shown once: prefix, 256 random bits, only the hash and tail stored', async () => {
    const minted = await mint(false);
    expect(minted.key).toMatch(/^mk_test_[0-9A-Za-z]{43}$/);
    expect(minted).toMatchObject({ env: 'test', tier: 'sandbox', tail: minted.key.slice(-4) });
    const { rows } = await t.db.query<Record<string, unknown>>(
      'SELECT * FROM api_keys WHERE key_id = $1',
      [minted.keyId],
    );
    expect(rows[0]?.key_hash).toBe(hashKey(minted.key));
    expect(JSON.stringify(rows[0])).not.toContain(minted.key.slice(8, 30));
    expect(rows[0]?.label).toBe('ci');
  });

  it('mints a live key with no credits until funded', async () => {
    const minted = await mint(true);
    expect(minted.key).toMatch(/^mk_live_/);
    const balance = await request(t.app)
      .get('/api/dev/balance')
      .set('authorization', `Bearer ${minted.key}`)
      .expect(200);
    expect(balance.body).toMatchObject({
      env: 'live',
      tier: 'prepaid',
      credits: 0,
      calls: 0,
      included_remaining: 0,
    });
    const refused = await request(t.app)
      .get(NOTARIZE)
      .set('authorization', `Bearer ${minted.key}`)
      .expect(402);
    expect(refused.body).toMatchObject({
      ok: false,
      error: 'insufficient_credits',
      x402Version: 1,
    });
    expect(refused.body.accepts[0]).toMatchObject({ amount: '8000', price: '$0.008' });
  });

  it('refuses a bad `live` or `label` with 400 and mints nothing', async () => {
    const before = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM api_keys');
    const res = await request(t.app).post('/api/dev/keys?live=yes').expect(400);
    expect(res.body.details[0].param).toBe('live');
    await request(t.app)
      .post(`/api/dev/keys?label=${'x'.repeat(65)}`)
      .expect(400);
    const after = await t.db.query<{ n: string }>('SELECT count(*) AS n FROM api_keys');
    expect(after.rows[0]?.n).toBe(before.rows[0]?.n);
  });

  it('never logs a raw key, on issuance or on use', async () => {
    const minted = await mint(false);
    await request(t.app).get(NOTARIZE).set('authorization', `Bearer ${minted.key}`).expect(200);
    await request(t.app)
      .get('/api/dev/balance')
      .set('authorization', `Bearer ${minted.key}`)
      .expect(200);
    expect(logged).toContain('/api/dev/balance');
    expect(logged).not.toContain(minted.key);
    expect(logged).not.toContain(minted.key.slice(8));
  });
});

describe('bearer keys on /buy/*', () => {
  it('no key and no payment: 402 with the terms of the tier the params select', async () => {
    const res = await request(t.app).get('/buy/fetch?url=https://example.com/&links=1').expect(402);
    expect(res.body).toMatchObject({ ok: false, error: 'payment_required', x402Version: 1 });
    expect(res.body.accepts).toHaveLength(1);
    expect(res.body.accepts[0]).toMatchObject({ amount: '6000', extra: { tier: 'plus' } });
  });

  it('a malformed, unknown or revoked key: 401 invalid_key, and nothing charged', async () => {
    for (const header of ['Bearer nope', 'Basic abc', `Bearer mk_test_${'x'.repeat(10)}`]) {
      const res = await request(t.app).get(NOTARIZE).set('authorization', header).expect(401);
      expect(res.body.error).toBe('invalid_key');
    }
    const unknown = mintKey('live').key;
    expect(
      (await request(t.app).get(NOTARIZE).set('authorization', `Bearer ${unknown}`).expect(401))
        .body.message,
    ).toBe('Unknown API key');
    const minted = await mint(false);
    await request(t.app)
      .post(`/admin/keys/${minted.keyId}/revoke`)
      .set('authorization', `Bearer ${ADMIN}`)
      .expect(200);
    const revoked = await request(t.app)
      .get(NOTARIZE)
      .set('authorization', `Bearer ${minted.key}`)
      .expect(401);
    expect(revoked.body.message).toContain(minted.tail);
    await request(t.app)
      .get('/api/dev/balance')
      .set('authorization', `Bearer ${minted.key}`)
      .expect(401);
    const rows = await t.db.query('SELECT 1 FROM ledger WHERE key_id = $1', [minted.keyId]);
    expect(rows.rows).toHaveLength(0);
  });

  it('a used-up sandbox: 402 sandbox_exhausted with terms', async () => {
    const minted = await mint(false);
    await t.db.query('UPDATE api_keys SET sandbox_remaining = 1 WHERE key_id = $1', [minted.keyId]);
    await request(t.app).get(NOTARIZE).set('authorization', `Bearer ${minted.key}`).expect(200);
    const res = await request(t.app)
      .get(NOTARIZE)
      .set('authorization', `Bearer ${minted.key}`)
      .expect(402);
    expect(res.body).toMatchObject({ ok: false, error: 'sandbox_exhausted', x402Version: 1 });
    expect(res.body.accepts[0].amount).toBe('8000');
    const balance = await request(t.app)
      .get('/api/dev/balance')
      .set('authorization', `Bearer ${minted.key}`);
    expect(balance.body).toMatchObject({ sandbox_remaining: 0, sandbox_cap: 100, calls: 1 });
  });

  it('pro: included calls first (one unit whatever the route), then credits at the catalog price', async () => {
    const minted = await mint(true);
    const auth = { authorization: `Bearer ${ADMIN}` };
    await request(t.app)
      .post(`/admin/keys/${minted.keyId}/tier`)
      .set(auth)
      .send({ tier: 'pro' })
      .expect(200);
    await request(t.app)
      .post(`/admin/keys/${minted.keyId}/credits`)
      .set(auth)
      .send({ credits: 10 })
      .expect(200);
    await t.db.query('UPDATE api_keys SET included_remaining = 1 WHERE key_id = $1', [
      minted.keyId,
    ]);
    const key = { authorization: `Bearer ${minted.key}` };
    const first = await request(t.app).get(NOTARIZE).set(key).expect(200);
    expect(first.headers['storefront-charge']).toBe('included;credits=0');
    expect(first.headers['ratelimit-limit']).toBe('120');
    const second = await request(t.app).get(NOTARIZE).set(key).expect(200);
    expect(second.headers['storefront-charge']).toBe('credits;credits=8');
    const balance = await request(t.app).get('/api/dev/balance').set(key).expect(200);
    expect(balance.body).toMatchObject({
      tier: 'pro',
      credits: 2,
      included_remaining: 0,
      calls: 2,
    });
    const third = await request(t.app).get(NOTARIZE).set(key).expect(402);
    expect(third.body.error).toBe('insufficient_credits');
  });

  it('enterprise: unmetered, balance untouched, its own rate window', async () => {
    const minted = await mint(true);
    await request(t.app)
      .post(`/admin/keys/${minted.keyId}/tier`)
      .set('authorization', `Bearer ${ADMIN}`)
      .send({ tier: 'enterprise' })
      .expect(200);
    const res = await request(t.app)
      .get(NOTARIZE)
      .set('authorization', `Bearer ${minted.key}`)
      .expect(200);
    expect(res.headers['storefront-charge']).toBe('unmetered;credits=0');
    expect(res.headers['ratelimit-limit']).toBe('3000');
    const balance = await request(t.app)
      .get('/api/dev/balance')
      .set('authorization', `Bearer ${minted.key}`);
    expect(balance.body).toMatchObject({
      tier: 'enterprise',
      credits: 0,
      included_remaining: null,
      calls: 1,
    });
  });
});

describe('GET /api/dev/balance', () => {
  it('answers 401 without a key, with a malformed one, and with an unknown one', async () => {
    expect((await request(t.app).get('/api/dev/balance').expect(401)).body.error).toBe(
      'invalid_key',
    );
    await request(t.app).get('/api/dev/balance').set('authorization', 'Bearer x').expect(401);
    await request(t.app)
      .get('/api/dev/balance')
      .set('authorization', `Bearer ${mintKey('test').key}`)
      .expect(401);
  });
});

describe('keys', () => {
  it('bearerKey reads only `Bearer <key of our shape>`', () => {
    const { key } = mintKey('test');
    expect(bearerKey(undefined)).toEqual({ kind: 'missing' });
    expect(bearerKey(`bearer ${key}`)).toEqual({ kind: 'key', key });
    expect(bearerKey(`Bearer ${key} extra`)).toEqual({ kind: 'malformed' });
    expect(bearerKey(`Token ${key}`)).toEqual({ kind: 'malformed' });
    expect(isKeyShaped(`${key}x`)).toBe(false);
  });

  it('minted keys do not repeat and carry at least 192 bits', () => {
    const seen = new Set(Array.from({ length: 2000 }, () => mintKey('live').key));
    expect(seen.size).toBe(2000);
    // 43 base62 characters hold log2(62^43) ≈ 256 bits; leading characters vary too.
    const firsts = new Set([...seen].map((k) => k[8]));
    expect(firsts.size).toBeGreaterThan(5);
  });

  it('buckets IPv6 clients by /56 and unwraps IPv4-mapped addresses', () => {
    expect(clientBucket('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(clientBucket('203.0.113.5')).toBe('203.0.113.5');
    expect(clientBucket('2001:db8:1234:56ab:1::1')).toBe(clientBucket('2001:db8:1234:5600::9'));
    expect(clientBucket('2001:db8:1234:56ab::1')).not.toBe(clientBucket('2001:db8:1234:57ab::1'));
  });
});
