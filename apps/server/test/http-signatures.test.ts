/**
 * RFC 9421 signatures of paid answers and webhooks (docs/decisions.md, "Signed HTTP
 * answers (RFC 9421)"), checked by an independent implementation: the
 * `http-message-signatures` library verifies each signature with the key fetched from
 * `/.well-known/jwks.json`; the `Content-Digest` (RFC 9530) is recomputed here. A real
 * listening service, the local payment stack, and a webhook receiver.
 */
import { createHash, createPublicKey } from 'node:crypto';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import { DEV_PAYER, type PaymentStack, startPaymentStack } from '@storefront/facilitator';
import { decodePaymentResponseHeader } from '@x402/core/http';
import { wrapFetchWithPayment } from '@x402/fetch';
import { createVerifier, httpbis, type VerifyingKey } from 'http-message-signatures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSigner } from '../src/db/signer-keys.js';
import {
  contentDigest,
  httpSignatureKey,
  jwkThumbprint,
  signatureBase,
} from '../src/http/message-signature.js';
import type { RunningServer } from '../src/server.js';
import { listeningServer, liveKeyAt, paymentEnv } from './listening.js';
import { type Site, startSite } from './site.js';
import { officialV2Payer } from './x402/payments.js';

const SIGNER_KEY = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
const RETIRED_KEY = `0x${'1f'.repeat(32)}`;

type Headers = Record<string, string | string[]>;
interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly body: Buffer;
}
interface SignedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
}

let stack: PaymentStack;
let site: Site;
let running: RunningServer;
let base: string;
let stop: () => Promise<void>;
const hook = { url: '', received: [] as { request: SignedRequest; body: Buffer }[] };
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    hook.received.push({
      request: {
        method: req.method ?? '',
        url: `${hook.url}${req.url ?? ''}`,
        headers: req.headers as Headers,
      },
      body: Buffer.concat(chunks),
    });
    res.writeHead(204).end();
  });
});

beforeAll(async () => {
  stack = await startPaymentStack();
  site = await startSite();
  receiver.listen(0, '127.0.0.1');
  await once(receiver, 'listening');
  const hookPort = (receiver.address() as AddressInfo).port;
  hook.url = `http://127.0.0.1:${hookPort}`;
  ({ server: running, stop } = await listeningServer({
    SAFE_FETCH_ALLOW: `${site.allow},127.0.0.1:${hookPort}`,
    ...paymentEnv(stack),
    X402_BATCH_REDEEM_SECONDS: '0',
    SIGNER_PRIVATE_KEY: SIGNER_KEY,
  }));
  await running.ready();
  base = running.url;
}, 120_000);

afterAll(async () => {
  await stop?.();
  receiver.close();
  await site?.close();
  await stack?.close();
}, 60_000);

/** A GET on the service, its body as the bytes sent. */
function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers as Headers,
          body: Buffer.concat(chunks),
        }),
      );
    });
    req.on('error', reject);
  });
}

interface Jwk {
  readonly kty: string;
  readonly crv: string;
  readonly x: string;
  readonly kid: string;
  readonly status: string;
  readonly retiredAt?: string;
}

async function jwks(): Promise<{ keys: Jwk[] }> {
  return (await fetch(`${base}/.well-known/jwks.json`)).json() as never;
}

/** The library's key lookup: the JWKS's key named by the signature's `keyid`. */
async function keyLookup(params: { keyid?: string }): Promise<VerifyingKey | null> {
  const found = (await jwks()).keys.find((key) => key.kid === params.keyid);
  if (found === undefined) return null;
  const publicKey = createPublicKey({
    key: { kty: found.kty, crv: found.crv, x: found.x },
    format: 'jwk',
  });
  return { id: found.kid, algs: ['ed25519'], verify: createVerifier(publicKey, 'ed25519') };
}

/** What every answer's signature must cover (the library names `"@path";req` as `@path`). */
const ANSWER_FIELDS = ['@status', 'content-digest', '@method', '@path', '@query'];

