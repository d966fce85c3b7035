import { randomBytes } from 'node:crypto';
import { StorefrontError, sha256Hex } from '@storefront/core';
import { Wallet } from 'ethers';
import { ATTEST_ALG, ATTEST_SCHEME, buildMessage } from './message.js';
import type { Attestation, SignMeta } from './types.js';

/** One line telling a reader how to check a receipt offline. */
export const HOW_TO_VERIFY =
  'Check sha256(text) == contentHash and that the EIP-191 signer recovered from verify.message and signature equals the address pinned at /.well-known/service-attestation (npx storefront-verify result.json --pin <address>).';

/** Options of {@link createSigner}; the hooks exist for reproducible test vectors. */
export interface SignerOptions {
  /** Current time; default `() => new Date()`. */
  readonly clock?: () => Date;
  /** Random bytes for the nonce; default `crypto.randomBytes`. */
  readonly random?: (size: number) => Uint8Array;
}

/** A receipt signer bound to one private key. */
export interface Signer {
  readonly address: string;
  readonly keyId: string;
  /** Sign `text` together with the envelope's url, status and fetchedAt. */
  sign(text: string, meta: SignMeta): Attestation;
}

/** Bytes of nonce entropy: 128 bits. */
export const NONCE_BYTES = 16;

/**
 * Create a receipt signer from a secp256k1 private key (`0x` + 64 hex).
 *
 * @example
 *   const signer = createSigner(process.env.SIGNER_PRIVATE_KEY!)
 *   const attestation = signer.sign(text, { url, status: 200, fetchedAt })
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
  const random = options.random ?? ((size: number) => randomBytes(size));
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
        contentHash,
        url: meta.url,
        status: meta.status,
        fetchedAt: meta.fetchedAt,
        nonce,
      });
      // signMessageSync is EIP-191 personal_sign: keccak256("\x19Ethereum Signed Message:\n" + len + message).
      const signature = wallet.signMessageSync(message);
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

/** A fresh random private key, `0x` + 64 hex (for development signers). */
export function generatePrivateKey(): string {
  return Wallet.createRandom().privateKey;
}
