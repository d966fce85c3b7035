import { hkdfSync, randomBytes } from 'node:crypto';
import { type Ed25519NoteKey, ed25519NoteKey } from '@storefront/tlog';

/** HKDF `info` of the log's checkpoint key. */
const LOG_KEY_INFO = 'tlog-checkpoint/1';

/**
 * The log's origin (C2SP tlog-checkpoint), which also names its key: the service's public
 * host and `/log` (`storefront.example/log`), the schema-less URL of the log's prefix.
 */
export function logOrigin(publicBaseUrl: string): string {
  const url = new URL(publicBaseUrl);
  return `${url.host}${url.pathname.replace(/\/$/, '')}/log`;
}

/**
 * The seed of the log's Ed25519 checkpoint key, derived from the signer key (HKDF-SHA256,
 * info `tlog-checkpoint/1`), so every instance of one service signs checkpoints with it.
 */
export function logKeySeed(signerPrivateKey: string): Uint8Array {
  const key = Buffer.from(signerPrivateKey.replace(/^0x/, ''), 'hex');
  return new Uint8Array(hkdfSync('sha256', key, 'storefront', LOG_KEY_INFO, 32));
}

/** A random seed (an app built without a signer key: tests). */
export function randomLogKeySeed(): Uint8Array {
  return new Uint8Array(randomBytes(32));
}

/** The log's note key under its origin. */
export function logKey(seed: Uint8Array, publicBaseUrl: string): Ed25519NoteKey {
  return ed25519NoteKey(logOrigin(publicBaseUrl), seed);
}
