import { fc, test } from '@fast-check/vitest';
import { verifyMessage as ethersVerify } from 'ethers';
import { verifyMessage as viemVerify } from 'viem';
import { describe, expect } from 'vitest';
import {
  ATTEST_SCHEMES,
  buildMessage,
  createSigner,
  parseMessage,
  verifyReceipt,
} from '../src/index.js';
import { TEST_ADDRESS, TEST_PRIVATE_KEY } from './helpers.js';

const signer = createSigner(TEST_PRIVATE_KEY);
const meta = { url: 'https://example.com/p', status: 200, fetchedAt: '2026-05-06T07:08:09.000Z' };
/** What the signer binds: the envelope and the route (which is not a field of the result). */
const signMeta = { route: 'markdown', ...meta };
const routeName = fc.stringMatching(/^[a-z0-9-]{1,40}$/);

describe('receipt properties', () => {
  test.prop([fc.string({ unit: 'grapheme', maxLength: 300 })], { numRuns: 40 })(
    'sign then verify succeeds for any text',
    (text) => {
      const attestation = signer.sign(text, signMeta);
      expect(verifyReceipt({ ...meta, text, attestation }, TEST_ADDRESS).valid).toBe(true);
    },
  );

  test.prop(
    [fc.string({ minLength: 1, maxLength: 200 }), fc.nat(), fc.integer({ min: 1, max: 0xffff })],
    { numRuns: 40 },
  )('changing any one character of the text makes verification fail', (text, at, code) => {
    const attestation = signer.sign(text, signMeta);
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

  test.prop([routeName, fc.string({ unit: 'grapheme', maxLength: 100 }), fc.webUrl()], {
    numRuns: 25,
  })(
    'ethers, viem and our verifier agree on any scheme-2 message: same signer, the route signed',
    async (route, text, url) => {
      const attestation = signer.sign(text, { ...signMeta, route, url });
      const { message } = attestation.verify;
      expect(message.split('\n')[1]).toBe(`route:${route}`);
      expect(ethersVerify(message, attestation.signature)).toBe(TEST_ADDRESS);
      expect(
        await viemVerify({
          address: TEST_ADDRESS,
          message,
          signature: attestation.signature as `0x${string}`,
        }),
      ).toBe(true);
      const verdict = verifyReceipt({ text, attestation }, TEST_ADDRESS);
      expect([verdict.valid, verdict.route]).toStrictEqual([true, route]);
    },
  );

  test.prop([
    fc.constantFrom(...ATTEST_SCHEMES),
    routeName,
    fc.webUrl(),
    fc.option(fc.nat({ max: 599 }), { nil: null }),
    fc.uint8Array({ minLength: 16, maxLength: 16 }),
    fc.option(fc.nat(), { nil: null }),
    fc.array(fc.stringMatching(/^[a-z]{1,8}:[a-z0-9-]{1,12}$/), { maxLength: 6 }),
  ])(
    'messages of every scheme parse back to the fields they were built from',
    (scheme, route, url, status, nonceBytes, words, signals) => {
      const fields = {
        scheme,
        route: scheme === 'storefront-attest/1' ? null : route,
        contentHash: `0x${'ab'.repeat(32)}` as const,
        url,
        status,
        fetchedAt: '2026-05-06T07:08:09.000Z',
        page:
          scheme === 'storefront-attest/3' && words !== null
            ? {
                verdict: 'content',
                rubric: 'page-verdict/1',
                words,
                signals: [...new Set(signals)].sort(),
              }
            : null,
        slice:
          scheme === 'storefront-attest/3' && words !== null
            ? {
                offset: words,
                length: 3,
                total: words + 5,
                wholeHash: `0x${'cd'.repeat(32)}` as const,
              }
            : null,
        nonce: `0x${Buffer.from(nonceBytes).toString('hex')}`,
      };
      expect(parseMessage(buildMessage(fields))).toStrictEqual(fields);
    },
  );
});
