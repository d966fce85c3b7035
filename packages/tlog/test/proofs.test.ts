import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  appendLeaves,
  emptyRoot,
  leafHash,
  proveConsistency,
  proveInclusion,
  subtreeNodes,
  treeHash,
  verifyConsistency,
  verifyInclusion,
} from '../src/index.js';
import { entry, flip, memoryLog } from './helpers.js';

const log = memoryLog(140, 5);

describe('appendLeaves', () => {
  it('gives the same nodes whatever the batch size', () => {
    const one = memoryLog(300, 1);
    const many = memoryLog(300, 97);
    expect([...many.hashes.keys()].sort()).toStrictEqual([...one.hashes.keys()].sort());
    for (const [key, hash] of one.hashes) expect(many.hashes.get(key)).toStrictEqual(hash);
  });

  it('stores every complete node once: 2n − popcount(n) of them', () => {
    const n = 300;
    const ones = n.toString(2).replaceAll('0', '').length;
    expect(memoryLog(n, 11).hashes.size).toBe(2 * n - ones);
  });

  it('returns the root of the new tree and refuses a wrong frontier', async () => {
    const appended = appendLeaves(0, [], [leafHash('a'), leafHash('b'), leafHash('c')]);
    expect(appended.size).toBe(3);
    expect(appended.frontier).toHaveLength(subtreeNodes(0, 3).length);
    expect(appendLeaves(0, [], []).root).toStrictEqual(emptyRoot());
    expect(() => appendLeaves(3, [], [])).toThrow(
      expect.objectContaining({ code: 'invalid_argument' }),
    );
    expect(await treeHash(0, log.read)).toStrictEqual(emptyRoot());
  });
});

describe('subtreeNodes', () => {
  it('splits a range into aligned perfect subtrees, largest first', () => {
    expect(subtreeNodes(0, 13)).toStrictEqual([
      { level: 3, index: 0 },
      { level: 2, index: 2 },
      { level: 0, index: 12 },
    ]);
    expect(subtreeNodes(8, 13)).toStrictEqual([
      { level: 2, index: 2 },
      { level: 0, index: 12 },
    ]);
  });
});

describe('inclusion proofs', () => {
  it('verify for every leaf of every tree up to 140 leaves, and fail when edited', async () => {
    for (let size = 1; size <= 140; size++) {
      const root = await treeHash(size, log.read);
      for (let index = 0; index < size; index++) {
        const proof = await proveInclusion(index, size, log.read);
        const leaf = leafHash(entry(index));
        expect(verifyInclusion(leaf, index, size, proof, root)).toBe(true);
        expect(verifyInclusion(flip(leaf), index, size, proof, root)).toBe(false);
        expect(verifyInclusion(leaf, index, size, proof, flip(root, 31))).toBe(false);
        if (proof.length > 0) {
          const edited = [...proof];
          const last = edited.length - 1;
          edited[last] = flip(edited[last] as Uint8Array, 7);
          expect(verifyInclusion(leaf, index, size, edited, root)).toBe(false);
          expect(verifyInclusion(leaf, index, size, proof.slice(0, -1), root)).toBe(false);
        }
        if (size > 1)
          expect(verifyInclusion(leaf, (index + 1) % size, size, proof, root)).toBe(false);
      }
    }
  });

  it('refuses a leaf outside the tree', async () => {
    await expect(proveInclusion(5, 5, log.read)).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect(verifyInclusion(leafHash('x'), 5, 5, [], emptyRoot())).toBe(false);
  });
});

describe('consistency proofs', () => {
  it('verify between every two sizes up to 70, and fail when edited', async () => {
    for (let size = 1; size <= 70; size++) {
      const newRoot = await treeHash(size, log.read);
      for (let old = 0; old <= size; old++) {
        const oldRoot = await treeHash(old, log.read);
        const proof = await proveConsistency(old, size, log.read);
        expect(verifyConsistency(old, size, oldRoot, newRoot, proof), `${old}→${size}`).toBe(true);
        if (old === 0) continue;
        expect(verifyConsistency(old, size, flip(oldRoot), newRoot, proof)).toBe(false);
        expect(verifyConsistency(old, size, oldRoot, flip(newRoot), proof)).toBe(false);
        for (let at = 0; at < proof.length; at++) {
          const edited = [...proof];
          edited[at] = flip(edited[at] as Uint8Array, 3);
          expect(verifyConsistency(old, size, oldRoot, newRoot, edited)).toBe(false);
        }
        if (old < size) {
          expect(verifyConsistency(old, size, oldRoot, newRoot, [])).toBe(false);
        }
      }
    }
  });

  it('refuses an old size above the new one', async () => {
    await expect(proveConsistency(6, 5, log.read)).rejects.toMatchObject({
      code: 'invalid_argument',
    });
    expect(verifyConsistency(6, 5, emptyRoot(), emptyRoot(), [])).toBe(false);
  });
});

describe('properties', () => {
  const big = memoryLog(2049, 64);

  test.prop([
    fc
      .integer({ min: 1, max: 2049 })
      .chain((size) => fc.tuple(fc.constant(size), fc.nat(size - 1))),
  ])('an inclusion proof verifies only for its own leaf', async ([size, index]) => {
    const root = await treeHash(size, big.read);
    const proof = await proveInclusion(index, size, big.read);
    expect(verifyInclusion(leafHash(entry(index)), index, size, proof, root)).toBe(true);
    expect(verifyInclusion(leafHash(entry(index + 1)), index, size, proof, root)).toBe(false);
  });

  test.prop([
    fc.integer({ min: 1, max: 2049 }).chain((size) => fc.tuple(fc.nat(size), fc.constant(size))),
  ])('a consistency proof verifies between its two sizes', async ([old, size]) => {
    const proof = await proveConsistency(old, size, big.read);
    const ok = verifyConsistency(
      old,
      size,
      await treeHash(old, big.read),
      await treeHash(size, big.read),
      proof,
    );
    expect(ok).toBe(true);
  });
});