/** The library's verdict on an answer's signature, and whether its body matches its digest. */
async function verifyAnswer(
  answer: Answer,
  request: SignedRequest,
  fields: string[] = ANSWER_FIELDS,
): Promise<{ signature: boolean; digest: boolean }> {
  let signature = false;
  try {
    signature =
      (await httpbis.verifyMessage(
        { keyLookup, requiredFields: fields, requiredParams: ['created', 'keyid', 'alg'] },
        { status: answer.status, headers: answer.headers },
        request,
      )) === true;
  } catch (error) {
    if (process.env.DEBUG_SIG) console.log(error);
    signature = false;
  }
  return {
    signature,
    digest: answer.headers['content-digest'] === contentDigest(answer.body),
  };
}

/** Verified as sent; refused after a one-byte edit of the body, of the status, of the path. */
async function expectSigned(
  answer: Answer,
  path: string,
  fields: string[] = ANSWER_FIELDS,
  method = 'GET',
): Promise<void> {
  const request = { method, url: `${base}${path}`, headers: {} };
  expect(answer.headers['signature-input']).toMatch(
    /^sig1=\("@status" "content-digest" "@method";req "@path";req "@query";req/,
  );
  expect(answer.headers['signature-input']).toContain(';tag="storefront"');
  expect(
    await verifyAnswer(answer, { ...request, method: method === 'GET' ? 'POST' : 'GET' }, fields),
  ).toMatchObject({ signature: false });
  expect(await verifyAnswer(answer, request, fields)).toStrictEqual({
    signature: true,
    digest: true,
  });
  const body = Buffer.from(answer.body);
  body[body.length - 2] = (body[body.length - 2] as number) ^ 1;
  expect((await verifyAnswer({ ...answer, body }, request, fields)).digest).toBe(false);
  const status = { ...answer, status: answer.status === 200 ? 201 : 200 };
  expect((await verifyAnswer(status, request, fields)).signature).toBe(false);
  const other = { ...request, url: `${base}/x${path}` };
  expect((await verifyAnswer(answer, other, fields)).signature).toBe(false);
  // An edited digest header: the library refuses the signature.
  const digest = contentDigest(body);
  const edited = { ...answer, headers: { ...answer.headers, 'content-digest': digest } };
  expect((await verifyAnswer(edited, request, fields)).signature).toBe(false);
}

async function answerOf(res: Response): Promise<Answer> {
  const headers: Headers = {};
  res.headers.forEach((value, name) => {
    headers[name] = value;
  });
  return { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
}

const liveKey = (credits: number) => liveKeyAt(base, credits);

describe('the signature base', () => {
  it('follows RFC 9421 §2.5: one line per component, @signature-params last', () => {
    expect(
      signatureBase(
        [
          ['"@status"', '200'],
          ['"@path";req', '/buy/x'],
        ],
        '("@status" "@path";req);created=1',
      ),
    ).toBe(
      '"@status": 200\n"@path";req: /buy/x\n"@signature-params": ("@status" "@path";req);created=1',
    );
  });
});

describe('the JWKS', () => {
  it('publishes the current key (its RFC 7638 thumbprint as kid), cacheable, linked from the attestation', async () => {
    const res = await fetch(`${base}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('content-type')).toContain('application/jwk-set+json');
    const { keys } = (await res.json()) as { keys: Jwk[] };
    const current = httpSignatureKey(SIGNER_KEY);
    expect(keys[0]).toStrictEqual({
      ...current.jwk,
      kid: current.kid,
      alg: 'EdDSA',
      use: 'sig',
      status: 'current',
    });
    // RFC 8037 appendix A.3: the thumbprint of its example key.
    expect(
      jwkThumbprint({
        kty: 'OKP',
        crv: 'Ed25519',
        x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
      }),
    ).toBe('kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k');
    const attestation = await fetch(`${base}/.well-known/service-attestation`);
    expect(attestation.headers.get('link')).toContain('</.well-known/jwks.json>; rel="jwks"');
  });

  it('keeps publishing a retired signer key’s derived key, marked retired', async () => {
    const retired = httpSignatureKey(RETIRED_KEY);
    const current = httpSignatureKey(SIGNER_KEY);
    expect(retired.kid).not.toBe(current.kid);
    // Derivation is stable: the same signer key gives the same key.
    expect(httpSignatureKey(RETIRED_KEY).jwk).toStrictEqual(retired.jwk);
    // A rotation as `registerSigner` records it: the old key first, then the current one again.
    await registerSigner(running.db, '0x00000000000000000000000000000000000000aa', 'k', {
      httpJwk: retired.jwk,
    });
    await registerSigner(running.db, '0x00000000000000000000000000000000000000bb', 'k', {
      httpJwk: current.jwk,
    });
    const { keys } = await jwks();
    expect(keys.map((key) => [key.kid, key.status])).toContainEqual([retired.kid, 'retired']);
    expect(keys[0]?.kid).toBe(current.kid);
    expect(keys.find((key) => key.kid === retired.kid)?.retiredAt).toMatch(/^\d{4}-/);
  });
});

describe('signed answers of /buy/*', () => {
  it('a key-door 200 result', async () => {
    const key = await liveKey(100);
    const path = '/buy/notarize?content=signed%20answer';
    const answer = await get(path, { authorization: `Bearer ${key}` });
    expect(answer.status).toBe(200);
    await expectSigned(answer, path);
  });

  it('a 402 terms answer, and a 400 refusal', async () => {
    const path = '/buy/notarize?content=terms';
    const terms = await get(path);
    expect(terms.status).toBe(402);
    await expectSigned(terms, path);
    const key = await liveKey(10);
    const bad = await get('/buy/notarize', { authorization: `Bearer ${key}` });
    expect(bad.status).toBe(400);
    await expectSigned(bad, '/buy/notarize');
  });

  it('Express answers under /buy too: /buy/signal, a 405, an unknown product’s 404', async () => {
    const signal = await get('/buy/signal');
    expect(signal.status).toBe(200);
    await expectSigned(signal, '/buy/signal');
    const missing = await get('/buy/nothing?x=1');
    expect(missing.status).toBe(404);
    await expectSigned(missing, '/buy/nothing?x=1');
    const post = await fetch(`${base}/buy/notarize?content=x`, { method: 'POST' });
    expect(post.status).toBe(405);
    await expectSigned(await answerOf(post), '/buy/notarize?content=x', ANSWER_FIELDS, 'POST');
  });

  it('a compressed answer: the digest covers the encoded bytes as sent', async () => {
    const key = await liveKey(100);
    const path = `/buy/table?url=${encodeURIComponent(site.url('/wiki'))}`;
    const answer = await get(path, { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(answer.body).toString('utf8')).ok).toBe(true);
    await expectSigned(answer, path);
  });

  it('an x402 paid answer covers PAYMENT-RESPONSE and Response-Provenance', async () => {
    const pay = wrapFetchWithPayment(fetch, officialV2Payer(DEV_PAYER.privateKey)) as typeof fetch;
    const path = '/buy/notarize?content=paid%20and%20signed';
    const res = await pay(`${base}${path}`);
    expect(res.status).toBe(200);
    const headers: Headers = {};
    res.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const payment = headers['payment-response'] as string;
    expect(decodePaymentResponseHeader(payment).success).toBe(true);
    expect(headers['signature-input']).toContain(
      '"payment-response" "response-provenance");created=',
    );
    const answer = { status: res.status, headers, body: Buffer.from(await res.arrayBuffer()) };
    const fields = [...ANSWER_FIELDS, 'payment-response', 'response-provenance'];
    await expectSigned(answer, path, fields);
    // An edited payment response fails the signature.
    const edited = { ...answer, headers: { ...headers, 'payment-response': `${payment}x` } };
    const request = { method: 'GET', url: `${base}${path}`, headers: {} };
    expect((await verifyAnswer(edited, request, fields)).signature).toBe(false);
    // So does an edited provenance claim.
    const claim = headers['response-provenance'] as string;
    const rewritten = { ...answer, headers: { ...headers, 'response-provenance': `${claim}x` } };
    expect((await verifyAnswer(rewritten, request, fields)).signature).toBe(false);
  }, 60_000);
});

describe('signed MCP answers', () => {
  it('a paid tools/call result and a refusal over POST /mcp', async () => {
    const key = await liveKey(100);
    const post = async (body: unknown, auth = true) =>
      answerOf(
        await fetch(`${base}/mcp`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': '2025-11-25',
            ...(auth ? { authorization: `Bearer ${key}` } : {}),
          },
          body: JSON.stringify(body),
        }),
      );
    const call = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'notarize', arguments: { content: 'signed over MCP' } },
    };
    const paid = await post(call);
    expect(paid.status).toBe(200);
    const result = JSON.parse(paid.body.toString('utf8')) as {
      result: { structuredContent: { attestation: unknown } };
    };
    expect(result.result.structuredContent.attestation).toBeDefined();
    await expectSigned(paid, '/mcp', ANSWER_FIELDS, 'POST');
    // A batch holding a tools/call is refused by the door itself, signed too.
    const refused = await post([call, call]);
    expect(refused.status).toBe(400);
    await expectSigned(refused, '/mcp', ANSWER_FIELDS, 'POST');
  });
});

describe('signed job answers and webhooks', () => {
  it('the job API answers are signed; each webhook delivery carries an RFC 9421 signature over @method, @target-uri, content-digest, webhook-id', async () => {
    const key = await liveKey(1000);
    const created = await fetch(`${base}/jobs/crawl`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        url: site.url('/wiki'),
        limit: 1,
        format: 'text',
        webhook: { url: `${hook.url}/hook`, events: ['completed'] },
      }),
    });
    expect(created.status).toBe(202);
    // The job API's answers are signed too: the 202, its status, and a refusal.
    const createdAnswer = await answerOf(created);
    await expectSigned(createdAnswer, '/jobs/crawl', ANSWER_FIELDS, 'POST');
    const { jobId } = JSON.parse(createdAnswer.body.toString('utf8')) as { jobId: string };
    const auth = { authorization: `Bearer ${key}` };
    const status = await fetch(`${base}/jobs/${jobId}`, { headers: auth });
    expect(status.status).toBe(200);
    await expectSigned(await answerOf(status), `/jobs/${jobId}`);
    const missing = await fetch(`${base}/jobs/job_unknown`, { headers: auth });
    expect(missing.status).toBe(404);
    await expectSigned(await answerOf(missing), '/jobs/job_unknown');
    await expect.poll(() => hook.received.length, { timeout: 30_000 }).toBeGreaterThan(0);
    const { request, body } = hook.received[0] as { request: SignedRequest; body: Buffer };
    expect(request.headers['webhook-signature']).toMatch(/^v1,/);
    const fields = ['@method', '@target-uri', 'content-digest', 'webhook-id'];
    const verify = async (message: SignedRequest, bytes: Buffer) => ({
      signature:
        (await httpbis
          .verifyMessage({ keyLookup, requiredFields: fields }, message)
          .catch(() => false)) === true,
      digest: message.headers['content-digest'] === contentDigest(bytes),
    });
    expect(await verify(request, body)).toStrictEqual({ signature: true, digest: true });
    const edited = Buffer.from(body);
    edited[0] = (edited[0] as number) ^ 1;
    expect((await verify(request, edited)).digest).toBe(false);
    expect((await verify({ ...request, url: `${hook.url}/other` }, body)).signature).toBe(false);
    const otherId = { ...request, headers: { ...request.headers, 'webhook-id': 'msg_other' } };
    expect((await verify(otherId, body)).signature).toBe(false);
    expect(createHash('sha256').update(body).digest('base64')).toBe(
      String(request.headers['content-digest']).slice('sha-256=:'.length, -1),
    );
  }, 60_000);
});
