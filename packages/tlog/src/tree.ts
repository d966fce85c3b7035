import { TlogError } from './errors.js';
import { bytesEqual, emptyRoot, HASH_SIZE, nodeHash } from './hash.js';

/**
 * A perfect subtree of the log: the node at `level` (0 = a leaf) and `index` within that
 * level, covering leaves `[index * 2^level, (index + 1) * 2^level)`. Once the log holds all
 * of its leaves, the node's hash never changes: these are the hashes a log stores.
 */
export interface NodeId {
  readonly level: number;
  readonly index: number;
}

/** A stored node and its hash. */
export interface StoredNode extends NodeId {
  readonly hash: Uint8Array;
}

/**
 * Reads the hashes of stored nodes, in the order asked; a reader that lacks one throws
 * (`missing_hash`). Proof generation asks for every node it needs in one call.
 */
export type HashReader = (
  nodes: readonly NodeId[],
) => Promise<readonly Uint8Array[]> | readonly Uint8Array[];

function checkSize(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new TlogError('invalid_argument', `\`${name}\` must be a safe integer ≥ 0, not ${value}`);
  }
}

/** The largest power of two strictly below `n` (n > 1): RFC 6962's split point `k`. */
function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The perfect subtrees that make up leaves `[lo, hi)`, left to right (largest first): for
 * `[0, size)` these are the nodes a tree of `size` leaves is folded from, and for any
 * subtree RFC 6962 names, the stored hashes its hash is computed from.
 */
export function subtreeNodes(lo: number, hi: number): NodeId[] {
  checkSize('lo', lo);
  checkSize('hi', hi);
  const nodes: NodeId[] = [];
  let at = lo;
  while (at < hi) {
    let size = 1;
    let level = 0;
    while (at % (size * 2) === 0 && at + size * 2 <= hi) {
      size *= 2;
      level++;
    }
    nodes.push({ level, index: at / size });
    at += size;
  }
  return nodes;
}

/** Folds the hashes of `subtreeNodes(lo, hi)` into the hash of that subtree (right to left). */
export function foldHashes(hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) return emptyRoot();
  let hash = hashes[hashes.length - 1] as Uint8Array;
  for (let i = hashes.length - 2; i >= 0; i--) hash = nodeHash(hashes[i] as Uint8Array, hash);
  return hash;
}

type Range = readonly [lo: number, hi: number];

/** RFC 6962 §2.1.1 PATH(m, D[lo:hi]) as the ranges whose hashes it lists, leaf first. */
function pathRanges(m: number, lo: number, hi: number, out: Range[]): void {
  const n = hi - lo;
  if (n <= 1) return;
  const k = splitPoint(n);
  if (m - lo < k) {
    pathRanges(m, lo, lo + k, out);
    out.push([lo + k, hi]);
  } else {
    pathRanges(m, lo + k, hi, out);
    out.push([lo, lo + k]);
  }
}

/** RFC 6962 §2.1.2 SUBPROOF(m, D[lo:hi], b) as the ranges whose hashes it lists. */
function subproofRanges(m: number, lo: number, hi: number, b: boolean, out: Range[]): void {
  const n = hi - lo;
  if (m === n) {
    if (!b) out.push([lo, hi]);
    return;
  }
  const k = splitPoint(n);
  if (m <= k) {
    subproofRanges(m, lo, lo + k, b, out);
    out.push([lo + k, hi]);
  } else {
    subproofRanges(m - k, lo + k, hi, false, out);
    out.push([lo, lo + k]);
  }
}

async function hashRanges(ranges: readonly Range[], read: HashReader): Promise<Uint8Array[]> {
  const plans = ranges.map(([lo, hi]) => subtreeNodes(lo, hi));
  const nodes = plans.flat();
  const hashes = nodes.length === 0 ? [] : await read(nodes);
  if (hashes.length !== nodes.length || hashes.some((h) => h?.length !== HASH_SIZE)) {
    throw new TlogError(
      'missing_hash',
      `the hash reader answered ${hashes.length} of ${nodes.length} hashes`,
    );
  }
  const out: Uint8Array[] = [];
  let at = 0;
  for (const plan of plans) {
    out.push(foldHashes(hashes.slice(at, at + plan.length)));
    at += plan.length;
  }
  return out;
}

