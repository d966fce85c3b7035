import { createHash } from 'node:crypto';

/** The size in bytes of every hash in the log (SHA-256). */
export const HASH_SIZE = 32;

const LEAF_PREFIX = Uint8Array.of(0x00);
const UTF8 = new TextEncoder();
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const NODE_PREFIX = Uint8Array.of(0x01);

/** The hash of a log entry (RFC 6962 §2.1): `SHA-256(0x00 || entry)`. */
export function leafHash(entry: Uint8Array | string): Uint8Array {
  const hash = createHash('sha256').update(LEAF_PREFIX);
  hash.update(typeof entry === 'string' ? UTF8.encode(entry) : entry);
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

/**
 * Standard base64 (RFC 4648 §4, padded), the encoding of hashes in checkpoints. Written
 * out (no `Buffer`), so the checks run in a browser too.
 */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i] as number;
    const b = bytes[i + 1];
    const c = bytes[i + 2];
    const n = (a << 16) | ((b ?? 0) << 8) | (c ?? 0);
    out += BASE64[(n >> 18) & 63] as string;
    out += BASE64[(n >> 12) & 63] as string;
    out += b === undefined ? '=' : (BASE64[(n >> 6) & 63] as string);
    out += c === undefined ? '=' : (BASE64[n & 63] as string);
  }
  return out;
}

/** Decodes strict, padded standard base64; `null` when `text` is not exactly that. */
export function fromBase64(text: string): Uint8Array | null {
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return null;
  const pad = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  const bytes = new Uint8Array((text.length / 4) * 3 - pad);
  let at = 0;
  for (let i = 0; i < text.length; i += 4) {
    let n = 0;
    for (let j = 0; j < 4; j++) {
      const c = text[i + j] as string;
      n = (n << 6) | (c === '=' ? 0 : BASE64.indexOf(c));
    }
    if (at < bytes.length) bytes[at++] = (n >> 16) & 255;
    if (at < bytes.length) bytes[at++] = (n >> 8) & 255;
    if (at < bytes.length) bytes[at++] = n & 255;
  }
  // Only the canonical spelling (no stray bits in the last character).
  return toBase64(bytes) === text ? bytes : null;
}
