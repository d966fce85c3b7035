/**
 * JSON Schema patterns are ECMAScript regular expressions (draft-07 §4.3); they run on
 * RE2, whose syntax and classes differ. {@link translatePattern} rewrites an ECMAScript
 * pattern (with the `u` flag, as ajv compiles it) into an RE2 pattern that matches the
 * same strings, or names the construct it cannot translate. One pass, linear in the
 * pattern's length.
 */

/** A list of code point ranges, `[from, to]` inclusive, sorted and disjoint. */
type Ranges = readonly (readonly [number, number])[];

const MAX = 0x10ffff;

/** ECMAScript's `\s`: WhiteSpace and LineTerminator (ECMA-262 §22.2.2.9). */
const ECMA_SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
  [0xfeff, 0xfeff],
];

/** Unicode's White_Space property (for `\p{White_Space}`). */
const WHITE_SPACE: Ranges = [
  [0x09, 0x0d],
  [0x20, 0x20],
  [0x85, 0x85],
  [0xa0, 0xa0],
  [0x1680, 0x1680],
  [0x2000, 0x200a],
  [0x2028, 0x2029],
  [0x202f, 0x202f],
  [0x205f, 0x205f],
  [0x3000, 0x3000],
];

/** Binary properties RE2 lacks that are plain code point ranges. */
const BINARY: Readonly<Record<string, Ranges>> = {
  Any: [[0, MAX]],
  ASCII: [[0, 0x7f]],
  ASCII_Hex_Digit: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
  AHex: [
    [0x30, 0x39],
    [0x41, 0x46],
    [0x61, 0x66],
  ],
  White_Space: WHITE_SPACE,
  space: WHITE_SPACE,
};

/** General_Category values and aliases ECMAScript accepts, as RE2's one- or two-letter names. */
const GENERAL_CATEGORY: Record<string, string> = {};
for (const [short, ...aliases] of [
  ['L', 'Letter'],
  ['Lu', 'Uppercase_Letter'],
  ['Ll', 'Lowercase_Letter'],
  ['Lt', 'Titlecase_Letter'],
  ['Lm', 'Modifier_Letter'],
  ['Lo', 'Other_Letter'],
  ['M', 'Mark', 'Combining_Mark'],
  ['Mn', 'Nonspacing_Mark'],
  ['Mc', 'Spacing_Mark'],
  ['Me', 'Enclosing_Mark'],
  ['N', 'Number'],
  ['Nd', 'Decimal_Number', 'digit'],
  ['Nl', 'Letter_Number'],
  ['No', 'Other_Number'],
  ['P', 'Punctuation', 'punct'],
  ['Pc', 'Connector_Punctuation'],
  ['Pd', 'Dash_Punctuation'],
  ['Ps', 'Open_Punctuation'],
  ['Pe', 'Close_Punctuation'],
  ['Pi', 'Initial_Punctuation'],
  ['Pf', 'Final_Punctuation'],
  ['Po', 'Other_Punctuation'],
  ['S', 'Symbol'],
  ['Sm', 'Math_Symbol'],
  ['Sc', 'Currency_Symbol'],
  ['Sk', 'Modifier_Symbol'],
  ['So', 'Other_Symbol'],
  ['Z', 'Separator'],
  ['Zs', 'Space_Separator'],
  ['Zl', 'Line_Separator'],
  ['Zp', 'Paragraph_Separator'],
  ['C', 'Other'],
  ['Cc', 'Control', 'cntrl'],
  ['Cf', 'Format'],
  ['Cs', 'Surrogate'],
  ['Co', 'Private_Use'],
] as const) {
  for (const name of [short, ...aliases]) GENERAL_CATEGORY[name] = short;
}

/** What a class escape stands for: RE2 class items, or ranges (which can be complemented). */
type ClassItems = { readonly items: string } | { readonly ranges: Ranges };

function hex(code: number): string {
  return `\\x{${code.toString(16).toUpperCase()}}`;
}

function complement(ranges: Ranges): Ranges {
  const out: [number, number][] = [];
  let next = 0;
  for (const [from, to] of ranges) {
    if (from > next) out.push([next, from - 1]);
    next = to + 1;
  }
  if (next <= MAX) out.push([next, MAX]);
  return out;
}

function rangeItems(ranges: Ranges): string {
  return ranges.map(([from, to]) => (from === to ? hex(from) : `${hex(from)}-${hex(to)}`)).join('');
}

/** Raised for a construct that has no RE2 equivalent here; `construct` names it. */
export class Untranslatable extends Error {
  constructor(readonly construct: string) {
    super(construct);
  }
}

