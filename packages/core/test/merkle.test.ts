import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MERKLE_TREE, merkleRoot, StorefrontError, sha256Hex } from '../src/index.js';

const h = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const leaf = (hex: string) => h(Buffer.from([0]), Buffer.from(hex.slice(2), 'hex'));
const node = (a: Buffer, b: Buffer) => h(Buffer.from([1]), a, b);
const hex = (b: Buffer) => `0x${b.toString('hex')}`;
const leaves = (n: number) => Array.from({ length: n }, (_, i) => sha256Hex(`page ${i}`));

describe('merkleRoot (RFC 6962 §2.1)', () => {
  it('names its tree', () => {
    expect(MERKLE_TREE).toBe('rfc6962-sha256');
  });

  it('hashes the empty list as SHA-256 of nothing', () => {
    expect(merkleRoot([])).toBe(hex(h(Buffer.alloc(0))));
  });

  it('splits at the largest power of two below the count', () => {
    const [a, b, c, d, e] = leaves(5) as [string, string, string, string, string];
    expect(merkleRoot([a])).toBe(hex(leaf(a)));
    expect(merkleRoot([a, b])).toBe(hex(node(leaf(a), leaf(b))));
    expect(merkleRoot([a, b, c])).toBe(hex(node(node(leaf(a), leaf(b)), leaf(c))));
    const four = node(node(leaf(a), leaf(b)), node(leaf(c), leaf(d)));
    expect(merkleRoot([a, b, c, d])).toBe(hex(four));
    expect(merkleRoot([a, b, c, d, e])).toBe(hex(node(four, leaf(e))));
  });

  it('changes with any leaf, its order, or its count', () => {
    const list = leaves(10);
    const root = merkleRoot(list);
    expect(merkleRoot([...list].reverse())).not.toBe(root);
    expect(merkleRoot(list.slice(1))).not.toBe(root);
    expect(merkleRoot([...list.slice(0, 9), sha256Hex('other')])).not.toBe(root);
    expect(merkleRoot(list)).toBe(root);
  });

  it('refuses a leaf that is not a sha256 digest', () => {
    expect(() => merkleRoot(['0x12'])).toThrow(StorefrontError);
    expect(() => merkleRoot([sha256Hex('a').toUpperCase()])).toThrow(/leaf 0/);
  });
});
