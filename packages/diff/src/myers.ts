import { DIFF_MAX_EDIT_DISTANCE, DIFF_MAX_WORK } from './limits.js';

/** Edit operation: keep a line of both texts. */
export const KEEP = 0;
/** Edit operation: delete a line of the old text. */
export const DELETE = 1;
/** Edit operation: insert a line of the new text. */
export const INSERT = 2;

/** An edit script from `a` to `b`, and whether it is a shortest one. */
export interface EditScript {
  /** One op per line kept, deleted or inserted, in order. */
  readonly ops: Uint8Array;
  /** False when the bounded search gave up and the coarse script was used. */
  readonly exact: boolean;
}

/** Bounds of the search; tests lower them to reach the fallback cheaply. */
export interface SearchBounds {
  readonly maxEditDistance: number;
  readonly maxWork: number;
}

const DEFAULT_BOUNDS: SearchBounds = {
  maxEditDistance: DIFF_MAX_EDIT_DISTANCE,
  maxWork: DIFF_MAX_WORK,
};

/**
 * A shortest edit script by Myers' O(ND) algorithm ("An O(ND) Difference Algorithm
 * and Its Variations", 1986, §2–3), after trimming the common prefix and suffix.
 * The search stops after `maxEditDistance` edits or `maxWork` steps; the script is
 * then the coarse one (prefix and suffix kept, everything between deleted and
 * inserted), which is still correct, only not minimal.
 */
export function editScript(
  a: Int32Array,
  b: Int32Array,
  bounds: SearchBounds = DEFAULT_BOUNDS,
): EditScript {
  let prefix = 0;
  while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < a.length - prefix &&
    suffix < b.length - prefix &&
    a[a.length - 1 - suffix] === b[b.length - 1 - suffix]
  ) {
    suffix++;
  }
  const middleA = a.subarray(prefix, a.length - suffix);
  const middleB = b.subarray(prefix, b.length - suffix);
  const middle =
    middleA.length === 0 || middleB.length === 0 ? null : search(middleA, middleB, bounds);

  const ops = new Uint8Array(
    a.length + b.length - (middle === null ? 0 : countKeeps(middle)) - prefix - suffix,
  );
  let at = 0;
  for (let i = 0; i < prefix; i++) ops[at++] = KEEP;
  if (middle === null) {
    for (let i = 0; i < middleA.length; i++) ops[at++] = DELETE;
    for (let i = 0; i < middleB.length; i++) ops[at++] = INSERT;
  } else {
    ops.set(middle, at);
    at += middle.length;
  }
  for (let i = 0; i < suffix; i++) ops[at++] = KEEP;
  const coarse = middle === null && middleA.length > 0 && middleB.length > 0;
  return { ops: ops.subarray(0, at), exact: !coarse };
}

function countKeeps(ops: Uint8Array): number {
  let keeps = 0;
  for (const op of ops) if (op === KEEP) keeps++;
  return keeps;
}

/**
 * The greedy forward search (Myers §3, "the greedy LCS/SES algorithm"). `history[d]`
 * keeps the furthest x on each diagonal k = -d, -d+2, …, d after d edits, which is
 * all the backtrack needs (about D²/2 integers). Returns null when a bound is hit.
 */
function search(a: Int32Array, b: Int32Array, bounds: SearchBounds): Uint8Array | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, bounds.maxEditDistance);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const history: Int32Array[] = [];
  let work = 0;

  for (let d = 0; d <= max; d++) {
    const row = new Int32Array(d + 1);
    for (let k = -d; k <= d; k += 2) {
      // Step down (an insertion) from diagonal k+1, or right (a deletion) from k-1.
      let x =
        k === -d || (k !== d && (v[offset + k - 1] as number) < (v[offset + k + 1] as number))
          ? (v[offset + k + 1] as number)
          : (v[offset + k - 1] as number) + 1;
      let y = x - k;
      const start = x;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      work += 1 + x - start;
      v[offset + k] = x;
      row[(k + d) >> 1] = x;
      if (x >= n && y >= m) {
        history.push(row);
        return backtrack(history, n, m, d);
      }
    }
    history.push(row);
    if (work > bounds.maxWork) return null;
  }
  return null;
}

function backtrack(
  history: readonly Int32Array[],
  n: number,
  m: number,
  edits: number,
): Uint8Array {
  const reversed = new Uint8Array(n + m);
  let length = 0;
  let x = n;
  let y = m;
  for (let d = edits; d > 0; d--) {
    const previous = history[d - 1] as Int32Array;
    const at = (k: number) => previous[(k + d - 1) >> 1] as number;
    const k = x - y;
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    const snakeStart = down ? previousX : previousX + 1;
    for (let i = x; i > snakeStart; i--) reversed[length++] = KEEP;
    reversed[length++] = down ? INSERT : DELETE;
    x = previousX;
    y = previousY;
  }
  for (let i = x; i > 0; i--) reversed[length++] = KEEP;
  const ops = new Uint8Array(length);
  for (let i = 0; i < length; i++) ops[i] = reversed[length - 1 - i] as number;
  return ops;
}
