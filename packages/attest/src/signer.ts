import { randomBytes, randomFillSync } from 'node:crypto';
import { StorefrontError, sha256Hex } from '@storefront/core';
import { Wallet } from 'ethers';
import { ATTEST_ALG, ATTEST_SCHEME, buildMessage } from './message.js';
import type { Attestation, SignMeta } from './types.js';

/**
 * One line telling a reader how to check a receipt offline: with plain ethers or viem
 * (no code of ours), or with the verifier shipped in the service's repository, which
 * also re-derives `text` from the result's fields. It names no registry package: the
 * `storefront-verify` and `@storefront` names on the public registry are not ours.
 */
export const HOW_TO_VERIFY =
  "Check sha256(text) == contentHash (the contentHash line of verify.message) and that ethers.verifyMessage(verify.message, signature) (or viem's verifyMessage) returns the address pinned at /.well-known/service-attestation; the verifier shipped with the service also checks the result's fields: node packages/attest/bin/storefront-verify.js result.json --pin <address> (in a checkout of the Storefront repository, after pnpm install && pnpm build).";

/**
 * EIP-191 `personal_sign` of a message with one key: `0x` + 65-byte signature hex
 * (r, s, v with v = 27 or 28), exactly what ethers' `wallet.signMessageSync` returns.
 */
export type PersonalSign = (message: string) => string;

/** Options of {@link createSigner}; `clock` and `random` exist for reproducible test vectors. */
export interface SignerOptions {
  /** Current time; default `() => new Date()`. */
  readonly clock?: () => Date;
  /** Random bytes for the nonce; default `crypto.randomFillSync` over a pool ({@link pooledRandom}). */
  readonly random?: (size: number) => Uint8Array;
  /**
   * A faster signing backend (a native secp256k1, say), given the normalised
   * private key; default ethers. Checked once against ethers at creation.
   */
  readonly personalSign?: (privateKey: string) => PersonalSign;
}

/** A receipt signer bound to one private key. */
export interface Signer {
  readonly address: string;
  /** {@link ATTEST_SCHEME} + `:` + `address`: the keyId of every receipt it signs. */
  readonly keyId: string;
  /**
   * Sign `text` together with the route it came from and the envelope's url, status and
   * fetchedAt (and the page verdict and the slice's place in the whole, when given), as
   * a `storefront-attest/3` message.
   */
  sign(text: string, meta: SignMeta): Attestation;
}

/** Bytes of nonce entropy: 128 bits. */
export const NONCE_BYTES = 16;

/** Bytes drawn from the CSPRNG at once for nonces: 256 nonces. */
const RANDOM_POOL_BYTES = 4096;

/**
 * Random bytes from a pool that one `randomFillSync` call fills, 4 KiB at a time: a call
 * into the CSPRNG per 16-byte nonce cost more than the rest of the nonce's work (Node's
 * `randomUUID` pools its entropy the same way). Each byte is handed out once; the bytes
 * returned are a view that the next refill overwrites, so a caller copies them at once.
 */
function pooledRandom(): (size: number) => Uint8Array {
  const pool = Buffer.allocUnsafe(RANDOM_POOL_BYTES);
  let at = RANDOM_POOL_BYTES;
  return (size) => {
    if (size > RANDOM_POOL_BYTES) return randomBytes(size);
    if (at + size > RANDOM_POOL_BYTES) {
      randomFillSync(pool);
      at = 0;
    }
    at += size;
    return pool.subarray(at - size, at);
  };
}

/** The message a `personalSign` backend must sign exactly as ethers does; multi-byte on purpose. */
const PROBE_MESSAGE = `${ATTEST_SCHEME} signer probe: café, 東京, 🔏`;

/**
 * Create a receipt signer from a secp256k1 private key (`0x` + 64 hex).
 *
 * @example
 *   const signer = createSigner(process.env.SIGNER_PRIVATE_KEY!)
 *   const attestation = signer.sign(text, { route: 'markdown', url, status: 200, fetchedAt })
 */
export function createSigner(privateKey: string, options: SignerOptions = {}): Signer {
  let wallet: Wallet;
  try {
    wallet = new Wallet(privateKey);
  } catch (cause) {
    throw new StorefrontError(
      'internal_error',
      'Expected a secp256k1 private key as 0x + 64 hex digits, got something else',
      { cause },
    );
  }
  const clock = options.clock ?? (() => new Date());
  const random = options.random ?? pooledRandom();
  const personalSign =
    options.personalSign === undefined
      ? // EIP-191 personal_sign: keccak256("\x19Ethereum Signed Message:\n" + len + message).
        (message: string) => wallet.signMessageSync(message)
      : checkedBackend(wallet, options.personalSign);
  const address = wallet.address;
  const keyId = `${ATTEST_SCHEME}:${address}`;

  return {
    address,
    keyId,
    sign(text, meta) {
      if (typeof text !== 'string') {
        throw new StorefrontError(
          'internal_error',
          `Expected \`text\` as a string, got \`${typeof text}\``,
        );
      }
      const contentHash = sha256Hex(text);
      const nonce = `0x${Buffer.from(random(NONCE_BYTES)).toString('hex')}`;
      const message = buildMessage({
        scheme: ATTEST_SCHEME,
        route: meta.route,
        contentHash,
        url: meta.url,
        status: meta.status,
        fetchedAt: meta.fetchedAt,
        page: meta.page ?? null,
        slice: meta.slice ?? null,
        nonce,
      });
      const signature = personalSign(message);
      return {
        keyId,
        alg: ATTEST_ALG,
        address,
        contentHash,
        nonce,
        signedAt: clock().toISOString(),
        signature,
        verify: { message, howTo: HOW_TO_VERIFY },
      };
    },
  };
}

/**
 * Bind a `personalSign` backend to the wallet's key, and refuse it unless it signs a
 * probe byte for byte as ethers does: a wrong backend would issue receipts that fail.
 */
function checkedBackend(
  wallet: Wallet,
  backend: (privateKey: string) => PersonalSign,
): PersonalSign {
  const expected = wallet.signMessageSync(PROBE_MESSAGE);
  let sign: PersonalSign;
  let actual: unknown;
  try {
    sign = backend(wallet.privateKey);
    actual = sign(PROBE_MESSAGE);
  } catch (cause) {
    throw new StorefrontError(
      'internal_error',
      'The personalSign backend failed to sign the probe message; receipts need a working EIP-191 signer',
      { cause },
    );
  }
  if (actual !== expected) {
    const got = typeof actual === 'string' ? JSON.stringify(actual.slice(0, 140)) : typeof actual;
    throw new StorefrontError(
      'internal_error',
      `The personalSign backend's signature of the probe message differs from ethers' (expected ${expected}, got ${got}); refusing it`,
    );
  }
  return sign;
}

/** A fresh random private key, `0x` + 64 hex (for development signers). */
export function generatePrivateKey(): string {
  return Wallet.createRandom().privateKey;
}
