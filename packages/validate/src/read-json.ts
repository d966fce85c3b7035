import { decodeBytes, type FetchedDocument, parseContentType } from '@storefront/core';
import { VALIDATE_MAX_DOCUMENT_DEPTH } from './limits.js';

/** A fetched body read as JSON, or why it could not be. */
export type ReadJson =
  | { readonly ok: true; readonly value: unknown; readonly text: string }
  | {
      readonly ok: false;
      readonly error: 'body_too_large' | 'parse_error' | 'unsupported_content_type';
      readonly message: string;
    };

/** Media types that say nothing about the body: a body that does not parse is a parse error. */
const UNSPECIFIC_TYPES = new Set([
  'application/octet-stream',
  'binary/octet-stream',
  'text/plain',
  'unknown/unknown',
]);

/**
 * Decode a fetched body and parse it as JSON. The body is read as JSON whatever its
 * `Content-Type` says (APIs often mislabel it); the type only decides how a body that
 * does not parse is reported: `unsupported_content_type` when it names another format
 * (`text/html`, `image/png` …), else `parse_error`. Documents nested deeper than
 * {@link VALIDATE_MAX_DOCUMENT_DEPTH} are refused before `JSON.parse` builds them.
 */
export function readJson(doc: FetchedDocument): ReadJson {
  if (doc.truncated) {
    return {
      ok: false,
      error: 'body_too_large',
      message: `The JSON body was cut at ${doc.bytes.length} bytes by the fetch cap; a partial document cannot be validated`,
    };
  }
  const text = decodeBytes(doc.bytes, { contentType: doc.contentType, sniff: 'none' }).text;
  const deepAt = depthExceededAt(text, VALIDATE_MAX_DOCUMENT_DEPTH);
  if (deepAt === -1) {
    try {
      return { ok: true, value: JSON.parse(text), text };
    } catch {
      // Described below, deterministically (engine messages differ between Node versions).
    }
  }
  const syntax = findSyntaxError(text);
  if (syntax === null) {
    const where = deepAt === -1 ? '' : ` (${position(text, deepAt)})`;
    return {
      ok: false,
      error: 'parse_error',
      message: `The JSON document nests arrays and objects deeper than ${VALIDATE_MAX_DOCUMENT_DEPTH} levels${where}`,
    };
  }
  const message =
    syntax.offset === -1
      ? 'The body is empty, not JSON'
      : `The body is not valid JSON: ${syntax.reason} (${position(text, syntax.offset)})`;
  const type = doc.contentType === null ? null : parseContentType(doc.contentType);
  if (type !== null && !isJsonType(type.mediaType) && !UNSPECIFIC_TYPES.has(type.mediaType)) {
    return {
      ok: false,
      error: 'unsupported_content_type',
      message: `Expected a JSON body, got \`${type.mediaType}\` that does not parse as JSON: ${syntax.offset === -1 ? 'it is empty' : `${syntax.reason} (${position(text, syntax.offset)})`}`,
    };
  }
  return { ok: false, error: 'parse_error', message };
}

function isJsonType(mediaType: string): boolean {
  return (
    mediaType === 'application/json' ||
    mediaType === 'text/json' ||
    mediaType === 'application/x-json' ||
    mediaType.endsWith('+json')
  );
}

/**
 * The offset of the first `[` or `{` that opens level `limit + 1`, or -1. Strings are
 * skipped; the text need not be valid JSON.
 */
export function depthExceededAt(text: string, limit: number): number {
  let depth = 0;
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip a string: find the closing quote that is not escaped.
      i++;
      while (i < n) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i += 2;
        else if (s === 0x22) break;
        else i++;
      }
    } else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > limit) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}

/** Line and column (1-based, in UTF-16 code units) of an offset, for messages. */
export function position(text: string, offset: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `line ${line}, column ${offset - lineStart + 1}`;
}

/** Scanner states: what may come next. */
const State = {
  Value: 0,
  ValueOrClose: 1,
  AfterValue: 2,
  KeyOrClose: 3,
  Key: 4,
  Colon: 5,
} as const;

const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;

/**
 * The first syntax error of a JSON text (RFC 8259), or null when it is valid JSON. An
 * iterative scan that builds no values, so any depth is fine. Offset -1 means the text
 * holds nothing but whitespace.
 */
