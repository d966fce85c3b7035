import { normalizeOctets } from './percent-encoding.js';

/**
 * A robots.txt path pattern prepared for matching. Patterns are never turned into
 * regular expressions (security.md §3.5): the pattern is split on its `*` wildcards
 * into literal pieces that are found left to right, each with a Knuth–Morris–Pratt
 * search, so one match costs time linear in the path plus the pattern.
 */
export interface CompiledPattern {
  /** The pattern in canonical form: normalised octets, `*` wildcards, a final `$` anchor. */
  readonly canonical: string;
  /** Octets of the canonical form: the rule's specificity (RFC 9309 §2.2.2). */
  readonly length: number;
  /** Literal pieces between the wildcards, normalised; empty pieces are kept. */
  readonly pieces: readonly string[];
  /** True when the pattern ends with the `$` end-of-path anchor (RFC 9309 §2.2.3). */
  readonly anchored: boolean;
  /** KMP failure tables of `pieces[1…]` (index 0 is matched as a prefix and has none). */
  readonly tables: readonly (Int32Array | null)[];
}

/** Counts the character comparisons of a match; tests use it to check linear cost. */
export interface StepCounter {
  steps: number;
}

/**
 * Compile a pattern as written after `Allow:`/`Disallow:` (comment and surrounding
 * whitespace already removed). A pattern that starts with neither `/` nor `*` is read
 * as if it started with `/`; every path starts there, so it could never match
 * otherwise (RFC 9309 §2.2.2: "The matching MUST start with the first octet of the path").
 */
export function compilePattern(written: string): CompiledPattern {
  let body = written;
  if (body !== '' && body.charCodeAt(0) !== 0x2f && body.charCodeAt(0) !== 0x2a) {
    body = `/${body}`;
  }
  // RFC 9309 §2.2.3: "$" designates the end of the match pattern. Only a final "$" is
  // special; a "$" elsewhere is an ordinary character.
  const anchored = body.endsWith('$');
  if (anchored) body = body.slice(0, -1);
  if (!body.includes('*')) {
    // The common case, a plain prefix: one piece and no search tables.
    const piece = normalizeOctets(body);
    let text = piece.includes('*') ? piece.replaceAll('*', '%2A') : piece;
    if (text.endsWith('$')) text = `${text.slice(0, -1)}%24`;
    const canonical = anchored ? `${text}$` : text;
    return { canonical, length: canonical.length, pieces: [piece], anchored, tables: [null] };
  }
  const pieces = body.split('*').map(normalizeOctets);
  const last = pieces.length - 1;
  const shown = pieces.map((piece, index) => {
    // A literal "*" can only have been written "%2A"; a literal "$" at the very end must
    // be escaped too, or it would read as the anchor.
    let text = piece.replaceAll('*', '%2A');
    if (index === last && text.endsWith('$')) text = `${text.slice(0, -1)}%24`;
    return text;
  });
  const canonical = shown.join('*') + (anchored ? '$' : '');
  const tables = pieces.map((piece, index) => (index === 0 ? null : failureTable(piece)));
  return { canonical, length: canonical.length, pieces, anchored, tables };
}

/** The KMP failure function: for each prefix, the length of its longest proper border. */
function failureTable(piece: string): Int32Array | null {
  if (piece.length === 0) return null;
  const table = new Int32Array(piece.length);
  let k = 0;
  for (let i = 1; i < piece.length; i++) {
    const code = piece.charCodeAt(i);
    while (k > 0 && piece.charCodeAt(k) !== code) k = table[k - 1] as number;
    if (piece.charCodeAt(k) === code) k++;
    table[i] = k;
  }
  return table;
}

/**
 * First index `>= from` where `piece` occurs in `text`, or -1. Knuth–Morris–Pratt: at
 * most `2 × (text.length − from)` comparisons whatever the input.
 */
function findFrom(
  text: string,
  piece: string,
  table: Int32Array,
  from: number,
  counter: StepCounter | undefined,
): number {
  const m = piece.length;
  let k = 0;
  let steps = 0;
  for (let i = from; i < text.length; i++) {
    const code = text.charCodeAt(i);
    while (k > 0 && piece.charCodeAt(k) !== code) {
      k = table[k - 1] as number;
      steps++;
    }
    steps++;
    if (piece.charCodeAt(k) === code) {
      k++;
      if (k === m) {
        if (counter) counter.steps += steps;
        return i - m + 1;
      }
    }
  }
  if (counter) counter.steps += steps;
  return -1;
}

/**
 * Whether `path` (already normalised with `normalizeRobotsPath`) matches the pattern
 * (RFC 9309 §2.2.2 and §2.2.3). The first piece must be a prefix of the path; each
 * middle piece is found at its leftmost position after the previous one, which is
 * optimal when `*` is the only wildcard; an anchored last piece must end the path
 * without overlapping what came before. Linear in `path.length + pattern length`.
 */
export function matchPattern(
  pattern: CompiledPattern,
  path: string,
  counter?: StepCounter,
): boolean {
  const { pieces, tables, anchored } = pattern;
  const first = pieces[0] as string;
  if (counter) counter.steps += first.length;
  if (pieces.length === 1) return anchored ? path === first : path.startsWith(first);
  if (!path.startsWith(first)) return false;
  let position = first.length;
  const last = pieces.length - 1;
  for (let index = 1; index < last; index++) {
    const piece = pieces[index] as string;
    const table = tables[index];
    if (!table) continue; // "**": an empty piece matches anywhere
    const found = findFrom(path, piece, table, position, counter);
    if (found === -1) return false;
    position = found + piece.length;
  }
  const tail = pieces[last] as string;
  if (anchored) {
    if (counter) counter.steps += tail.length;
    return path.length - tail.length >= position && path.endsWith(tail);
  }
  const table = tables[last];
  if (!table) return true;
  return findFrom(path, tail, table, position, counter) !== -1;
}
