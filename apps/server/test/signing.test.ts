import { fc, test } from '@fast-check/vitest';
import { createSigner, type PersonalSign, verifyReceipt } from '@storefront/attest';
import { Wallet } from 'ethers';
import { beforeAll, describe, expect, it } from 'vitest';
import { nativePersonalSign } from '../src/signing.js';

/** Order of the secp256k1 group: valid private keys are 1 … N - 1. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const privateKeys = fc
  .bigInt({ min: 1n, max: N - 1n })
  .map((key) => `0x${key.toString(16).padStart(64, '0')}`);
const messages = fc.oneof(
  fc.constant(''),
  fc.string({ unit: 'grapheme', maxLength: 200 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.string({ unit: 'grapheme-ascii', maxLength: 400 }),
);
/** Strings that may hold lone surrogates (ill-formed UTF-16). */
const illFormed = fc.string({
  unit: fc.oneof(
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)),
  ),
  maxLength: 20,
});

/** A signature, or the fact that signing threw. */
function outcome(sign: () => string): string {
  try {
    return sign();
  } catch {
    return 'throws';
  }
}

let backend: (privateKey: string) => PersonalSign;
beforeAll(async () => {
  const native = await nativePersonalSign();
  if (native === null) throw new Error('Expected the native secp256k1 module on this platform');
  backend = native;
});

describe('nativePersonalSign', () => {
  test.prop([privateKeys, messages])(
    'signs exactly as ethers signMessageSync',
    (privateKey, message) => {
      expect(backend(privateKey)(message)).toBe(new Wallet(privateKey).signMessageSync(message));
    },
  );

  test.prop([privateKeys, illFormed], { numRuns: 50 })(
    'agrees with ethers on ill-formed UTF-16 too (same signature, or both refuse)',
    (privateKey, message) => {
      expect(outcome(() => backend(privateKey)(message))).toBe(
        outcome(() => new Wallet(privateKey).signMessageSync(message)),
      );
    },
  );

  it('counts the UTF-8 bytes of the message, not its UTF-16 units', () => {
    const key = new Wallet('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
      .privateKey;
    for (const message of ['é', '東京', '🔏', 'a\u0000b']) {
      expect(backend(key)(message)).toBe(new Wallet(key).signMessageSync(message));
    }
  });

  it('refuses a key that is not 32 bytes of a valid secp256k1 scalar', () => {
    expect(() => backend('0x1234')).toThrow(/private key/);
    expect(() => backend(`0x${'00'.repeat(32)}`)).toThrow(/private key/);
    expect(() => backend(`0x${'zz'.repeat(32)}`)).toThrow(/private key/);
  });
});

describe('a signer with the native backend', () => {
  const fixed = {
    clock: () => new Date('2026-01-02T03:04:06.000Z'),
    random: (size: number) =>
      Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex').subarray(0, size),
  };

  test.prop(
    [
      privateKeys,
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc.webUrl(),
      fc.option(fc.nat({ max: 599 }), { nil: null }),
    ],
    { numRuns: 40 },
  )(
    'issues receipts that verify and equal what the ethers signer issues',
    (privateKey, text, url, status) => {
      const meta = { url, status, fetchedAt: '2026-01-02T03:04:05.678Z' };
      const native = createSigner(privateKey, { ...fixed, personalSign: backend });
      const ethers = createSigner(privateKey, fixed);
      const attestation = native.sign(text, { route: 'markdown', ...meta });
      expect(attestation).toStrictEqual(ethers.sign(text, { route: 'markdown', ...meta }));
      const verdict = verifyReceipt({ ...meta, text, attestation }, native.address);
      expect(verdict.problems).toStrictEqual([]);
      expect(verdict.valid).toBe(true);
    },
  );

  it('reproduces the storefront-attest/3 test vector signature, and the /2 and /1 ones', () => {
    const key = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
    const signer = createSigner(key, { ...fixed, personalSign: backend });
    const attestation = signer.sign('Hello, Storefront.\nThis line is signed too.', {
      route: 'markdown',
      url: 'https://example.com/article?id=7',
      status: 200,
      fetchedAt: '2026-01-02T03:04:05.678Z',
      page: {
        verdict: 'content',
        rubric: 'page-verdict/1',
        words: 642,
        signals: ['shell:noscript'],
      },
    });
    expect(attestation.signature).toBe(
      '0xe793fe845cc32d07e0f4c812c233cf1a46181b13d50fc41e697fde0d49e0c3bc0e743e3411da4d3406826e279eaab968f317a5c394a4659ef17ab117f45b70161c',
    );
    const v2 =
      'storefront-attest/2\nroute:markdown\ncontentHash:0xba9266fe6a2e168a5f2b73a89bc87efd9ce27509327c9f841128d67cbff7aa7c\nurl:https://example.com/article?id=7\nstatus:200\nfetchedAt:2026-01-02T03:04:05.678Z\nnonce:0x000102030405060708090a0b0c0d0e0f';
    expect(backend(key)(v2)).toBe(
      '0x462be0495ccc706aee266b46d4212439aa707b327e94f136f60d69611bc42e3353e26f15af73a21b095d3ab7fb77bdbc0adeee87c0c1869b504f430fd1479e981b',
    );
    const v1 =
      'storefront-attest/1\ncontentHash:0xba9266fe6a2e168a5f2b73a89bc87efd9ce27509327c9f841128d67cbff7aa7c\nurl:https://example.com/article?id=7\nstatus:200\nfetchedAt:2026-01-02T03:04:05.678Z\nnonce:0x000102030405060708090a0b0c0d0e0f';
    expect(backend(key)(v1)).toBe(
      '0x147cac40a54906082a66f586136f5f2c981709165068913376ef1b19d19cc2085d7e537921f5bfc779051d5ddd50a661c54a861571045c23249a6d343f361f221c',
    );
  });
});
