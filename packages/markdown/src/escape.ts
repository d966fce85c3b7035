/**
 * Escaping for CommonMark 0.31 and GFM: every literal character that a markdown reader
 * could take for syntax gets a backslash (CommonMark §2.4: any ASCII punctuation may be
 * backslash-escaped) or, next to emphasis markers, a numeric character reference.
 */

/** Flanking class (CommonMark §6.2) of a letter, digit or anything not below. */
export const OTHER = 0;
/** Flanking class of Unicode whitespace, a line ending, or no character at all. */
export const WHITESPACE = 1;
/** Flanking class of Unicode punctuation or symbols (categories P and S). */
export const PUNCTUATION = 2;
/** One of the three flanking classes, as micromark's `classifyCharacter` computes them. */
export type CharClass = typeof OTHER | typeof WHITESPACE | typeof PUNCTUATION;

const UNICODE_PUNCTUATION = /\p{P}|\p{S}/u;
const UNICODE_WHITESPACE = /\s/;

/**
 * Classify one UTF-16 code unit as micromark's `classifyCharacter` does: whitespace,
 * punctuation (Unicode P and S categories), or other. NaN (no character) is whitespace.
 */
export function classify(code: number): CharClass {
  if (Number.isNaN(code)) return WHITESPACE;
  if (code < 128) {
    if (code <= 32 || code === 127) return code === 127 ? OTHER : WHITESPACE;
    if (
      (code >= 33 && code <= 47) ||
      (code >= 58 && code <= 64) ||
      (code >= 91 && code <= 96) ||
      (code >= 123 && code <= 126)
    ) {
      return PUNCTUATION;
    }
    return OTHER;
  }
  const char = String.fromCharCode(code);
  if (UNICODE_WHITESPACE.test(char)) return WHITESPACE;
  if (UNICODE_PUNCTUATION.test(char)) return PUNCTUATION;
  return OTHER;
}

/** `&#xHH;` for a code point: a character that counts as punctuation for flanking. */
function characterReference(codePoint: number): string {
  return `&#x${codePoint.toString(16).toUpperCase()};`;
}

/** Replace the first character (code point) of `value` with its character reference. */
export function encodeFirst(value: string): string {
  const codePoint = value.codePointAt(0)!;
  return characterReference(codePoint) + value.slice(codePoint > 0xffff ? 2 : 1);
}

/** Replace the last character (code point) of `value` with its character reference. */
export function encodeLast(value: string): string {
  let start = value.length - 1;
  const code = value.charCodeAt(start);
  if (code >= 0xdc00 && code <= 0xdfff && start > 0) {
    const high = value.charCodeAt(start - 1);
    if (high >= 0xd800 && high <= 0xdbff) start--;
  }
  return value.slice(0, start) + characterReference(value.codePointAt(start)!);
}

const REFERENCE_LIKE = /#[0-9]{1,7};|#[xX][0-9a-fA-F]{1,6};|[A-Za-z][A-Za-z0-9]{0,47};/y;

/** Whether the text after an `&` at `index` would be read as a character reference. */
function referenceAfter(value: string, index: number): boolean {
  REFERENCE_LIKE.lastIndex = index;
  return REFERENCE_LIKE.test(value);
}

