import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPRESS_FROM_BYTES } from '../src/app.js';
import { contentDigest } from '../src/http/message-signature.js';
import { readParams } from '../src/pipeline/params.js';
import { REGISTRY } from '../src/registry/index.js';
import type { AnyRoute } from '../src/registry/types.js';
import {
  ADMIN_TOKEN,
  buy,
  creditsOf,
  prepaidKey,
  type RouteApp,
  routeApp,
  stateOf,
  type TestKey,
} from './keys.js';
import { type Site, startSite } from './site.js';

type Query = Readonly<Record<string, string>>;

let site: Site;
let t: RouteApp;
let key: TestKey;
let server: http.Server;
let base = '';

beforeAll(async () => {
  site = await startSite();
  t = await routeApp(site);
  key = await prepaidKey(t.app, 100_000);
  server = http.createServer(t.app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  server?.closeAllConnections();
  server?.close();
  await t?.dispose();
  await site?.close();
});

/** Valid parameters for every paid route: a GET with them is admitted and charged. */
function queryFor(route: AnyRoute): Query {
  return route.example.call(site);
}

function pathOf(route: AnyRoute): string {
  return `${route.path}?${new URLSearchParams(queryFor(route)).toString()}`;
}

/** A raw request on the listening app: the bytes as sent, nothing decoded. */
function raw(
  path: string,
  method: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

describe('request bodies', () => {
  /** A JSON body of `size` bytes. */
  function jsonOf(size: number): string {
    const head = '{"pad":"';
    return `${head}${'a'.repeat(size - head.length - 2)}"}`;
  }

  it.each([
    ['/mcp', 4 * 1024 * 1024, {}],
    ['/x402/verify', 1024 * 1024, {}],
    ['/api/webhooks/payments', 1024 * 1024, { 'stripe-signature': 't=1,v1=00' }],
    ['/admin/keys/k_none/credits', 4 * 1024, { authorization: `Bearer ${ADMIN_TOKEN}` }],
  ] as const)(
    'POST %s over its %i-byte limit is 413 request_too_large; at the limit it is read',
    async (path, limit, headers) => {
      const post = (body: string) =>
        fetch(`${base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body,
        });
      const over = await post(jsonOf(limit + 1));
      expect(over.status).toBe(413);
      expect(await over.json()).toMatchObject({
        ok: false,
        error: 'request_too_large',
        message: `The request body is larger than ${limit} bytes`,
      });
      // At the limit the body is read, and the route answers it on its own terms.
      const at = await post(jsonOf(limit));
      expect(at.status).not.toBe(413);
      await at.arrayBuffer();
    },
  );

  it('still answers a body that is not JSON with 400 invalid_params', async () => {
    const res = await fetch(`${base}/x402/verify`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"not json',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: 'invalid_params' });
  });
});

describe('parameter names', () => {
  it.each(['__proto__', 'constructor', 'hasOwnProperty'])(
    'refuses a parameter named %s like any unknown name, on every paid route, with a key and without',
    async (name) => {
      const before = await stateOf(t.app, key.keyId);
      for (const route of REGISTRY) {
        const path = `${pathOf(route)}&${name}=1`;
        for (const headers of [{ authorization: `Bearer ${key.key}` }, {}]) {
          const res = await raw(path, 'GET', headers);
          const body = JSON.parse(res.body.toString('utf8')) as {
            error?: string;
            details?: { param: string; message: string }[];
          };
          expect(res.status, `${path} ${JSON.stringify(body).slice(0, 300)}`).toBe(400);
          expect(body.error).toBe('invalid_params');
          expect(body.details).toContainEqual({
            param: name,
            message: expect.stringMatching(new RegExp(`^Unknown parameter \`${name}\`; `)),
          });
        }
      }
      expect(await stateOf(t.app, key.keyId)).toStrictEqual(before);
    },
    60_000,
  );
});

