import { StorefrontError } from './errors.js';

/**
 * The mark a capped string ends with: U+2026 HORIZONTAL ELLIPSIS, one UTF-16 code unit.
 * Every product marks a value it cut this way.
 */
export const CUT_MARK = '\u2026';

/**
 * Bound a string to `max` characters (UTF-16 code units, as JavaScript counts them). A
 * string that fits is returned as it is; a longer one keeps its first `max - 1` code
 * units, one less when that would split a surrogate pair, followed by {@link CUT_MARK}.
 * The result never holds a lone surrogate the input did not, is at most `max` long, and
 * capping it again changes nothing.
 *
 * @example
 *   capString('Storefront', 6) // 'Store…'
 *   capString('Store', 6) // 'Store'
 */
export function capString(value: string, max: number): string {
  checkMax(max);
  return value.length <= max ? value : markCut(value, max);
}

/**
 * Mark a string as cut, whatever its length: `value` is what was kept of a longer text.
 * The result ends with {@link CUT_MARK}, is at most `max` long, and keeps as much of
 * `value` as fits on a code point boundary. For callers that stop collecting text early
 * and so know a cut happened even though what they kept fits.
 *
 * @example
 *   markCut('Store', 6) // 'Store…'
 */
export function markCut(value: string, max: number): string {
  checkMax(max);
  let end = Math.min(value.length, max - 1);
  if (end > 0 && end < value.length) {
    const code = value.charCodeAt(end - 1);
    const next = value.charCodeAt(end);
    // A high surrogate followed by its low surrogate: do not split the pair.
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) end--;
  }
  return value.slice(0, end) + CUT_MARK;
}

function checkMax(max: number): void {
  if (!Number.isSafeInteger(max) || max < 1) {
    throw new StorefrontError(
      'internal_error',
      `Expected a cap of at least 1 character, got \`${String(max)}\``,
    );
  }
}
