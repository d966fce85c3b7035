import { ATTEST_SCHEME } from '@storefront/attest';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { testApp } from './helpers.js';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.dispose());

describe('GET /healthz', () => {
  it('answers ok with the database kind and signer', async () => {
    const res = await request(t.app).get('/healthz').expect(200);
    expect(res.body).toStrictEqual({
      ok: true,
      service: 'storefront',
      version: '0.0.0-test',
      database: t.db.kind,
      signer: t.signer.address,
    });
  });
});

describe('GET /.well-known/service-attestation', () => {
  it('publishes the current key, the message format and no retired keys yet', async () => {
    const res = await request(t.app).get('/.well-known/service-attestation').expect(200);
    expect(res.headers['content-type']).toMatch(/application\/json/);
    expect(res.body).toMatchObject({
      scheme: ATTEST_SCHEME,
      alg: 'EIP-191-personal_sign',
      keyId: `${ATTEST_SCHEME}:${t.signer.address}`,
      address: t.signer.address,
      retired: [],
      verifyEndpoint: 'http://storefront.test/x402/verify',
    });
    expect(res.body.message.lines[0]).toBe(ATTEST_SCHEME);
  });
});

describe('errors', () => {
  it('answers JSON 404 for unknown paths', async () => {
    const res = await request(t.app).get('/nope?x=1').expect(404);
    expect(res.body).toMatchObject({
      ok: false,
      error: 'not_found',
      message: 'No route for `GET /nope`',
    });
  });

  it('answers 404 for a known path with the wrong method', async () => {
    const res = await request(t.app).delete('/healthz').expect(404);
    expect(res.body.error).toBe('not_found');
  });

  it('answers 400 invalid_params for a malformed JSON body, with no stack trace', async () => {
    const res = await request(t.app)
      .post('/x402/verify')
      .set('content-type', 'application/json')
      .send('{"text": ')
      .expect(400);
    expect(res.body).toMatchObject({
      ok: false,
      error: 'invalid_params',
      message: 'The request body is not valid JSON',
    });
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('answers 413 request_too_large (its one status) for a body over 1 MB', async () => {
    const res = await request(t.app)
      .post('/x402/verify')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ text: 'x'.repeat(1_100_000) }))
      .expect(413);
    expect(res.body.error).toBe('request_too_large');
  });

  it('answers 500 internal_error with the request id, never the error itself, when something breaks', async () => {
    const broken: Database = {
      ...t.db,
      query: async () => {
        throw new Error('password authentication failed for user "secret"');
      },
    };
    const b = await testApp({ db: broken });
    try {
      const res = await request(b.app)
        .get('/.well-known/service-attestation')
        .set('X-Request-Id', 'req-42')
        .expect(500);
      expect(res.body).toStrictEqual({
        ok: false,
        error: 'internal_error',
        message: 'Internal error; nothing was charged. Quote request id req-42 to support.',
        requestId: 'req-42',
      });
      expect(res.text).not.toMatch(/secret|stack|\.ts:/);
      const health = await request(b.app).get('/healthz').expect(503);
      expect(health.body).toMatchObject({ ok: false, error: 'internal_error' });
      // A paid call, on the paid calls' own adapter, is answered the same way.
      const paid = await request(b.app)
        .get('/buy/notarize?content=x')
        .set('Authorization', `Bearer mk_live_${'a'.repeat(43)}`)
        .set('X-Request-Id', 'req-43')
        .expect(500);
      expect(paid.body).toStrictEqual({
        ok: false,
        error: 'internal_error',
        message: 'Internal error; nothing was charged. Quote request id req-43 to support.',
        requestId: 'req-43',
      });
      expect(paid.text).not.toMatch(/secret|stack|\.ts:/);
    } finally {
      await b.dispose();
    }
  });
});

describe('request ids', () => {
  it('echoes a plain incoming X-Request-Id', async () => {
    const res = await request(t.app).get('/healthz').set('X-Request-Id', 'abc-123').expect(200);
    expect(res.headers['x-request-id']).toBe('abc-123');
  });

  it('replaces an unsafe or missing one with a UUID', async () => {
    const bad = await request(t.app).get('/healthz').set('X-Request-Id', 'a b\tc').expect(200);
    expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const none = await request(t.app).get('/healthz').expect(200);
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(none.headers['x-request-id']).not.toBe(bad.headers['x-request-id']);
  });

  it('sets baseline headers and hides the framework', async () => {
    const res = await request(t.app).get('/healthz');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });
});
