import { createHash } from 'node:crypto';

/** The size in bytes of every hash in the log (SHA-256). */
export const HASH_SIZE = 32;

const LEAF_PREFIX = Uint8Array.of(0x00);
const NODE_PREFIX = Uint8Array.of(0x01);

/** The hash of a log entry (RFC 6962 §2.1): `SHA-256(0x00 || entry)`. */
export function leafHash(entry: Uint8Array | string): Uint8Array {
  const hash = createHash('sha256').update(LEAF_PREFIX);
  hash.update(typeof entry === 'string' ? Buffer.from(entry, 'utf8') : entry);
  return new Uint8Array(hash.digest());
}

/** The hash of an interior node (RFC 6962 §2.1): `SHA-256(0x01 || left || right)`. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Uint8Array {
  return new Uint8Array(
    createHash('sha256').update(NODE_PREFIX).update(left).update(right).digest(),
  );
}

/** The root of the empty tree (RFC 6962 §2.1): SHA-256 of no bytes. */
export function emptyRoot(): Uint8Array {
  return new Uint8Array(createHash('sha256').digest());
}

/** Whether two byte strings are equal. */
export function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Standard base64 (RFC 4648 §4, padded), the encoding of hashes in checkpoints. */
export function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** Decodes strict, padded standard base64; `null` when `text` is not exactly that. */
export function fromBase64(text: string): Uint8Array | null {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return null;
  const bytes = new Uint8Array(Buffer.from(text, 'base64'));
  return toBase64(bytes) === text ? bytes : null;
}
