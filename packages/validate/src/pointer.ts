import { VALIDATE_MAX_POINTER_LENGTH } from './limits.js';
import type { ParsedPointer } from './types.js';

/**
 * Check the syntax of a JSON Pointer (RFC 6901 §3) and split it into unescaped
 * reference tokens. The empty string selects the whole document. Only the plain string
 * form is accepted (a URI fragment such as `#/a` is not). For the server's 400 answer.
 *
 * @example
 *   parsePointer('/items/0/a~1b') // { ok: true, tokens: ['items', '0', 'a/b'] }
 */
export function parsePointer(pointer: string): ParsedPointer {
  if (typeof pointer !== 'string') {
    return { ok: false, message: `Expected \`pointer\` to be a string, got \`${typeof pointer}\`` };
  }
  if (pointer.length > VALIDATE_MAX_POINTER_LENGTH) {
    return {
      ok: false,
      message: `Expected \`pointer\` to be at most ${VALIDATE_MAX_POINTER_LENGTH} characters, got ${pointer.length}`,
    };
  }
  if (!pointer.isWellFormed()) {
    return {
      ok: false,
      message: 'Expected `pointer` to be well-formed Unicode, got a lone surrogate',
    };
  }
  if (pointer === '') return { ok: true, tokens: [] };
  if (pointer[0] !== '/') {
    return {
      ok: false,
      message: `Expected \`pointer\` to be empty or start with \`/\` (RFC 6901), got \`${pointer}\``,
    };
  }
  // RFC 6901 §3: `~` is only ever followed by `0` or `1`.
  const badEscape = /~(?![01])/.exec(pointer);
  if (badEscape !== null) {
    return {
      ok: false,
      message: `Expected \`~\` in \`pointer\` to be followed by \`0\` or \`1\` (RFC 6901 §3), at offset ${badEscape.index} of \`${pointer}\``,
    };
  }
  return { ok: true, tokens: pointer.slice(1).split('/').map(unescapeToken) };
}

/** Unescape one reference token: `~1` to `/`, then `~0` to `~` (RFC 6901 §4). */
export function unescapeToken(token: string): string {
  return token.includes('~') ? token.replace(/~1/g, '/').replace(/~0/g, '~') : token;
}

/** Escape one reference token: `~` to `~0`, then `/` to `~1` (RFC 6901 §3). */
export function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The outcome of following a pointer through a parsed document. */
export type Resolved =
  | { readonly found: true; readonly value: unknown }
  | { readonly found: false; readonly message: string };

/**
 * Follow reference tokens through a parsed JSON value (RFC 6901 §4): an object member by
 * name, an array element by a decimal index without leading zeros. `-` (the element
 * after the last) and anything missing select nothing.
 */
export function resolveTokens(root: unknown, tokens: readonly string[]): Resolved {
  let value = root;
  let at = '';
  for (const token of tokens) {
    const here = at === '' ? 'the document root' : `\`${at}\``;
    if (Array.isArray(value)) {
      if (!/^(0|[1-9][0-9]*)$/.test(token)) {
        return {
          found: false,
          message: `${here} is an array and \`${token}\` is not an array index`,
        };
      }
      const index = Number(token);
      if (index >= value.length) {
        return {
          found: false,
          message: `${here} is an array of ${value.length} elements and has no index ${token}`,
        };
      }
      value = value[index];
    } else if (value !== null && typeof value === 'object') {
      if (!Object.hasOwn(value, token)) {
        return { found: false, message: `${here} has no member \`${token}\`` };
      }
      value = (value as Record<string, unknown>)[token];
    } else {
      return {
        found: false,
        message: `${here} is ${value === null ? 'null' : `a ${typeof value}`}, which has no members`,
      };
    }
    at += `/${escapeToken(token)}`;
  }
  return { found: true, value };
}
