import { collapseWhitespace } from '@storefront/html';
import type { ExtractFieldType } from './types.js';

/** A scalar read from the page before it is typed. */
export type RawValue = string | number | boolean;

/** A typed value and whether it was cast from another type. */
export interface Coerced {
  readonly value: string | number | boolean;
  readonly cast: boolean;
}

/** Strings longer than this never read as numbers (a price is short). */
export const NUMBER_MAX_CHARS = 256;

const TRUE_WORDS: ReadonlySet<string> = new Set(['true', 'yes', '1', 'on']);
const FALSE_WORDS: ReadonlySet<string> = new Set(['false', 'no', '0', 'off']);

/**
 * Type a raw value, or return null when it cannot be a valid value of that type (the next
 * rule is then tried). Deterministic: no locale, no `Intl`.
 *
 * - `string`: strings are whitespace-collapsed and must not be empty; numbers become
 *   their shortest ECMAScript form (`1299`, `4.5`), booleans `true`/`false` (cast).
 * - `number`: finite numbers as they are; strings through {@link parseNumber} (cast).
 * - `integer`: as `number`, then only safe integers; a fraction is not valid.
 * - `boolean`: booleans as they are; `true`/`yes`/`1`/`on` and `false`/`no`/`0`/`off`
 *   (ASCII case-insensitive, trimmed) and the numbers 1 and 0 (cast). Nothing else, so a
 *   schema.org `InStock` URL decides nothing.
 */
export function coerce(raw: RawValue, type: ExtractFieldType): Coerced | null {
  switch (type) {
    case 'string': {
      if (typeof raw === 'string') {
        // Text decoded from malformed UTF-16 can hold lone surrogates; canonical JSON refuses them.
        const value = collapseWhitespace(raw).toWellFormed();
        return value === '' ? null : { value, cast: false };
      }
      if (typeof raw === 'number')
        return Number.isFinite(raw) ? { value: String(raw), cast: true } : null;
      return { value: raw ? 'true' : 'false', cast: true };
    }
    case 'number':
    case 'integer': {
      let value: number | null;
      if (typeof raw === 'number') value = Number.isFinite(raw) ? raw : null;
      else if (typeof raw === 'string') value = parseNumber(raw);
      else value = null;
      if (value === null) return null;
      if (type === 'integer' && !Number.isSafeInteger(value)) return null;
      // -0 and 0 are one value.
      return { value: value === 0 ? 0 : value, cast: typeof raw !== 'number' };
    }
    case 'boolean': {
      if (typeof raw === 'boolean') return { value: raw, cast: false };
      if (typeof raw === 'number')
        return raw === 1
          ? { value: true, cast: true }
          : raw === 0
            ? { value: false, cast: true }
            : null;
      const word = raw.trim().toLowerCase();
      if (TRUE_WORDS.has(word)) return { value: true, cast: true };
      if (FALSE_WORDS.has(word)) return { value: false, cast: true };
      return null;
    }
  }
}

/** One run of digits and separators, ending in a digit, optionally starting with `.` or `,`. */
const TOKEN = /[.,]?\d(?:[\d.,'’ \u00a0\u2009\u202f]*\d)?/g;

/**
 * Read a number written for people: `$1,299.00` → 1299, `1299.5` → 1299.5,
 * `€ 12,50` → 12.5, `1.299,00 €` → 1299, `￥1,980` → 1980, `-$5` → -5.
 *
 * The string must hold exactly one run of digits (full-width digits count); letters,
 * currency symbols and other characters around it are ignored, so `From $12 to $20` and
 * `4.5/5` are not numbers. Inside the run:
 * - when both `.` and `,` appear, the one that occurs last is the decimal mark (once)
 *   and the other groups thousands;
 * - a `.` appearing once is the decimal mark; appearing more than once it groups;
 * - a `,` appearing once groups thousands only when it is the run's only separator,
 *   1–3 digits (not starting with 0) precede it and exactly 3 follow (`1,299`);
 *   otherwise it is the decimal mark (`12,50`, `0,299`); appearing more than once it groups;
 * - spaces, no-break spaces, thin spaces and apostrophes only group thousands;
 * - grouped runs must have 1–3 digits first and exactly 3 in every later group.
 * A `-` or `−` right before the run, or opening the string before only currency
 * symbols and spaces, makes it negative. Returns null for anything else.
 */
export function parseNumber(text: string): number | null {
  if (text.length > NUMBER_MAX_CHARS) return null;
  const source = text.replace(/[\uff0c\uff0d\uff0e\uff10-\uff19]/g, (c) =>
    String.fromCharCode(c.charCodeAt(0) - 0xfee0),
  );
  const matches = [...source.matchAll(TOKEN)];
  if (matches.length !== 1) return null;
  const match = matches[0]!;
  // Digits elsewhere (a second run the token regex could not join) mean several numbers.
  const prefix = source.slice(0, match.index);
  const suffix = source.slice(match.index + match[0].length);
  if (/\d/.test(prefix) || /\d/.test(suffix)) return null;
  const magnitude = parseToken(match[0]);
  if (magnitude === null) return null;
  const negative =
    prefix.endsWith('-') || prefix.endsWith('−') || /^\s*[-−][\s\p{Sc}]*$/u.test(prefix);
  const value = negative ? -magnitude : magnitude;
  return value === 0 ? 0 : value;
}

function parseToken(token: string): number | null {
  // Split into digit groups and the single separators between them.
  const groups: string[] = [];
  const separators: string[] = [];
  let current = '';
  for (const char of token) {
    if (char >= '0' && char <= '9') {
      current += char;
      continue;
    }
    // Two separators in a row, as in `1.,2` or `1  299`, are not a number.
    if (current === '' && groups.length > 0) return null;
    groups.push(current);
    separators.push(char);
    current = '';
  }
  groups.push(current);

  const dots = separators.filter((s) => s === '.').length;
  const commas = separators.filter((s) => s === ',').length;
  let decimal: string | null = null;
  if (dots > 0 && commas > 0) {
    decimal = separators.lastIndexOf('.') > separators.lastIndexOf(',') ? '.' : ',';
  } else if (dots === 1) {
    decimal = '.';
  } else if (commas === 1) {
    const before = groups[0]!;
    const thousands =
      separators.length === 1 &&
      groups[1]!.length === 3 &&
      before.length >= 1 &&
      before.length <= 3 &&
      !before.startsWith('0');
    decimal = thousands ? null : ',';
  }

  let integerGroups = groups;
  let integerSeparators = separators;
  let fraction = '';
  if (decimal !== null) {
    const at = separators.lastIndexOf(decimal);
    // The decimal mark is the last separator and appears once.
    if (at !== separators.length - 1 || separators.indexOf(decimal) !== at) return null;
    fraction = groups[groups.length - 1]!;
    integerGroups = groups.slice(0, -1);
    integerSeparators = separators.slice(0, -1);
  }
  if (integerSeparators.length > 0) {
    // Thousands grouping: one kind of separator, 1–3 digits first, then groups of 3.
    const kind = integerSeparators[0]!;
    if (integerSeparators.some((s) => s !== kind)) return null;
    const first = integerGroups[0]!;
    if (first.length < 1 || first.length > 3) return null;
    for (let i = 1; i < integerGroups.length; i++) if (integerGroups[i]!.length !== 3) return null;
  }
  const integer = integerGroups.join('');
  const value = Number(`${integer === '' ? '0' : integer}.${fraction === '' ? '0' : fraction}`);
  return Number.isFinite(value) ? value : null;
}