/**
 * The RE2 form of an ECMAScript pattern (`u` flag). Differences handled: `\s` `\S` (and
 * inside classes), `.` (ECMAScript excludes \r, U+2028 and U+2029 too), `\cX`, `\0`,
 * `\uXXXX` (surrogate pairs joined), `\u{…}`, `\p{…}` names, `(?<name>…)`, `[^]`, `[]`,
 * `[\b]`. Throws {@link Untranslatable} for backreferences, lookaround, `\p{…}` properties
 * RE2 lacks, and escapes ECMAScript's `u` mode refuses.
 */
export function translatePattern(source: string): string {
  let out = '';
  let i = 0;
  const n = source.length;
  while (i < n) {
    const c = source[i] as string;
    if (c === '\\') {
      const [text, length] = translateEscape(source, i, false);
      out += text;
      i += length;
    } else if (c === '[') {
      const [text, length] = characterClass(source, i);
      out += text;
      i += length;
    } else if (c === '.') {
      out += '[^\\n\\r\\x{2028}\\x{2029}]';
      i++;
    } else if (c === '(' && source[i + 1] === '?') {
      const next = source[i + 2];
      if (next === ':') {
        out += '(?:';
        i += 3;
      } else if (next === '=' || next === '!') {
        throw new Untranslatable(`lookahead \`(?${next}\``);
      } else if (next === '<' && (source[i + 3] === '=' || source[i + 3] === '!')) {
        throw new Untranslatable(`lookbehind \`(?<${source[i + 3]}\``);
      } else if (next === '<') {
        const close = source.indexOf('>', i + 3);
        const name = close === -1 ? '' : source.slice(i + 3, close);
        if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
          throw new Untranslatable(`the group name \`${name}\``);
        out += `(?P<${name}>`;
        i = close + 1;
      } else {
        throw new Untranslatable(`the group modifier \`(?${next ?? ''}\``);
      }
    } else {
      // A surrogate pair is one code point in `u` mode, and one character to RE2.
      const code = source.codePointAt(i) as number;
      const length = code > 0xffff ? 2 : 1;
      out += source.slice(i, i + length);
      i += length;
    }
  }
  return out;
}

/** `[…]`: returns its RE2 text and length. */
function characterClass(source: string, at: number): [string, number] {
  let i = at + 1;
  let negated = false;
  if (source[i] === '^') {
    negated = true;
    i++;
  }
  let body = '';
  while (i < source.length && source[i] !== ']') {
    const c = source[i] as string;
    if (c === '\\') {
      const [text, length] = translateEscape(source, i, true);
      body += text;
      i += length;
    } else if (c === '[') {
      body += '\\[';
      i++;
    } else {
      const code = source.codePointAt(i) as number;
      const length = code > 0xffff ? 2 : 1;
      body += source.slice(i, i + length);
      i += length;
    }
  }
  if (i >= source.length) throw new Untranslatable('an unterminated character class `[`');
  const length = i - at + 1;
  // ECMAScript's `[]` matches nothing and `[^]` anything; RE2 has neither spelling.
  if (body === '')
    return [negated ? `[${hex(0)}-${hex(MAX)}]` : `[^${hex(0)}-${hex(MAX)}]`, length];
  return [`[${negated ? '^' : ''}${body}]`, length];
}

/** Class items (`inClass`) or an atom for one class escape. */
function classText(what: ClassItems, negate: boolean, inClass: boolean, name: string): string {
  if ('ranges' in what) {
    const items = rangeItems(negate ? complement(what.ranges) : what.ranges);
    return inClass ? items : `[${items}]`;
  }
  if (!negate) return inClass ? what.items : `[${what.items}]`;
  if (inClass) throw new Untranslatable(`\`${name}\` inside a character class`);
  return `[^${what.items}]`;
}