/** The root hash of the first `size` leaves (RFC 6962 §2.1 MTH), from stored hashes. */
export async function treeHash(size: number, read: HashReader): Promise<Uint8Array> {
  checkSize('size', size);
  if (size === 0) return emptyRoot();
  const [root] = await hashRanges([[0, size]], read);
  return root as Uint8Array;
}

/**
 * The inclusion proof of leaf `index` in the tree of `size` leaves (RFC 9162 §2.1.3.1,
 * RFC 6962 §2.1.1 PATH), from stored hashes: the audit path, leaf level first.
 */
export async function proveInclusion(
  index: number,
  size: number,
  read: HashReader,
): Promise<Uint8Array[]> {
  checkSize('index', index);
  checkSize('size', size);
  if (index >= size) {
    throw new TlogError('invalid_argument', `leaf ${index} is not in a tree of ${size} leaves`);
  }
  const ranges: Range[] = [];
  pathRanges(index, 0, size, ranges);
  return hashRanges(ranges, read);
}

/**
 * The consistency proof from the tree of `oldSize` leaves to the tree of `newSize`
 * (RFC 9162 §2.1.4.1, RFC 6962 §2.1.2 PROOF), from stored hashes; empty when the sizes
 * are equal or `oldSize` is 0.
 */
export async function proveConsistency(
  oldSize: number,
  newSize: number,
  read: HashReader,
): Promise<Uint8Array[]> {
  checkSize('oldSize', oldSize);
  checkSize('newSize', newSize);
  if (oldSize > newSize) {
    throw new TlogError('invalid_argument', `old size ${oldSize} is above new size ${newSize}`);
  }
  if (oldSize === 0 || oldSize === newSize) return [];
  const ranges: Range[] = [];
  subproofRanges(oldSize, 0, newSize, true, ranges);
  return hashRanges(ranges, read);
}

/**
 * Whether `proof` proves the leaf hashed `leaf` is entry `index` of the tree of `size`
 * leaves whose root is `root`: RFC 9162 §2.1.3.2, step by step.
 */
