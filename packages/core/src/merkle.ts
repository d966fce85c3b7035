import { createHash } from 'node:crypto';
import { StorefrontError } from './errors.js';
import { isSha256Hex, type Sha256Hex } from './hash.js';

/** The tree hash a crawl manifest names: RFC 6962 §2.1 over SHA-256. */
export const MERKLE_TREE = 'rfc6962-sha256';

/**
 * The Merkle tree hash of `leaves` as RFC 6962 §2.1 defines it: a leaf hashes as
 * `SHA-256(0x00 || leaf)`, two subtrees as `SHA-256(0x01 || left || right)`, the list
 * split at the largest power of two below its length; the empty list hashes as
 * `SHA-256("")`. Each leaf is a sha256 digest (`0x` + 64 hex digits, such as a
 * receipt's `contentHash`) taken as its 32 bytes.
 *
 * @example
 *   merkleRoot([sha256Hex('a'), sha256Hex('b')]) // '0x…', the same on every machine
 */
export function merkleRoot(leaves: readonly string[]): Sha256Hex {
  const level: Buffer[] = leaves.map((leaf, index) => {
    if (!isSha256Hex(leaf)) {
      throw new StorefrontError(
        'invalid_params',
        `Expected leaf ${index} to be 0x + 64 lower-case hex digits, got \`${String(leaf).slice(0, 80)}\``,
      );
    }
    return hash(LEAF, Buffer.from(leaf.slice(2), 'hex'));
  });
  if (level.length === 0) return `0x${createHash('sha256').digest('hex')}`;
  return `0x${subtree(level, 0, level.length).toString('hex')}`;
}

const LEAF = Buffer.from([0]);
const NODE = Buffer.from([1]);

function hash(prefix: Buffer, ...parts: Buffer[]): Buffer {
  const h = createHash('sha256').update(prefix);
  for (const part of parts) h.update(part);
  return h.digest();
}

/** The hash of leaf hashes `[from, to)`: split at the largest power of two below the count. */
function subtree(hashes: readonly Buffer[], from: number, to: number): Buffer {
  const n = to - from;
  if (n === 1) return hashes[from] as Buffer;
  let k = 1;
  while (k * 2 < n) k *= 2;
  return hash(NODE, subtree(hashes, from, from + k), subtree(hashes, from + k, to));
}