/** The escape at `at`: its RE2 text and length. */
function translateEscape(source: string, at: number, inClass: boolean): [string, number] {
  const next = source[at + 1];
  if (next === undefined) throw new Untranslatable('a `\\` at the end of the pattern');
  switch (next) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
      return [`\\${next}`, 2];
    case 'b':
      return [inClass ? hex(8) : '\\b', 2];
    case 'B':
      if (inClass) throw new Untranslatable('`\\B` inside a character class');
      return ['\\B', 2];
    case 's':
    case 'S':
      return [classText({ ranges: ECMA_SPACE }, next === 'S', inClass, `\\${next}`), 2];
    case 't':
      return ['\\t', 2];
    case 'n':
      return ['\\n', 2];
    case 'r':
      return ['\\r', 2];
    case 'f':
      return ['\\f', 2];
    case 'v':
      return [hex(0x0b), 2];
    case 'c': {
      const letter = source[at + 2] ?? '';
      if (!/^[A-Za-z]$/.test(letter)) throw new Untranslatable('`\\c` not followed by a letter');
      return [hex(letter.charCodeAt(0) % 32), 3];
    }
    case '0':
      if (/^[0-9]$/.test(source[at + 2] ?? '')) throw new Untranslatable('an octal escape `\\0…`');
      return [hex(0), 2];
    case 'x': {
      const digits = source.slice(at + 2, at + 4);
      if (!/^[0-9A-Fa-f]{2}$/.test(digits))
        throw new Untranslatable('`\\x` without two hex digits');
      return [hex(Number.parseInt(digits, 16)), 4];
    }
    case 'u':
      return unicodeEscape(source, at);
    case 'p':
    case 'P':
      return property(source, at, inClass);
    case 'k':
      throw new Untranslatable('the named backreference `\\k`');
    case '-':
      if (!inClass) throw new Untranslatable('`\\-` outside a character class');
      return ['\\-', 2];
  }
  if (/^[1-9]$/.test(next)) throw new Untranslatable(`the backreference \`\\${next}\``);
  if ('^$\\.*+?()[]{}|/'.includes(next)) return [`\\${next}`, 2];
  throw new Untranslatable(`the escape \`\\${next}\`, which ECMAScript's \`u\` mode refuses`);
}

/** `\uXXXX` (a surrogate pair written as two escapes is one code point) or `\u{…}`. */
function unicodeEscape(source: string, at: number): [string, number] {
  if (source[at + 2] === '{') {
    const close = source.indexOf('}', at + 3);
    const digits = close === -1 ? '' : source.slice(at + 3, close);
    const code = /^[0-9A-Fa-f]{1,8}$/.test(digits) ? Number.parseInt(digits, 16) : -1;
    if (code < 0 || code > MAX)
      throw new Untranslatable('a `\\u{…}` escape that is not a code point');
    if (code >= 0xd800 && code <= 0xdfff) throw new Untranslatable('a lone surrogate `\\u{…}`');
    return [hex(code), close - at + 1];
  }
  const digits = source.slice(at + 2, at + 6);
  if (!/^[0-9A-Fa-f]{4}$/.test(digits)) throw new Untranslatable('`\\u` without four hex digits');
  const code = Number.parseInt(digits, 16);
  if (code >= 0xd800 && code <= 0xdbff && source.startsWith('\\u', at + 6)) {
    const low = source.slice(at + 8, at + 12);
    const lowCode = /^[0-9A-Fa-f]{4}$/.test(low) ? Number.parseInt(low, 16) : -1;
    if (lowCode >= 0xdc00 && lowCode <= 0xdfff) {
      return [hex(0x10000 + ((code - 0xd800) << 10) + (lowCode - 0xdc00)), 12];
    }
  }
  if (code >= 0xd800 && code <= 0xdfff)
    throw new Untranslatable(`a lone surrogate \`\\u${digits}\``);
  return [hex(code), 6];
}

/** `\p{…}` / `\P{…}`: a General_Category, a Script, or a binary property RE2 can express. */
function property(source: string, at: number, inClass: boolean): [string, number] {
  const negate = source[at + 1] === 'P';
  const close = source[at + 2] === '{' ? source.indexOf('}', at + 3) : -1;
  if (close === -1) throw new Untranslatable(`\`\\${source[at + 1]}\` without \`{…}\``);
  const body = source.slice(at + 3, close);
  const written = `\\${source[at + 1]}{${body}}`;
  const length = close - at + 1;
  const equals = body.indexOf('=');
  let what: ClassItems;
  if (equals === -1) {
    const category = GENERAL_CATEGORY[body];
    const ranges = BINARY[body];
    if (category !== undefined) what = { items: `\\p{${category}}` };
    else if (ranges !== undefined) what = { ranges };
    else throw new Untranslatable(`the property \`${written}\``);
  } else {
    const name = body.slice(0, equals);
    const value = body.slice(equals + 1);
    if (name === 'General_Category' || name === 'gc') {
      const category = GENERAL_CATEGORY[value];
      if (category === undefined) throw new Untranslatable(`the property \`${written}\``);
      what = { items: `\\p{${category}}` };
    } else if ((name === 'Script' || name === 'sc') && /^[A-Z][A-Za-z_]*$/.test(value)) {
      // RE2 knows scripts by their long names (`Greek`, `Old_Italic`); it refuses others.
      what = { items: `\\p{${value}}` };
    } else {
      throw new Untranslatable(`the property \`${written}\``);
    }
  }
  if ('items' in what) {
    // RE2 spells the negation `\P{…}`, inside classes too.
    return [negate ? what.items.replace('\\p', '\\P') : what.items, length];
  }
  return [classText(what, negate, inClass, written), length];
}
