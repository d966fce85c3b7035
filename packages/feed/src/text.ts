import { fragmentText } from '@storefront/html';
import { FEED_MAX_HTML_CHARS } from './limits.js';

/** Unicode White_Space (including the no-break spaces, which summaries do not need). */
const WHITE_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/**
 * Drop NUL characters, collapse every run of Unicode whitespace to one space, trim the ends, and replace lone
 * surrogates (from a reference such as `&#xD800;` the XML layer let through, or a cut)
 * with U+FFFD so the value always has a canonical JSON form.
 */
export function normalizeText(text: string): string {
  // The HTML parser drops NUL characters; plain-text fields drop them too.
  return text.replace(/\0/g, '').replace(WHITE_SPACE, ' ').trim().toWellFormed();
}

/**
 * The plain text of an HTML string: at most {@link FEED_MAX_HTML_CHARS} of it are parsed
 * (never splitting a surrogate pair), tags removed, entities decoded by the HTML parser,
 * block boundaries turned into spaces, whitespace collapsed.
 */
export function htmlText(html: string): string {
  if (html === '') return '';
  // Nothing to strip or decode: skip the parser.
  if (!/[<&]/.test(html)) return normalizeText(html);
  return normalizeText(fragmentText(cutUnits(html, FEED_MAX_HTML_CHARS)));
}

/** Cut to at most `max` UTF-16 code units without splitting a surrogate pair. */
function cutUnits(text: string, max: number): string {
  if (text.length <= max) return text;
  const last = text.charCodeAt(max - 1);
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? max - 1 : max);
}

/**
 * Cut to at most `max` Unicode code points (a surrogate pair counts once and is never
 * split), then drop whitespace the cut left at the end.
 */
export function cutCodePoints(text: string, max: number): string {
  // Every code point takes one or two code units, so short strings need no counting.
  if (text.length <= max) return text;
  let units = 0;
  let points = 0;
  while (units < text.length && points < max) {
    const code = text.charCodeAt(units);
    const next = text.charCodeAt(units + 1);
    const pair = code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff;
    units += pair ? 2 : 1;
    points++;
  }
  return text.slice(0, units).trimEnd();
}

/** U+2026, the last character of a value that was cut to its cap. */
export const CUT_MARK = '\u2026';

/**
 * `text` when it has at most `max` code points; else its first `max - 1` code points
 * (trailing whitespace trimmed) followed by {@link CUT_MARK}, so the result never has
 * more than `max` code points and a cut is visible.
 */
export function capMarked(text: string, max: number): string {
  if (text.length <= max) return text;
  let points = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (code >= 0xd800 && code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) i++;
    if (++points > max) return `${cutCodePoints(text, max - 1)}${CUT_MARK}`;
  }
  return text;
}
