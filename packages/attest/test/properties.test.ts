import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { buildMessage, createSigner, parseMessage, verifyReceipt } from '../src/index.js';
import { TEST_ADDRESS, TEST_PRIVATE_KEY } from './helpers.js';

const signer = createSigner(TEST_PRIVATE_KEY);
const meta = { url: 'https://example.com/p', status: 200, fetchedAt: '2026-05-06T07:08:09.000Z' };

describe('receipt properties', () => {
  test.prop([fc.string({ unit: 'grapheme', maxLength: 300 })], { numRuns: 40 })(
    'sign then verify succeeds for any text',
    (text) => {
      const attestation = signer.sign(text, meta);
      expect(verifyReceipt({ ...meta, text, attestation }, TEST_ADDRESS).valid).toBe(true);
    },
  );

  test.prop(
    [fc.string({ minLength: 1, maxLength: 200 }), fc.nat(), fc.integer({ min: 1, max: 0xffff })],
    { numRuns: 40 },
  )('changing any one character of the text makes verification fail', (text, at, code) => {
    const attestation = signer.sign(text, meta);
    const index = at % text.length;
    const replacement = String.fromCharCode(code);
    fc.pre(replacement !== text[index]);
    const tampered = text.slice(0, index) + replacement + text.slice(index + 1);
    fc.pre(tampered.toWellFormed() !== text.toWellFormed());
    expect(verifyReceipt({ ...meta, text: tampered, attestation }, TEST_ADDRESS).valid).toBe(false);
  });

  test.prop([fc.anything()])('verifyReceipt answers for anything', (input) => {
    expect(verifyReceipt(input, TEST_ADDRESS).valid).toBe(false);
  });

  test.prop([
    fc.webUrl(),
    fc.option(fc.nat({ max: 599 }), { nil: null }),
    fc.uint8Array({ minLength: 16, maxLength: 16 }),
  ])('messages parse back to the fields they were built from', (url, status, nonceBytes) => {
    const fields = {
      contentHash: `0x${'ab'.repeat(32)}` as const,
      url,
      status,
      fetchedAt: '2026-05-06T07:08:09.000Z',
      nonce: `0x${Buffer.from(nonceBytes).toString('hex')}`,
    };
    expect(parseMessage(buildMessage(fields))).toStrictEqual(fields);
  });
});