function isAsciiWord(code: number): boolean {
  return (
    (code >= 48 && code <= 57) ||
    (code >= 65 && code <= 90) ||
    (code >= 97 && code <= 122) ||
    code === 95
  );
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** Where a text is written, for {@link escapeText}. */
export interface TextContext {
  /** The text starts a line (of a paragraph; not of a heading or cell). */
  readonly lineStart: boolean;
  /** The text is in a GFM table cell: `|` must be escaped. */
  readonly table: boolean;
  /** A link follows the text directly: a final `!` would make it an image. */
  readonly beforeLink: boolean;
}

/**
 * What may need an escape anywhere in a text (a superset: `_` inside a word, `<` before
 * a space or `[wW].` before a space need none, and the full scan decides those).
 */
const MAY_NEED_ESCAPE = /[\n\\*`[\]~_<&@]|[wW]\.|[ps]:\//;

/**
 * True when {@link escapeText} would return `value` unchanged for a reason one regular
 * expression scan can see: no character that needs an escape anywhere, and none at the
 * edges that needs one there (a line start's `#`, `>`, `-`, `+`, `=`, `|`, `:` or digit;
 * a cell's `|`; a `!` before a link). Most prose is plain.
 */
function plain(value: string, context: TextContext): boolean {
  if (context.lineStart) {
    const first = value.charCodeAt(0);
    if (
      first === 35 ||
      first === 62 ||
      first === 45 ||
      first === 43 ||
      first === 61 ||
      first === 124 ||
      first === 58 ||
      isDigit(first)
    ) {
      return false;
    }
  }
  if (context.table && value.indexOf('|') !== -1) return false;
  if (context.beforeLink && value.charCodeAt(value.length - 1) === 33) return false;
  return !MAY_NEED_ESCAPE.test(value);
}

/**
 * Escape literal text so that it reads back as the same text:
 * - always: `\`, `*`, `` ` ``, `[`, `]`, `~` (GFM strikethrough);
 * - `_` unless it sits between two non-space, non-punctuation characters (intraword
 *   `_` never opens or closes emphasis);
 * - `<` before a letter, `/`, `!`, `?` or the end (HTML and autolinks);
 * - `&` when a character reference follows;
 * - at a line start: `#`, `>`, `-`, `+`, `=`, `|`, `:` and the `.`/`)` after digits
 *   (headings, quotes, lists, setext underlines, table delimiter rows);
 * - `|` in table cells; a final `!` before a link;
 * - the GFM autolink-literal triggers `www.`, `http:/`, `x@y`, as mdast-util-gfm does.
 * A `\n` in the text (text/plain pages) starts a new line.
 */
export function escapeText(value: string, context: TextContext): string {
  if (plain(value, context)) return value;
  let out = '';
  let from = 0;
  let lineStart = context.lineStart;
  let escapeAt = -1;
  const length = value.length;
  for (let i = 0; i < length; i++) {
    const code = value.charCodeAt(i);
    let needsEscape = false;
    switch (code) {
      case 10: // \n
        lineStart = true;
        continue;
      case 92: // \
      case 42: // *
      case 96: // `
      case 91: // [
      case 93: // ]
      case 126: // ~
        needsEscape = true;
        break;
      case 95: // _
        needsEscape = !(
          i > 0 &&
          i + 1 < length &&
          classify(value.charCodeAt(i - 1)) === OTHER &&
          classify(value.charCodeAt(i + 1)) === OTHER
        );
        break;
      case 60: {
        // <
        const next = value.charCodeAt(i + 1);
        needsEscape =
          i + 1 >= length ||
          (next >= 65 && next <= 90) ||
          (next >= 97 && next <= 122) ||
          next === 47 ||
          next === 33 ||
          next === 63;
        break;
      }
      case 38: // &
        needsEscape = referenceAfter(value, i + 1);
        break;
      case 124: // |
        needsEscape = lineStart || context.table;
        break;
      case 33: // !
        needsEscape = context.beforeLink && i === length - 1;
        break;
      case 35: // #
      case 62: // >
      case 45: // -
      case 43: // +
      case 61: // =
        needsEscape = lineStart;
        break;
      case 58: // :
        needsEscape =
          lineStart ||
          (value.charCodeAt(i + 1) === 47 &&
            (value.charCodeAt(i - 1) === 112 || value.charCodeAt(i - 1) === 115));
        break;
      case 46: {
        // .
        const before = value.charCodeAt(i - 1);
        const after = value.charCodeAt(i + 1);
        needsEscape =
          i === escapeAt ||
          ((before === 87 || before === 119) &&
            (isAsciiWord(after) || after === 45 || after === 46));
        break;
      }
      case 41: // )
        needsEscape = i === escapeAt;
        break;
      case 64: {
        // @
        const before = value.charCodeAt(i - 1);
        const after = value.charCodeAt(i + 1);
        needsEscape =
          (isAsciiWord(before) || before === 43 || before === 45 || before === 46) &&
          (isAsciiWord(after) || after === 45 || after === 46);
        break;
      }
      default:
        if (lineStart && isDigit(code)) {
          // `1.` / `1)` at a line start would open an ordered list.
          let j = i + 1;
          while (j < length && isDigit(value.charCodeAt(j))) j++;
          const after = value.charCodeAt(j);
          if (after === 46 || after === 41) escapeAt = j;
        }
    }
    lineStart = false;
    if (needsEscape) {
      out += value.slice(from, i) + '\\';
      from = i;
    }
  }
  return out === '' ? value : out + value.slice(from);
}

/** A code span whose fence is longer than any backtick run inside (CommonMark §6.1). */
export function codeSpan(value: string, table: boolean): string {
  const inner = table ? value.replace(/\|/g, '\\|') : value;
  const fence = '`'.repeat(longestRun(inner, 96) + 1);
  const first = inner.charCodeAt(0);
  const last = inner.charCodeAt(inner.length - 1);
  // One space each side is stripped when both are present, so pad when the content
  // touches a backtick or already has a space at both ends.
  const pad =
    first === 96 || last === 96 || (first === 32 && last === 32 && inner.trim() !== '') ? ' ' : '';
  return fence + pad + inner + pad + fence;
}

/** The fence of a fenced code block: backticks, at least three, longer than any run inside. */
export function codeFence(value: string): string {
  return '`'.repeat(Math.max(3, longestRun(value, 96) + 1));
}

/** The length of the longest run of `code` units in `value`. */
function longestRun(value: string, code: number): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < value.length; i++) {
    if (value.charCodeAt(i) === code) {
      run++;
      if (run > longest) longest = run;
    } else {
      run = 0;
    }
  }
  return longest;
}

