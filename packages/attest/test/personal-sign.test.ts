import { StorefrontError } from '@storefront/core';
import { concat, keccak256, SigningKey, toUtf8Bytes, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { createSigner, type PersonalSign, verifyReceipt } from '../src/index.js';
import { OTHER_PRIVATE_KEY, TEST_ADDRESS, TEST_PRIVATE_KEY, VECTOR_INPUT } from './helpers.js';

const meta = { url: 'https://example.com/p', status: 200, fetchedAt: '2026-05-06T07:08:09.000Z' };
/** What the signer binds: the envelope and the route (which is not a field of the result). */
const signMeta = { route: 'markdown', ...meta };
const fixed = {
  clock: () => new Date(VECTOR_INPUT.signedAt),
  random: (size: number) => Buffer.from(VECTOR_INPUT.nonceBytes, 'hex').subarray(0, size),
};

/** A correct backend (ethers itself) that records the keys and messages it is given. */
function recordingBackend() {
  const keys: string[] = [];
  const messages: string[] = [];
  const backend = (privateKey: string): PersonalSign => {
    keys.push(privateKey);
    const wallet = new Wallet(privateKey);
    return (message) => {
      messages.push(message);
      return wallet.signMessageSync(message);
    };
  };
  return { backend, keys, messages };
}

/** The error `fn` throws (fails the test when it throws nothing). */
function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('Expected a throw');
}

describe('createSigner personalSign option', () => {
  it('signs every receipt with the backend, bound once to the normalised key', () => {
    const { backend, keys, messages } = recordingBackend();
    const signer = createSigner(TEST_PRIVATE_KEY.slice(2).toUpperCase(), {
      personalSign: backend,
    });
    expect(keys).toStrictEqual([TEST_PRIVATE_KEY]);
    const probes = messages.length;
    expect(probes).toBe(1);
    const a = signer.sign('first', signMeta);
    const b = signer.sign('second', signMeta);
    expect(messages.slice(probes)).toStrictEqual([a.verify.message, b.verify.message]);
    expect(verifyReceipt({ ...meta, text: 'first', attestation: a }, TEST_ADDRESS).valid).toBe(
      true,
    );
  });

  it('gives the same attestation as the default ethers signer', () => {
    const { backend } = recordingBackend();
    const viaBackend = createSigner(TEST_PRIVATE_KEY, { ...fixed, personalSign: backend });
    const viaEthers = createSigner(TEST_PRIVATE_KEY, fixed);
    expect(viaBackend.sign('some text', signMeta)).toStrictEqual(
      viaEthers.sign('some text', signMeta),
    );
  });

  it.each([
    [
      'signs with another key',
      () => (message: string) => new Wallet(OTHER_PRIVATE_KEY).signMessageSync(message),
    ],
    ['returns garbage', () => () => '0xdeadbeef'],
    ['returns a non-string', () => () => 42 as unknown as string],
    [
      'flips the recovery byte',
      (pk: string) => (message: string) => {
        const signature = new Wallet(pk).signMessageSync(message);
        return `${signature.slice(0, -2)}${signature.endsWith('1b') ? '1c' : '1b'}`;
      },
    ],
    [
      'counts UTF-16 units instead of UTF-8 bytes in the envelope',
      (pk: string) => (message: string) => {
        const envelope = concat([
          toUtf8Bytes(`\x19Ethereum Signed Message:\n${message.length}`),
          toUtf8Bytes(message),
        ]);
        return new SigningKey(pk).sign(keccak256(envelope)).serialized;
      },
    ],
  ] as const)('refuses, at creation, a backend that %s', (_, backend) => {
    const error = thrown(() => createSigner(TEST_PRIVATE_KEY, { personalSign: backend }));
    expect(error).toBeInstanceOf(StorefrontError);
    expect((error as StorefrontError).code).toBe('internal_error');
    expect((error as Error).message).toMatch(
      /^The personalSign backend's signature of the probe message differs from ethers' \(expected 0x[0-9a-f]{130}, got .+\); refusing it$/,
    );
  });

  it('refuses, at creation, a backend that throws, keeping the cause', () => {
    const cause = new Error('no native module');
    const error = thrown(() =>
      createSigner(TEST_PRIVATE_KEY, {
        personalSign: () => {
          throw cause;
        },
      }),
    );
    expect(error).toBeInstanceOf(StorefrontError);
    expect((error as StorefrontError).code).toBe('internal_error');
    expect((error as Error).message).toMatch(/personalSign backend failed to sign the probe/);
    expect((error as Error).cause).toBe(cause);
  });
});

describe('receipt nonces', () => {
  it('gives every receipt its own 128-bit nonce, past the pool refills, each one verifying', () => {
    const signer = createSigner(TEST_PRIVATE_KEY);
    // 4 KiB pools hold 256 nonces: 1,000 receipts cross three refills.
    const receipts = Array.from({ length: 1000 }, () => signer.sign('same text', signMeta));
    const nonces = receipts.map((r) => r.nonce);
    expect(nonces.every((nonce) => /^0x[0-9a-f]{32}$/.test(nonce))).toBe(true);
    expect(new Set(nonces).size).toBe(1000);
    // A nonce handed out is not changed by the refills after it.
    for (const r of [0, 255, 256, 999].map((i) => receipts[i] as (typeof receipts)[number])) {
      expect(r.verify.message).toContain(`nonce:${r.nonce}`);
      expect(
        verifyReceipt({ ...meta, text: 'same text', attestation: r }, TEST_ADDRESS).valid,
      ).toBe(true);
    }
  });
});
