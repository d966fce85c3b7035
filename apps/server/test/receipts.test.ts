import { parseMessage } from '@storefront/attest';
import { canonicalize } from '@storefront/core';
import { verifyMessage as ethersVerify } from 'ethers';
import request from 'supertest';
import { verifyMessage as viemVerify } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SIGNAL_SAMPLE } from '../src/routes/signal.js';
import { testApp } from './helpers.js';

let t: Awaited<ReturnType<typeof testApp>>;
beforeAll(async () => {
  t = await testApp();
});
afterAll(() => t.dispose());

describe('GET /buy/signal', () => {
  it('returns signed sample data, labelled as sample, free of charge', async () => {
    const res = await request(t.app).get('/buy/signal').expect(200);
    expect(res.body).toMatchObject({
      ok: true,
      sample: true,
      url: 'http://storefront.test/buy/signal',
      status: 200,
    });
    expect(res.body.data).toStrictEqual(SIGNAL_SAMPLE);
    expect(res.body.data.notice).toMatch(/not a live market read/);
    expect(res.body.text).toBe(canonicalize(SIGNAL_SAMPLE));
    expect(res.body.attestation.address).toBe(t.signer.address);
  });

  it('gives the same text on every call and a fresh nonce each time', async () => {
    const a = await request(t.app).get('/buy/signal');
    const b = await request(t.app).get('/buy/signal');
    expect(a.body.text).toBe(b.body.text);
    expect(a.body.attestation.nonce).not.toBe(b.body.attestation.nonce);
  });
});

describe('POST /x402/verify', () => {
  it('verifies a whole result, and {text, attestation} alone', async () => {
    const { body: result } = await request(t.app).get('/buy/signal');
    const whole = await request(t.app).post('/x402/verify').send(result).expect(200);
    expect(whole.body).toStrictEqual({
      ok: true,
      valid: true,
      checks: { contentHash: true, signature: true, pinnedKey: true, envelope: true, fields: true },
      route: 'signal',
      rule: { kind: 'canonical-json' },
      covered: ['text', 'url', 'status', 'fetchedAt', 'data'],
      uncovered: ['sample'],
      signed: parseMessage(result.attestation.verify.message),
      signer: t.signer.address,
      keyId: t.signer.keyId,
      problems: [],
      notes: [],
    });
    const bare = await request(t.app)
      .post('/x402/verify')
      .send({ text: result.text, attestation: result.attestation });
    expect(bare.body).toMatchObject({
      ok: true,
      valid: true,
      checks: { envelope: null, fields: null },
      // The route is signed (storefront-attest/2), so it is known even without fields.
      route: 'signal',
      covered: ['text'],
    });
  });

  it('says which check fails for a tampered text, and agrees with ethers and viem on the signature', async () => {
    const { body: result } = await request(t.app).get('/buy/signal');
    const tampered = { ...result, text: result.text.replace('"up"', '"down"') };
    const res = await request(t.app).post('/x402/verify').send(tampered).expect(200);
    expect(res.body.valid).toBe(false);
    // The edited text is also no longer the canonical JSON of `data`.
    expect(res.body.checks).toStrictEqual({
      contentHash: false,
      signature: true,
      pinnedKey: true,
      envelope: true,
      fields: false,
    });
    const { message } = result.attestation.verify;
    expect(ethersVerify(message, result.attestation.signature)).toBe(t.signer.address);
    expect(
      await viemVerify({
        address: t.signer.address as `0x${string}`,
        message,
        signature: result.attestation.signature,
      }),
    ).toBe(true);
  });

  it.each([
    ['an array', []],
    ['no attestation', { text: 'x' }],
    ['a text that is not a string', { text: 1, attestation: {} }],
  ])('answers 400 invalid_params with details for %s', async (_name, body) => {
    const res = await request(t.app).post('/x402/verify').send(body).expect(400);
    expect(res.body.ok).toBe(false);
    expect(res.body.error).toBe('invalid_params');
    expect(res.body.details.length).toBeGreaterThan(0);
  });
});
