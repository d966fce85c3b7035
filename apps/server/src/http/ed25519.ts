import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { createRequire } from 'node:module';

/** Signs a message with one Ed25519 key: the 64-byte signature (RFC 8032). */
export type Ed25519Sign = (message: Uint8Array) => Buffer;

/** PKCS#8 DER of an Ed25519 private key, up to its 32 bytes (RFC 8410). */
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/** The part of `sodium-native` used here. */
interface Sodium {
  readonly crypto_sign_SECRETKEYBYTES: number;
  readonly crypto_sign_PUBLICKEYBYTES: number;
  readonly crypto_sign_BYTES: number;
  crypto_sign_seed_keypair(publicKey: Buffer, secretKey: Buffer, seed: Buffer): void;
  crypto_sign_detached(signature: Buffer, message: Uint8Array, secretKey: Buffer): void;
}

let sodium: Sodium | null | undefined;

/** libsodium's native build, or null where it does not load (the caller keeps node:crypto). */
function loadSodium(): Sodium | null {
  if (sodium === undefined) {
    try {
      sodium = createRequire(import.meta.url)('sodium-native') as Sodium;
    } catch {
      sodium = null;
    }
  }
  return sodium;
}

/** The Ed25519 private key of a 32-byte seed, as a node:crypto key object. */
export function ed25519PrivateKey(seed: Uint8Array): KeyObject {
  return createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
}

/** A message no answer's signature base can be, to compare the two backends on. */
const PROBE = Buffer.from('storefront ed25519 backend probe\n');

/**
 * Signing with the Ed25519 key of `seed`, on libsodium (`sodium-native`) where its native
 * build loads: about half the time of node:crypto's `sign` on a signature base, which
 * every signed answer pays on the event loop (docs/decisions.md, "Ed25519 on libsodium").
 * Ed25519 signatures are deterministic, so both give the same bytes; libsodium is used
 * only when its signature of a probe message equals node:crypto's. `backend` says which
 * one signs.
 */
export function ed25519Signer(seed: Uint8Array): {
  readonly sign: Ed25519Sign;
  readonly backend: 'libsodium' | 'node:crypto';
} {
  const privateKey = ed25519PrivateKey(seed);
  const viaNode: Ed25519Sign = (message) => sign(null, message, privateKey);
  const lib = loadSodium();
  if (lib === null) return { sign: viaNode, backend: 'node:crypto' };
  const publicKey = Buffer.alloc(lib.crypto_sign_PUBLICKEYBYTES);
  const secretKey = Buffer.alloc(lib.crypto_sign_SECRETKEYBYTES);
  lib.crypto_sign_seed_keypair(publicKey, secretKey, Buffer.from(seed));
  const viaSodium: Ed25519Sign = (message) => {
    const signature = Buffer.allocUnsafe(lib.crypto_sign_BYTES);
    lib.crypto_sign_detached(signature, message, secretKey);
    return signature;
  };
  if (!viaSodium(PROBE).equals(viaNode(PROBE))) return { sign: viaNode, backend: 'node:crypto' };
  return { sign: viaSodium, backend: 'libsodium' };
}