export function findSyntaxError(text: string): { offset: number; reason: string } | null {
  const n = text.length;
  // One byte per open container: 1 for an object, 0 for an array.
  let stack = new Uint8Array(64);
  let top = 0;
  let state: number = State.Value;
  let i = 0;
  for (;;) {
    while (i < n) {
      const w = text.charCodeAt(i);
      if (w === 0x20 || w === 0x0a || w === 0x0d || w === 0x09) i++;
      else break;
    }
    if (i >= n) {
      if (state === State.AfterValue && top === 0) return null;
      if (top === 0 && state === State.Value) return { offset: -1, reason: 'empty' };
      return { offset: n, reason: 'unexpected end of the text' };
    }
    const c = text[i] as string;
    switch (state) {
      case State.Value:
      case State.ValueOrClose: {
        if (state === State.ValueOrClose && c === ']') {
          top--;
          i++;
          state = State.AfterValue;
          break;
        }
        if (c === '{' || c === '[') {
          if (top === stack.length) {
            const grown = new Uint8Array(stack.length * 2);
            grown.set(stack);
            stack = grown;
          }
          stack[top++] = c === '{' ? 1 : 0;
          i++;
          state = c === '{' ? State.KeyOrClose : State.ValueOrClose;
          break;
        }
        if (c === '"') {
          const end = scanString(text, i);
          if (typeof end !== 'number') return end;
          i = end;
          state = State.AfterValue;
          break;
        }
        if (c === '-' || (c >= '0' && c <= '9')) {
          NUMBER.lastIndex = i;
          const match = NUMBER.exec(text);
          if (match === null) return { offset: i, reason: 'invalid number' };
          i += match[0].length;
          state = State.AfterValue;
          break;
        }
        const literal = text.startsWith('true', i)
          ? 4
          : text.startsWith('false', i)
            ? 5
            : text.startsWith('null', i)
              ? 4
              : 0;
        if (literal === 0) return { offset: i, reason: `unexpected ${describe(text, i)}` };
        i += literal;
        state = State.AfterValue;
        break;
      }
      case State.AfterValue: {
        if (top === 0) {
          return { offset: i, reason: `unexpected ${describe(text, i)} after the value` };
        }
        const inObject = stack[top - 1] === 1;
        if (c === ',') {
          i++;
          state = inObject ? State.Key : State.Value;
        } else if ((c === '}' && inObject) || (c === ']' && !inObject)) {
          top--;
          i++;
        } else {
          return {
            offset: i,
            reason: `expected \`,\` or \`${inObject ? '}' : ']'}\`, got ${describe(text, i)}`,
          };
        }
        break;
      }
      case State.KeyOrClose:
      case State.Key: {
        if (state === State.KeyOrClose && c === '}') {
          top--;
          i++;
          state = State.AfterValue;
          break;
        }
        if (c !== '"') {
          return {
            offset: i,
            reason: `expected a member name in quotes, got ${describe(text, i)}`,
          };
        }
        const end = scanString(text, i);
        if (typeof end !== 'number') return end;
        i = end;
        state = State.Colon;
        break;
      }
      case State.Colon: {
        if (c !== ':') return { offset: i, reason: `expected \`:\`, got ${describe(text, i)}` };
        i++;
        state = State.Value;
        break;
      }
    }
  }
}

/** Scan a string literal starting at the quote at `start`; the offset after it, or an error. */
function scanString(text: string, start: number): number | { offset: number; reason: string } {
  const n = text.length;
  let i = start + 1;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === 0x22) return i + 1;
    if (c === 0x5c) {
      const e = text[i + 1];
      if (e === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          return { offset: i, reason: 'invalid `\\u` escape in a string' };
        }
        i += 6;
      } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
        i += 2;
      } else {
        return { offset: i, reason: 'invalid escape in a string' };
      }
    } else if (c < 0x20) {
      return { offset: i, reason: 'unescaped control character in a string' };
    } else {
      i++;
    }
  }
  return { offset: start, reason: 'unterminated string' };
}

function describe(text: string, i: number): string {
  const code = text.codePointAt(i) as number;
  if (code >= 0x21 && code <= 0x7e && code !== 0x60) return `\`${text[i]}\``;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
