import { describe, expect, it } from 'vitest';
import {
  ACCESS_TOKEN_SECONDS,
  accessTokenSecret,
  accessTokens,
} from '../src/metering/access-tokens.js';
import { hashKey, mintKey } from '../src/metering/keys.js';

const KEY_HASH = hashKey(mintKey('live').key);
const T0 = new Date('2026-11-29T12:00:00Z');
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

describe('OAuth access tokens', () => {
  const tokens = accessTokens(accessTokenSecret(`0x${'11'.repeat(32)}`));

  it('stand for their key until they expire, then are refused as expired', () => {
    const { token, expiresIn } = tokens.issue(KEY_HASH, T0);
    expect(expiresIn).toBe(ACCESS_TOKEN_SECONDS);
    expect(token).toMatch(/^mk_at_/);
    expect(tokens.credential(`Bearer ${token}`, T0)).toStrictEqual({
      kind: 'key',
      keyHash: KEY_HASH,
    });
    expect(tokens.credential(`Bearer ${token}`, later(ACCESS_TOKEN_SECONDS - 1)).kind).toBe('key');
    expect(tokens.credential(`Bearer ${token}`, later(ACCESS_TOKEN_SECONDS))).toStrictEqual({
      kind: 'expired',
    });
  });

  it('refuse a token with any character changed, or made under another secret', () => {
    const { token } = tokens.issue(KEY_HASH, T0);
    for (let i = 'mk_at_'.length; i < token.length; i += 7) {
      const swapped = token[i] === '0' ? '1' : '0';
      const edited = `${token.slice(0, i)}${swapped}${token.slice(i + 1)}`;
      expect(tokens.credential(`Bearer ${edited}`, T0).kind, edited).not.toBe('key');
    }
    const other = accessTokens(accessTokenSecret(`0x${'22'.repeat(32)}`));
    expect(other.credential(`Bearer ${token}`, T0)).toStrictEqual({ kind: 'malformed' });
  });

  it('read a key as its hash, and say why a header names nothing', () => {
    const { key } = mintKey('test');
    expect(tokens.credential(`Bearer ${key}`, T0)).toStrictEqual({
      kind: 'key',
      keyHash: hashKey(key),
    });
    expect(tokens.credential(undefined, T0)).toStrictEqual({ kind: 'missing' });
    expect(tokens.credential('Bearer nope', T0)).toStrictEqual({ kind: 'malformed' });
    expect(tokens.credential('Bearer mk_at_short', T0)).toStrictEqual({ kind: 'malformed' });
  });

  it('derive the same secret on every instance with the same signer key', () => {
    const a = accessTokens(accessTokenSecret(`0x${'33'.repeat(32)}`));
    const b = accessTokens(accessTokenSecret(`0x${'33'.repeat(32)}`));
    const { token } = a.issue(KEY_HASH, T0);
    expect(b.credential(`Bearer ${token}`, T0)).toStrictEqual({ kind: 'key', keyHash: KEY_HASH });
  });
});
