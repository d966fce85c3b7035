import { createPublicKey, sign, verify } from 'node:crypto';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { ed25519PrivateKey, ed25519Signer } from '../src/http/ed25519.js';

const seeds = fc.uint8Array({ minLength: 32, maxLength: 32 });
const messages = fc.uint8Array({ maxLength: 2048 });

describe('ed25519Signer', () => {
  it('signs on libsodium on this platform', () => {
    expect(ed25519Signer(new Uint8Array(32).fill(7)).backend).toBe('libsodium');
  });

  test.prop([seeds, messages])('signs exactly as node:crypto', (seed, message) => {
    const { sign: signed } = ed25519Signer(seed);
    const privateKey = ed25519PrivateKey(seed);
    const signature = signed(message);
    expect(signature.toString('hex')).toBe(sign(null, message, privateKey).toString('hex'));
    expect(verify(null, message, createPublicKey(privateKey), signature)).toBe(true);
  });

  it('gives each message its own signature', () => {
    const { sign: signed } = ed25519Signer(new Uint8Array(32).fill(1));
    const one = signed(Buffer.from('@status: 200'));
    const other = signed(Buffer.from('@status: 201'));
    expect(one).toHaveLength(64);
    expect(one.equals(other)).toBe(false);
  });
});
