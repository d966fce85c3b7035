import { createHash } from 'node:crypto';

/** A sha256 digest as `0x` followed by 64 lower-case hex digits. */
export type Sha256Hex = `0x${string}`;

const SHA256_HEX = /^0x[0-9a-f]{64}$/;

/**
 * The sha256 of a string (hashed as its UTF-8 bytes) or of raw bytes, as `0x` + hex.
 *
 * @example
 *   sha256Hex('abc') // '0xba7816bf…f20015ad'
 */
export function sha256Hex(input: string | Uint8Array): Sha256Hex {
  return `0x${createHash('sha256').update(input).digest('hex')}`;
}

/** Whether `value` is a well-formed `0x` + 64 lower-case hex sha256 digest. */
export function isSha256Hex(value: unknown): value is Sha256Hex {
  return typeof value === 'string' && SHA256_HEX.test(value);
}

/** The number of bytes `text` takes in UTF-8. */
export function utf8ByteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