describe('methods on /buy/*', () => {
  const METHODS = ['HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

  it('the parameters used below are valid: a GET with them would be admitted', () => {
    for (const route of REGISTRY)
      expect(readParams(route, queryFor(route)).ok, route.name).toBe(true);
  });

  it.each(METHODS)(
    '%s on every paid route with a funded key: 405 with Allow: GET; balance and ledger unchanged',
    async (method) => {
      const before = await stateOf(t.app, key.keyId);
      for (const route of [...REGISTRY, { path: '/buy/signal', name: 'signal' } as AnyRoute]) {
        const path = route.name === 'signal' ? route.path : pathOf(route);
        const res = await raw(path, method, { authorization: `Bearer ${key.key}` });
        expect(res.status, `${method} ${route.path}`).toBe(405);
        expect(res.headers.allow).toBe('GET');
        expect(res.headers['storefront-charge']).toBeUndefined();
        if (method === 'HEAD') {
          expect(res.body.length).toBe(0);
        } else {
          expect(JSON.parse(res.body.toString('utf8'))).toMatchObject({
            ok: false,
            error: 'method_not_allowed',
            message: `\`${method} ${route.path}\`: paid routes answer GET only`,
          });
        }
      }
      // Other spellings of a route's path reach the same gate.
      expect((await raw('/BUY/Fetch?url=x', method)).status).toBe(405);
      expect((await raw('/buy/%66etch/?url=x', method)).status).toBe(405);
      expect(await stateOf(t.app, key.keyId)).toStrictEqual(before);
    },
    60_000,
  );

  it("a GET reaches a paid route by the spellings Express matched, with the prelude's headers", async () => {
    const auth = { authorization: `Bearer ${key.key}` };
    const hashes = new Set<string>();
    for (const path of [
      '/buy/notarize?content=same',
      '/BUY/Notarize?content=same',
      '/buy/%6Eotarize/?content=same',
    ]) {
      const res = await raw(path, 'GET', { ...auth, 'x-request-id': 'spelled-1' });
      expect(res.status, path).toBe(200);
      expect(res.headers['x-request-id']).toBe('spelled-1');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']).toContain('Storefront-Charge');
      expect(res.headers['cache-control']).toBe('no-store');
      const body = JSON.parse(res.body.toString('utf8'));
      hashes.add(body.data.contentHash);
    }
    expect(hashes.size).toBe(1);
    // Not a product, or not one segment: Express answers, as before.
    for (const path of ['/buy/nothing?content=x', '/buy/notarize/x?content=x', '/buy/%E0?x=1']) {
      const res = await raw(path, 'GET', auth);
      expect(res.status, path).toBeGreaterThanOrEqual(400);
      expect(res.status, path).toBeLessThan(500);
      expect(res.headers['storefront-charge'], path).toBeUndefined();
    }
    const undecodable = await raw('/buy/%E0?x=1', 'GET', auth);
    expect(JSON.parse(undecodable.body.toString('utf8'))).toMatchObject({
      ok: false,
      error: 'invalid_params',
    });
  });

  it('an unknown product is 404 whatever the method', async () => {
    const res = await request(t.app).post('/buy/nothing').expect(404);
    expect(res.body.error).toBe('not_found');
  });
});

describe('CORS on the public routes', () => {
  const preflight = (path: string, method = 'GET', headers = 'authorization, x-payment') =>
    request(t.app)
      .options(path)
      .set('origin', 'https://app.example')
      .set('access-control-request-method', method)
      .set('access-control-request-headers', headers);

  it('a preflight of a paid route is 204 with the request headers allowed, and reaches no door', async () => {
    const before = await stateOf(t.app, key.keyId);
    for (const route of REGISTRY) {
      const res = await preflight(pathOf(route)).set('authorization', `Bearer ${key.key}`);
      expect(res.status, route.path).toBe(204);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-allow-methods']).toBe('GET');
      const allowed = (res.headers['access-control-allow-headers'] as string)
        .toLowerCase()
        .split(', ');
      for (const name of ['authorization', 'x-payment', 'payment-signature']) {
        expect(allowed).toContain(name);
      }
      expect(res.headers['access-control-max-age']).toBe('600');
      expect(res.text).toBe('');
    }
    expect(await stateOf(t.app, key.keyId)).toStrictEqual(before);
  });

  it('a paid answer to a browser exposes the headers clients read', async () => {
    const res = await buy(t.app, '/buy/notarize', { content: 'cors' }, key.key)
      .set('origin', 'https://app.example')
      .expect(200);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    const exposed = (res.headers['access-control-expose-headers'] as string).split(', ');
    for (const name of [
      'X-Request-Id',
      'Storefront-Charge',
      'RateLimit-Limit',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'RateLimit-Policy',
      'Retry-After',
      'X-PAYMENT-RESPONSE',
      'PAYMENT-RESPONSE',
      'PAYMENT-REQUIRED',
      'Content-Digest',
      'Signature-Input',
      'Signature',
      'Response-Provenance',
    ]) {
      expect(exposed).toContain(name);
    }
    // A 402 and an error carry them too, so a script can read why.
    const challenge = await buy(t.app, '/buy/notarize', { content: 'cors' }, null)
      .set('origin', 'https://app.example')
      .expect(402);
    expect(challenge.headers['access-control-allow-origin']).toBe('*');
  });

  it('covers discovery, /.well-known/*, /x402/verify and the balance; not /admin/* or key issuance', async () => {
    for (const path of [
      '/catalog',
      '/manifest',
      '/openapi.json',
      '/x402/discovery',
      '/.well-known/x402',
      '/.well-known/service-attestation',
    ]) {
      const res = await request(t.app).get(path).set('origin', 'https://app.example').expect(200);
      expect(res.headers['access-control-allow-origin'], path).toBe('*');
    }
    const verify = await preflight('/x402/verify', 'POST', 'content-type');
    expect(verify.status).toBe(204);
    expect(verify.headers['access-control-allow-methods']).toBe('POST');
    expect((await preflight('/api/dev/balance')).status).toBe(204);

    for (const path of ['/admin/ledger', '/api/dev/keys']) {
      const res = await preflight(path, 'POST');
      // Answered as any OPTIONS there would be (401 without the token; Express's own
      // Allow list), never with a grant: without the header a browser refuses.
      expect(res.status, path).not.toBe(204);
      expect(res.headers['access-control-allow-origin'], path).toBeUndefined();
    }
    const adminRes = await request(t.app)
      .get(`/admin/keys/${key.keyId}`)
      .set('authorization', `Bearer ${ADMIN_TOKEN}`)
      .set('origin', 'https://app.example')
      .expect(200);
    expect(adminRes.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('compressed answers', () => {
  /** A paid answer without what differs from call to call (receipt, times). */
  const stable = (body: Buffer) => {
    const json = JSON.parse(body.toString('utf8')) as Record<string, unknown>;
    const { attestation: _a, fetchedAt: _f, ...rest } = json;
    return rest;
  };
  const tablePath = `/buy/table?url=${encodeURIComponent('')}`;

  it.each([
    ['gzip', gunzipSync],
    ['br', brotliDecompressSync],
  ] as const)(
    'Accept-Encoding %s: an encoded body that decodes to the same JSON, its length and digest those of the bytes sent; charged once it is written; still no-store',
    async (encoding, decode) => {
      const path = `/buy/table?url=${encodeURIComponent(site.url('/wiki'))}`;
      const auth = { authorization: `Bearer ${key.key}` };
      const plain = await raw(path, 'GET', auth);
      expect(plain.status).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(Number(plain.headers['content-length'])).toBe(plain.body.length);
      expect(plain.body.length).toBeGreaterThan(COMPRESS_FROM_BYTES);

      const credits = await creditsOf(t.app, key.keyId);
      const packed = await raw(path, 'GET', { ...auth, 'accept-encoding': encoding });
      expect(packed.status).toBe(200);
      expect(packed.headers['content-encoding']).toBe(encoding);
      // Encoded by the paid answer's own writer, so that its signature's Content-Digest
      // covers the bytes sent: a length, not a chunked answer.
      expect(Number(packed.headers['content-length'])).toBe(packed.body.length);
      expect(packed.headers['content-digest']).toBe(contentDigest(packed.body));
      expect(packed.headers.vary).toContain('Accept-Encoding');
      expect(packed.headers['cache-control']).toBe('no-store');
      expect(packed.headers['storefront-charge']).toBe('credits;credits=6');
      const decoded = decode(packed.body);
      expect(decoded.length).toBeGreaterThan(packed.body.length);
      expect(stable(decoded)).toStrictEqual(stable(plain.body));
      // The ledger read waits for this instance's settlements: the call was charged.
      expect(await creditsOf(t.app, key.keyId)).toBe(credits - 6);
    },
  );

  it('a discovery document decodes to the very bytes of the plain one', async () => {
    const plain = await raw('/openapi.json', 'GET');
    const packed = await raw('/openapi.json', 'GET', { 'accept-encoding': 'gzip' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(packed.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(packed.body).equals(plain.body)).toBe(true);
  });

  it('a small answer stays as it is', async () => {
    const res = await raw(tablePath, 'GET', { 'accept-encoding': 'gzip' });
    expect(res.status).toBe(400);
    expect(res.body.length).toBeLessThan(COMPRESS_FROM_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});
