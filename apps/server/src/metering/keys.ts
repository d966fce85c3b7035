import { createHash, randomBytes } from 'node:crypto';

/** Prefixes of raw keys (spec "API key"). */
export const KEY_PREFIX = { test: 'mk_test_', live: 'mk_live_' } as const;

/** Random bytes per key: 32 bytes = 256 bits (at least 192 are required). */
const KEY_BYTES = 32;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** Characters of base62 that 32 random bytes need (ceil(256 / log2 62)). */
const BODY_CHARS = 43;
const KEY_SHAPE = /^mk_(test|live)_[0-9A-Za-z]{43}$/;

/** A freshly minted key: the raw key is shown once and never stored. */
export interface MintedKey {
  readonly key: string;
  readonly keyId: string;
  readonly hash: string;
  readonly tail: string;
  readonly env: 'test' | 'live';
}

/** Mint a key: 256 random bits in base62 behind the env prefix, and a public id. */
export function mintKey(env: 'test' | 'live'): MintedKey {
  const key = `${KEY_PREFIX[env]}${base62(randomBytes(KEY_BYTES), BODY_CHARS)}`;
  return {
    key,
    keyId: `key_${randomBytes(12).toString('hex')}`,
    hash: hashKey(key),
    tail: key.slice(-4),
    env,
  };
}

/** The stored form of a key: sha256 hex. */
export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** True when `value` has the shape of a key we mint (checked before hashing or lookup). */
export function isKeyShaped(value: string): boolean {
  return KEY_SHAPE.test(value);
}

/**
 * The bearer token of an `Authorization` header: `missing` when there is none,
 * `malformed` when the header is not `Bearer <key>` or the key has the wrong shape.
 */
export function bearerKey(
  header: string | undefined,
): { kind: 'missing' } | { kind: 'malformed' } | { kind: 'key'; key: string } {
  if (header === undefined || header.trim() === '') return { kind: 'missing' };
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header);
  if (!match?.[1] || !isKeyShaped(match[1])) return { kind: 'malformed' };
  return { kind: 'key', key: match[1] };
}

/** Big-endian base62 of `bytes`, left-padded to `width` characters. */
function base62(bytes: Uint8Array, width: number): string {
  let value = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (value > 0n) {
    out = BASE62[Number(value % 62n)] + out;
    value /= 62n;
  }
  return out.padStart(width, '0');
}