/** Escape `&` where a character reference would follow. */
function escapeReferences(value: string): string {
  if (value.indexOf('&') === -1) return value;
  let out = '';
  let from = 0;
  for (let i = value.indexOf('&'); i !== -1; i = value.indexOf('&', i + 1)) {
    if (referenceAfter(value, i + 1)) {
      out += value.slice(from, i) + '\\';
      from = i;
    }
  }
  return out + value.slice(from);
}

const NEEDS_ANGLE = /[\u0000-\u0020\u007f<>]/;

/**
 * A link destination (CommonMark §6.3): bare when it can be, else in `<...>`.
 * Backslashes, references and (in a table) pipes are escaped; unbalanced parentheses too.
 */
export function destination(url: string, table: boolean): string {
  let value = escapeReferences(url.replace(/\\/g, '\\\\'));
  if (table) value = value.replace(/\|/g, '\\|');
  if (url === '' || NEEDS_ANGLE.test(url)) {
    return `<${value.replace(/[<>]/g, '\\$&').replace(/[\n\r]/g, (c) => (c === '\n' ? '%0A' : '%0D'))}>`;
  }
  if (!balancedParentheses(url)) value = value.replace(/[()]/g, '\\$&');
  return value;
}

function balancedParentheses(url: string): boolean {
  let depth = 0;
  for (let i = 0; i < url.length; i++) {
    const code = url.charCodeAt(i);
    if (code === 40) depth++;
    else if (code === 41 && --depth < 0) return false;
  }
  return depth === 0;
}

/** A link title in double quotes. */
export function linkTitle(title: string, table: boolean): string {
  let value = escapeReferences(title.replace(/["\\]/g, '\\$&'));
  if (table) value = value.replace(/\|/g, '\\|');
  return `"${value}"`;
}
