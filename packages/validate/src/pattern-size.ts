/** The weight of a Unicode property escape (`\p{L}`): RE2 compiles it to hundreds of byte ranges. */
const PROPERTY_WEIGHT = 16;
/** The weight of `.`, a negated class or `\D \W \S`: several UTF-8 byte sequences. */
const WIDE_WEIGHT = 2;

interface Frame {
  /** Size of the alternatives already closed by `|`. */
  alternatives: number;
  /** Size of the alternative being read. */
  current: number;
  /** Size of the last atom, which a following quantifier repeats. */
  last: number;
}

/** What {@link analyzePattern} finds out about a pattern. */
export interface PatternShape {
  /** Estimated automaton size, counted repetitions expanded. */
  readonly size: number;
  /**
   * True for a single anchored chain: it starts with `^`, has no `|`, no optional or
   * variable-count part, and repeats without bound (`*`, `+`, `{n,}`) at most its last
   * atom. Its automaton follows one path, so RE2 never needs more than `size` states.
   */
  readonly narrow: boolean;
}

/**
 * Estimate the size of the automaton RE2 builds for a pattern, with counted repetitions
 * expanded: `a{100}` counts 100, `(ab){3}` counts 9, `\p{L}` counts 16. RE2 runs in time
 * linear in the subject, but when its DFA cache overflows it falls back to an NFA whose
 * cost per character grows with this size (measured: `a[ab]{250}c` reads about 7 µs per
 * character), so the size is both capped and charged to the work budget. An estimate, not
 * a parser: unknown constructs count 1, and RE2 remains the judge of syntax.
 */
export function patternSize(source: string): number {
  return analyzePattern(source).size;
}

/** Size and shape of a pattern (see {@link patternSize} and {@link PatternShape}). */
export function analyzePattern(source: string): PatternShape {
  const frames: Frame[] = [{ alternatives: 0, current: 0, last: 0 }];
  const n = source.length;
  let i = 0;
  let branching = false;
  /** Offset just after the last unbounded quantifier, when it closed the top level. */
  let loopEnd = -1;
  let loops = 0;
  const atom = (weight: number) => {
    const frame = frames[frames.length - 1] as Frame;
    frame.current += weight;
    frame.last = weight;
  };
  while (i < n) {
    const c = source[i] as string;
    const frame = frames[frames.length - 1] as Frame;
    switch (c) {
      case '\\': {
        const [weight, length] = escapeWeight(source, i);
        atom(weight);
        i += length;
        break;
      }
      case '[': {
        const [weight, length] = classWeight(source, i);
        atom(weight);
        i += length;
        break;
      }
      case '(': {
        frames.push({ alternatives: 0, current: 0, last: 0 });
        i += 1 + groupPrefixLength(source, i + 1);
        break;
      }
      case ')': {
        if (frames.length > 1) {
          frames.pop();
          atom(frame.alternatives + frame.current + 1);
        } else {
          atom(1);
        }
        i++;
        break;
      }
      case '|': {
        branching = true;
        frame.alternatives += frame.current + 1;
        frame.current = 0;
        frame.last = 0;
        i++;
        break;
      }
      case '*':
      case '+':
      case '?': {
        frame.current += 1;
        i++;
        if (c === '?') {
          branching = true;
        } else {
          loops++;
          if (frames.length === 1) loopEnd = i;
        }
        if (source[i] === '?') i++;
        break;
      }
      case '{': {
        const match = /\{([0-9]{1,9})(?:(,)([0-9]{0,9}))?\}/y;
        match.lastIndex = i;
        const found = match.exec(source);
        if (found === null) {
          atom(1);
          i++;
          break;
        }
        const least = Number(found[1]);
        const most =
          found[2] === undefined ? least : found[3] === '' ? least + 1 : Number(found[3]);
        if (found[3] === '') {
          loops++;
          if (frames.length === 1) loopEnd = i + found[0].length;
        } else if (most !== least) {
          branching = true;
        }
        const times = Math.max(least, most, 1);
        frame.current += frame.last * (times - 1) + 1;
        frame.last *= times;
        i += found[0].length;
        if (source[i] === '?') i++;
        break;
      }
      case '.':
        atom(WIDE_WEIGHT);
        i++;
        break;
      default: {
        atom(1);
        const code = source.charCodeAt(i);
        i += code >= 0xd800 && code <= 0xdbff ? 2 : 1;
      }
    }
  }
  while (frames.length > 1) {
    const frame = frames.pop() as Frame;
    atom(frame.alternatives + frame.current + 1);
  }
  const root = frames[0] as Frame;
  const size = root.alternatives + root.current;
  const tail = source.slice(loopEnd).replace(/^\?/, '');
  const narrow =
    source.startsWith('^') &&
    !branching &&
    (loops === 0 || (loops === 1 && loopEnd !== -1 && (tail === '' || tail === '$')));
  return { size, narrow };
}

/** Length of `?:`, `?=`, `?!`, `?<=`, `?<!`, `?<name>` or `?P<name>` after a `(`. */
function groupPrefixLength(source: string, at: number): number {
  if (source[at] !== '?') return 0;
  const next = source[at + 1];
  if (next === ':' || next === '=' || next === '!') return 2;
  if (next === '<' && (source[at + 2] === '=' || source[at + 2] === '!')) return 3;
  if (next === '<' || (next === 'P' && source[at + 2] === '<')) {
    const close = source.indexOf('>', at);
    return close === -1 ? 1 : close - at + 1;
  }
  return 1;
}

/** Weight and length of the escape starting at the backslash at `at`. */
function escapeWeight(source: string, at: number): [number, number] {
  const next = source[at + 1];
  if (next === undefined) return [1, 1];
  if (next === 'p' || next === 'P') return [PROPERTY_WEIGHT, 2 + bracedLength(source, at + 2)];
  if (next === 'u') {
    return [1, source[at + 2] === '{' ? 2 + bracedLength(source, at + 2) : 6];
  }
  if (next === 'x') return [1, 4];
  if (next === 'c') return [1, 3];
  if (next === 'k') {
    const close = source.indexOf('>', at);
    return [1, close === -1 ? 2 : close - at + 1];
  }
  if (next === 'D' || next === 'W' || next === 'S' || next === 's') return [WIDE_WEIGHT, 2];
  return [1, 2];
}

/** Length of a `{…}` at `at`, or 0 when there is none. */
function bracedLength(source: string, at: number): number {
  if (source[at] !== '{') return 0;
  const close = source.indexOf('}', at);
  return close === -1 ? 0 : close - at + 1;
}

/** Weight and length of the character class starting at the `[` at `at`. */
function classWeight(source: string, at: number): [number, number] {
  let i = at + 1;
  let wide = false;
  let property = false;
  if (source[i] === '^') {
    wide = true;
    i++;
  }
  while (i < source.length && source[i] !== ']') {
    if (source[i] === '\\') {
      const next = source[i + 1];
      if (next === 'p' || next === 'P') {
        property = true;
        i += 2 + bracedLength(source, i + 2);
        continue;
      }
      if (next === 'D' || next === 'W' || next === 'S' || next === 's') wide = true;
      if (next === 'u' && source[i + 2] === '{') {
        i += 2 + bracedLength(source, i + 2);
        continue;
      }
      i += 2;
      continue;
    }
    if (source.charCodeAt(i) > 0x7f) wide = true;
    i++;
  }
  const weight = 1 + (wide ? WIDE_WEIGHT : 0) + (property ? PROPERTY_WEIGHT : 0);
  return [weight, i < source.length ? i - at + 1 : source.length - at];
}
