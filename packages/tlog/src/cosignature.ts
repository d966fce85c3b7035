import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { TlogError } from './errors.js';
import { fromBase64, toBase64 } from './hash.js';
import { isValidKeyName, type NoteSignature, type NoteVerifier, noteKeyId } from './note.js';

/** The signature type byte of Ed25519 cosignatures (C2SP tlog-cosignature, `cosignature/v1`). */
export const NOTE_ALG_COSIGNATURE_V1 = 0x04;

/** The largest timestamp a cosignature may carry (2^63 - 1 seconds). */
const MAX_TIMESTAMP = 2n ** 63n - 1n;
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');
const ED25519_SPKI_PREFIX = Buffer.from('302a300506032b6570032100', 'hex');
const SIGNATURE_PREFIX = '— ';

/**
 * The message an Ed25519 cosignature signs (C2SP tlog-cosignature): `cosignature/v1`,
 * `time <timestamp>`, then the checkpoint's note text (with its final newline).
 */
export function cosignedMessage(checkpointText: string, timestamp: number): Buffer {
  return Buffer.from(`cosignature/v1\ntime ${timestamp}\n${checkpointText}`, 'utf8');
}

/** A witness's key: cosigns checkpoints, checks cosignatures, and its `vkey`. */
export interface Cosigner {
  readonly name: string;
  readonly keyId: number;
  /** `<name>+<key ID, 8 hex digits>+<base64(0x04 || public key)>`. */
  readonly vkey: string;
  readonly publicKey: Uint8Array;
  /**
   * The note signature line (`— <name> <base64(key ID || timestamp || signature)>`, with
   * its newline) of a cosignature of `checkpointText` made at `timestamp` (POSIX seconds).
   */
  cosign(checkpointText: string, timestamp: number): string;
  readonly verifier: CosignatureVerifier;
}

/** A note verifier of one witness's cosignatures, which also reads their timestamps. */
export interface CosignatureVerifier extends NoteVerifier {
  /** The timestamp (POSIX seconds) of a signature line's value by this key, or null. */
  timestampOf(signature: NoteSignature): number | null;
}

function checkTimestamp(timestamp: number): void {
  if (!Number.isSafeInteger(timestamp) || timestamp <= 0) {
    throw new TlogError(
      'invalid_argument',
      `a cosignature's timestamp is a positive integer, not ${timestamp}`,
    );
  }
}

function verifierOf(name: string, keyId: number, publicKey: Uint8Array): CosignatureVerifier {
  const key = createPublicKey({
    key: Buffer.concat([ED25519_SPKI_PREFIX, publicKey]),
    format: 'der',
    type: 'spki',
  });
  return {
    name,
    keyId,
    // `signature` is what follows the key ID: the u64 timestamp, then the Ed25519 signature.
    verify: (message, signature) => {
      if (signature.length !== 8 + 64) return false;
      const timestamp = Buffer.from(signature).readBigUInt64BE(0);
      if (timestamp === 0n || timestamp > MAX_TIMESTAMP) return false;
      const text = Buffer.from(message).toString('utf8');
      return verify(null, cosignedMessage(text, Number(timestamp)), key, signature.subarray(8));
    },
    timestampOf: (signature) => {
      if (signature.name !== name || signature.keyId !== keyId) return null;
      const bytes = fromBase64(signature.base64);
      if (bytes === null || bytes.length !== 4 + 8 + 64) return null;
      return Number(Buffer.from(bytes).readBigUInt64BE(4));
    },
  };
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/** A witness's Ed25519 cosigning key from its 32-byte seed (C2SP tlog-cosignature). */
export function ed25519Cosigner(name: string, seed: Uint8Array): Cosigner {
  if (!isValidKeyName(name)) {
    throw new TlogError('invalid_argument', `\`${name}\` is not a key name (no spaces or \`+\`)`);
  }
  if (seed.length !== 32) {
    throw new TlogError('invalid_argument', `an Ed25519 seed has 32 bytes, not ${seed.length}`);
  }
  const privateKey = createPrivateKey({
    key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  const publicKey = new Uint8Array(spki.subarray(ED25519_SPKI_PREFIX.length));
  const typed = Uint8Array.of(NOTE_ALG_COSIGNATURE_V1, ...publicKey);
  const keyId = noteKeyId(name, typed);
  const id = Buffer.alloc(4);
  id.writeUInt32BE(keyId);
  return {
    name,
    keyId,
    vkey: `${name}+${hex8(keyId)}+${toBase64(typed)}`,
    publicKey,
    cosign: (checkpointText, timestamp) => {
      checkTimestamp(timestamp);
      if (!checkpointText.endsWith('\n')) {
        throw new TlogError('invalid_argument', 'a checkpoint text ends in a newline');
      }
      const time = Buffer.alloc(8);
      time.writeBigUInt64BE(BigInt(timestamp));
      const signature = sign(null, cosignedMessage(checkpointText, timestamp), privateKey);
      return `${SIGNATURE_PREFIX}${name} ${toBase64(Buffer.concat([id, time, signature]))}\n`;
    },
    verifier: verifierOf(name, keyId, publicKey),
  };
}

/** The verifier of a witness's `vkey` (`<name>+<hex key ID>+<base64(0x04 || key)>`). */
export function cosignatureVerifier(vkey: string): CosignatureVerifier {
  const bad = (why: string) =>
    new TlogError('malformed_vkey', `\`${vkey}\` is not a cosigner key: ${why}`);
  const first = vkey.indexOf('+');
  const second = first < 0 ? -1 : vkey.indexOf('+', first + 1);
  if (second < 0) throw bad('expected `<name>+<hex id>+<base64 key>`');
  const name = vkey.slice(0, first);
  const idText = vkey.slice(first + 1, second);
  const typed = fromBase64(vkey.slice(second + 1));
  if (!isValidKeyName(name)) throw bad('bad key name');
  if (!/^[0-9a-f]{8}$/.test(idText)) throw bad('the key ID is 8 lower-case hex digits');
  if (typed === null || typed.length === 0) throw bad('the key is not base64');
  if (typed[0] !== NOTE_ALG_COSIGNATURE_V1) {
    throw bad(`key type ${typed[0]} is not an Ed25519 cosignature key (0x04)`);
  }
  if (typed.length !== 33) throw bad('an Ed25519 key has 32 bytes');
  const keyId = Number.parseInt(idText, 16);
  if (noteKeyId(name, typed) !== keyId) throw bad('the key ID does not match the key');
  return verifierOf(name, keyId, typed.subarray(1));
}
