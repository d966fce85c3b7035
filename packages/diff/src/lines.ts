/** Normalise text for comparison: lone surrogates to U+FFFD, CRLF and CR to LF. */
export function normalizeText(text: string): string {
  return text.toWellFormed().replace(/\r\n?/g, '\n');
}

/** A text split into lines the way `diff` sees it. */
export interface SplitText {
  /** The lines, without their `\n`. */
  readonly lines: readonly string[];
  /** False when the text does not end with `\n` (its last line is unterminated). */
  readonly finalNewline: boolean;
}

/** Split a normalised text into lines; the empty text has none. */
export function splitLines(text: string): SplitText {
  if (text === '') return { lines: [], finalNewline: true };
  const lines = text.split('\n');
  const finalNewline = lines[lines.length - 1] === '';
  if (finalNewline) lines.pop();
  return { lines, finalNewline };
}

/**
 * Give every distinct line a number, so the diff compares integers. An unterminated
 * last line gets a number of its own: `a` and `a\n` are different lines, as in GNU diff.
 */
export function internLines(
  old: SplitText,
  current: SplitText,
): { readonly a: Int32Array; readonly b: Int32Array } {
  const ids = new Map<string, number>();
  const encode = (text: SplitText): Int32Array => {
    const out = new Int32Array(text.lines.length);
    for (let i = 0; i < text.lines.length; i++) {
      const unterminated = i === text.lines.length - 1 && !text.finalNewline;
      const key = unterminated ? `\n${text.lines[i]}` : (text.lines[i] as string);
      let id = ids.get(key);
      if (id === undefined) {
        id = ids.size;
        ids.set(key, id);
      }
      out[i] = id;
    }
    return out;
  };
  return { a: encode(old), b: encode(current) };
}
