import { sign, verify } from 'node:crypto';
import { TlogError } from './errors.js';
import { fromBase64, toBase64 } from './hash.js';
import {
  ed25519FromSeed,
  ed25519Public,
  hex8,
  type NoteSignature,
  type NoteVerifier,
  noteKeyId,
  parseVkey,
} from './note.js';

/** The signature type byte of Ed25519 cosignatures (C2SP tlog-cosignature, `cosignature/v1`). */
export const NOTE_ALG_COSIGNATURE_V1 = 0x04;

/** The largest timestamp a cosignature may carry (2^63 - 1 seconds). */
const MAX_TIMESTAMP = 2n ** 63n - 1n;
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
  const key = ed25519Public(publicKey);
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

/** A witness's Ed25519 cosigning key from its 32-byte seed (C2SP tlog-cosignature). */
export function ed25519Cosigner(name: string, seed: Uint8Array): Cosigner {
  const { privateKey, publicKey } = ed25519FromSeed(name, seed);
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
  const { name, keyId, publicKey } = parseVkey(
    vkey,
    NOTE_ALG_COSIGNATURE_V1,
    'a cosigner key (type 0x04)',
  );
  return verifierOf(name, keyId, publicKey);
}