export function verifyInclusion(
  leaf: Uint8Array,
  index: number,
  size: number,
  proof: readonly Uint8Array[],
  root: Uint8Array,
): boolean {
  checkSize('index', index);
  checkSize('size', size);
  // 1. Compare leaf_index from the inclusion_proof_v2 structure against tree_size.
  if (index >= size) return false;
  // 2. Set fn to leaf_index and sn to tree_size - 1.
  let fn = index;
  let sn = size - 1;
  // 3. Set r to hash.
  let r = leaf;
  // 4. For each value p in the inclusion_path array:
  for (const p of proof) {
    // a. If sn is 0, then stop the iteration and fail the proof verification.
    if (sn === 0) return false;
    // b. If LSB(fn) is set, or if fn is equal to sn, then:
    if (fn % 2 === 1 || fn === sn) {
      r = nodeHash(p, r);
      // If LSB(fn) is not set, right-shift fn and sn equally until LSB(fn) is set or fn is 0.
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      // Otherwise: set r to HASH(0x01 || r || p).
      r = nodeHash(r, p);
    }
    // c. Finally, right-shift both fn and sn one time.
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  // 5. Compare sn to 0. Compare r against the root_hash.
  return sn === 0 && bytesEqual(r, root);
}

/**
 * Whether `proof` proves the tree of `newSize` leaves with root `newRoot` extends the tree
 * of `oldSize` leaves with root `oldRoot`: RFC 9162 §2.1.4.2, step by step. Equal sizes
 * need an empty proof and equal roots; an empty old tree is consistent with every tree
 * (and needs an empty proof).
 */
export function verifyConsistency(
  oldSize: number,
  newSize: number,
  oldRoot: Uint8Array,
  newRoot: Uint8Array,
  proof: readonly Uint8Array[],
): boolean {
  checkSize('oldSize', oldSize);
  checkSize('newSize', newSize);
  if (oldSize > newSize) return false;
  if (oldSize === 0) return proof.length === 0;
  // 1. If first is equal to second, verify that consistency_path is empty and the hashes match.
  if (oldSize === newSize) return proof.length === 0 && bytesEqual(oldRoot, newRoot);
  // 2. If consistency_path is an empty array, stop and fail the proof verification.
  if (proof.length === 0) return false;
  // 3. If first is an exact power of 2, then prepend first_hash to the consistency_path array.
  const path = isPowerOfTwo(oldSize) ? [oldRoot, ...proof] : [...proof];
  // 4. Set fn to first - 1 and sn to second - 1.
  let fn = oldSize - 1;
  let sn = newSize - 1;
  // 5. If LSB(fn) is set, then right-shift both fn and sn equally until LSB(fn) is not set.
  while (fn % 2 === 1) {
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  // 6. Set both fr and sr to the first value in the consistency_path array.
  let fr = path[0] as Uint8Array;
  let sr = fr;
  // 7. For each subsequent value c in the consistency_path array:
  for (const c of path.slice(1)) {
    // a. If sn is 0, then stop the iteration and fail the proof verification.
    if (sn === 0) return false;
    // b. If LSB(fn) is set, or if fn is equal to sn, then:
    if (fn % 2 === 1 || fn === sn) {
      fr = nodeHash(c, fr);
      sr = nodeHash(c, sr);
      // If LSB(fn) is not set, right-shift fn and sn equally until LSB(fn) is set or fn is 0.
      while (fn % 2 === 0 && fn !== 0) {
        fn = Math.floor(fn / 2);
        sn = Math.floor(sn / 2);
      }
    } else {
      // Otherwise: set sr to HASH(0x01 || sr || c).
      sr = nodeHash(sr, c);
    }
    // c. Finally, right-shift both fn and sn one time.
    fn = Math.floor(fn / 2);
    sn = Math.floor(sn / 2);
  }
  // 8. Verify fr equals first_hash, sr equals second_hash and sn is 0.
  return bytesEqual(fr, oldRoot) && bytesEqual(sr, newRoot) && sn === 0;
}

function isPowerOfTwo(n: number): boolean {
  let k = 1;
  while (k < n) k *= 2;
  return k === n;
}

/** What appending leaves to a tree gives: the nodes to store, the new frontier and root. */
export interface Appended {
  readonly size: number;
  /** Every node completed by the new leaves (the leaves included), to store. */
  readonly nodes: readonly StoredNode[];
  /** The hashes of `subtreeNodes(0, size)`: what the next append starts from. */
  readonly frontier: readonly Uint8Array[];
  readonly root: Uint8Array;
}

/**
 * Appends leaf hashes to a tree of `size` leaves whose frontier (the hashes of
 * `subtreeNodes(0, size)`, read from storage) is `frontier`, and returns the nodes the new
 * leaves complete: a log stores them, and every tile, root and proof is made from them.
 */
export function appendLeaves(
  size: number,
  frontier: readonly Uint8Array[],
  leaves: readonly Uint8Array[],
): Appended {
  checkSize('size', size);
  const edge = subtreeNodes(0, size);
  if (edge.length !== frontier.length) {
    throw new TlogError(
      'invalid_argument',
      `a tree of ${size} leaves has a frontier of ${edge.length} hashes, not ${frontier.length}`,
    );
  }
  const stack: StoredNode[] = edge.map((node, i) => ({ ...node, hash: frontier[i] as Uint8Array }));
  const nodes: StoredNode[] = [];
  let next = size;
  for (const leaf of leaves) {
    if (leaf.length !== HASH_SIZE) {
      throw new TlogError(
        'invalid_argument',
        `a leaf hash has ${HASH_SIZE} bytes, not ${leaf.length}`,
      );
    }
    let node: StoredNode = { level: 0, index: next++, hash: leaf };
    nodes.push(node);
    // A right child completes its parent: merge while the top of the stack is its sibling.
    while (stack.length > 0 && (stack[stack.length - 1] as StoredNode).level === node.level) {
      const left = stack.pop() as StoredNode;
      node = { level: node.level + 1, index: left.index / 2, hash: nodeHash(left.hash, node.hash) };
      nodes.push(node);
    }
    stack.push(node);
  }
  const hashes = stack.map((node) => node.hash);
  return { size: next, nodes, frontier: hashes, root: foldHashes(hashes) };
}
