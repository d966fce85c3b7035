/**
 * A part of a text, counted in Unicode code points (a character outside the Basic
 * Multilingual Plane, an emoji say, counts one and is never split).
 */
export interface TextSlice {
  /** The part: the code points from `offset`, at most the `maxChars` asked for. */
  readonly text: string;
  /** Where the part starts in the whole text, in code points. */
  readonly offset: number;
  /** The part's length in code points. */
  readonly length: number;
  /** The whole text's length in code points. */
  readonly total: number;
}

/**
 * The part of `whole` from code point `offset`, at most `maxChars` code points long
 * (to the end when `maxChars` is null). An offset at or past the end gives an empty
 * part at the end. One pass over the text, no copy but the part.
 *
 * @example
 *   sliceText('café 東京 🔏!', 5, 4) // { text: '東京 🔏', offset: 5, length: 4, total: 10 }
 */
export function sliceText(whole: string, offset: number, maxChars: number | null): TextSlice {
  if (!Number.isSafeInteger(offset) || offset < 0) {
    throw new RangeError(`Expected \`offset\` as a whole number, got ${offset}`);
  }
  if (maxChars !== null && (!Number.isSafeInteger(maxChars) || maxChars < 1)) {
    throw new RangeError(`Expected \`maxChars\` as a positive whole number, got ${maxChars}`);
  }
  const end = maxChars === null ? Number.POSITIVE_INFINITY : offset + maxChars;
  let start = -1;
  let stop = -1;
  let points = 0;
  const units = whole.length;
  for (let i = 0; i < units; i++) {
    if (points === offset) start = i;
    if (points === end) stop = i;
    const code = whole.charCodeAt(i);
    // A high surrogate followed by its low surrogate is one code point.
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < units) {
      const next = whole.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    points++;
  }
  if (start === -1) start = units;
  if (stop === -1) stop = units;
  const from = Math.min(offset, points);
  return {
    text: whole.slice(start, stop),
    offset: from,
    length: Math.min(points, end) - from,
    total: points,
  };
}

/** The number of Unicode code points in `text` (a surrogate pair counts one). */
export function codePointLength(text: string): number {
  let points = text.length;
  for (let i = 0; i < text.length - 1; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        points--;
        i++;
      }
    }
  }
  return points;
}
