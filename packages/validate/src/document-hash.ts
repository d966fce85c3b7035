import { createHash } from 'node:crypto';
import type { Sha256Hex } from '@storefront/core';
import { keysOf } from './object-keys.js';

/** A value that has no RFC 8785 form (a lone surrogate, a number JSON.parse made infinite). */
export class NotCanonical {
  constructor(readonly message: string) {}
}

/** Hash the canonical text in slices of about this many UTF-16 code units. */
const SLICE = 65_536;

const LONE_SURROGATE = 'a string with a lone surrogate (I-JSON, RFC 7493 §2.1)';

/**
 * `0x` + sha256 of the RFC 8785 form of a value produced by `JSON.parse`. Byte-identical
 * to `sha256Hex(canonicalize(value))` of `@storefront/core` (a property test holds it to
 * that), but written for large parsed documents: the canonical text is hashed slice by
 * slice instead of being built whole, member names are quoted once per document, and an
 * array of scalars is written by `JSON.stringify` (whose scalar forms are RFC 8785's)
 * once each scalar is checked. Recursive, which is safe because documents are at most
 * 64 levels deep. Throws {@link NotCanonical} for values with no canonical form.
 */
export function documentHash(value: unknown): Sha256Hex {
  const hash = createHash('sha256');
  const quoted = new Map<string, string>();
  const sortedShapes = new Map<string, readonly string[]>();
  let out = '';

  const quoteKey = (key: string): string => {
    let text = quoted.get(key);
    if (text === undefined) {
      if (!key.isWellFormed()) throw new NotCanonical(LONE_SURROGATE);
      text = JSON.stringify(key);
      quoted.set(key, text);
    }
    return text;
  };

  // RFC 8785 §3.2.2: literals as JSON.stringify writes them, numbers in the ECMAScript
  // Number::toString form (-0 is written 0), strings with JSON.stringify's escaping.
  const scalar = (item: unknown): void => {
    switch (typeof item) {
      case 'string':
        if (!item.isWellFormed()) throw new NotCanonical(LONE_SURROGATE);
        out += JSON.stringify(item);
        return;
      case 'number':
        if (!Number.isFinite(item)) {
          throw new NotCanonical(
            `a number outside the IEEE 754 double range (read as \`${item}\`)`,
          );
        }
        out += `${item}`;
        return;
      case 'boolean':
        out += item ? 'true' : 'false';
        return;
      default:
        out += 'null';
    }
  };

  const write = (node: object): void => {
    if (Array.isArray(node)) {
      if (node.every(isCanonicalScalar)) {
        out += JSON.stringify(node);
      } else {
        out += '[';
        for (let i = 0; i < node.length; i++) {
          if (i > 0) out += ',';
          const item: unknown = node[i];
          if (item !== null && typeof item === 'object') write(item);
          else scalar(item);
        }
        out += ']';
      }
    } else {
      const record = node as Record<string, unknown>;
      // RFC 8785 §3.2.3: members sorted by the UTF-16 code units of their names. Records
      // of one API share their member lists: sort each distinct list once.
      const own = keysOf(record);
      const shape = shapeOf(own);
      let keys = shape === null ? undefined : sortedShapes.get(shape);
      if (keys === undefined) {
        keys = [...own].sort();
        if (shape !== null && sortedShapes.size < 1024) sortedShapes.set(shape, keys);
      }
      out += '{';
      for (let i = 0; i < keys.length; i++) {
        const key = keys[i] as string;
        out += i > 0 ? `,${quoteKey(key)}:` : `${quoteKey(key)}:`;
        const item = record[key];
        if (item !== null && typeof item === 'object') write(item);
        else scalar(item);
      }
      out += '}';
    }
    if (out.length > SLICE) {
      hash.update(out);
      out = '';
    }
  };

  if (value !== null && typeof value === 'object') write(value);
  else scalar(value);
  hash.update(out);
  return `0x${hash.digest('hex')}`;
}

/** A scalar that `JSON.stringify` writes exactly as RFC 8785 does. */
function isCanonicalScalar(value: unknown): boolean {
  switch (typeof value) {
    case 'number':
      return Number.isFinite(value);
    case 'string':
      return value.isWellFormed();
    case 'boolean':
      return true;
    default:
      return value === null;
  }
}

/**
 * The member list of a small record as one string, or null: names joined with U+0000,
 * which is unambiguous because a name that contains U+0000 gives null.
 */
function shapeOf(keys: readonly string[]): string | null {
  if (keys.length < 2 || keys.length > 32) return null;
  for (const key of keys) if (key.includes('\u0000')) return null;
  return keys.join('\u0000');
}
