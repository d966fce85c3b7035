import { StorefrontError } from './errors.js';

/** A value that has a canonical JSON form. */
export type JsonValue =
  | null
  | boolean
  | number
  | string
  | readonly JsonValue[]
  | { readonly [key: string]: JsonValue | undefined };

class Literal {
  constructor(readonly text: string) {}
}
class Exit {
  constructor(readonly node: object) {}
}

/**
 * Serialise a JSON value in the RFC 8785 JSON Canonicalization Scheme (JCS):
 * object keys sorted by UTF-16 code units (§3.2.3), no whitespace, numbers in the
 * ECMAScript `Number.prototype.toString` form (§3.2.2.3), strings escaped as
 * ECMAScript `JSON.stringify` does (§3.2.2.2).
 *
 * Object members whose value is `undefined` are left out, as `JSON.stringify` does.
 * Misuse throws a {@link StorefrontError}: non-finite numbers, lone surrogates (I-JSON,
 * RFC 7493 §2.1), cycles, and values that are not plain JSON (dates, maps, bigints …).
 * Plain values (nested up to {@link COPY_DEPTH} levels, with no array-index-like or
 * `__proto__` keys) are written by `JSON.stringify` over a copy whose members are in
 * canonical order, which escapes strings and writes numbers exactly as RFC 8785 says;
 * every other value by an explicit-stack walk, so arbitrarily deep values cannot
 * overflow the stack and cycles are reported. Both give the same text.
 *
 * @example
 *   canonicalize({ b: [1, 2.50], a: '€' }) // '{"a":"€","b":[1,2.5]}'
 */
export function canonicalize(value: unknown): string {
  const copy = sortedCopy(value, 0);
  return copy === UNSUITABLE ? canonicalizeIteratively(value) : JSON.stringify(copy);
}

/** How deep {@link sortedCopy} goes before it leaves the value to the iterative walk. */
export const COPY_DEPTH = 200;

/** What {@link sortedCopy} returns for a value `JSON.stringify` cannot write canonically. */
const UNSUITABLE: unique symbol = Symbol('unsuitable');

/** Keys `JSON.stringify` writes before the others, whatever their order: array indices. */
const INDEX_LIKE = /^(?:0|[1-9][0-9]{0,9})$/;

/**
 * A copy of `value` whose objects hold their members in canonical order (§3.2.3: by
 * UTF-16 code units, the default comparator's order), checked as the walk goes (finite
 * numbers, well-formed strings, plain objects: the same errors as the iterative walk).
 * `UNSUITABLE` when `JSON.stringify` would not keep that order (an array-index key, which
 * it writes first; `__proto__`, which a copy cannot hold as a member) or the value nests
 * deeper than {@link COPY_DEPTH} (a cycle does): the iterative walk writes those.
 * About twice as fast as the iterative walk on the service's results (its strings are
 * shared, not copied).
 */
function sortedCopy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
      checkString(value);
      return value;
    case 'number':
      serializeNumber(value);
      return value;
    case 'boolean':
      return value;
    case 'object':
      break;
    default:
      return notJson(value);
  }
  if (value === null) return null;
  if (depth === COPY_DEPTH) return UNSUITABLE;
  if (Array.isArray(value)) {
    const out: unknown[] = new Array(value.length);
    for (let i = 0; i < value.length; i++) {
      const element: unknown = value[i];
      // JSON.stringify writes holes and undefined elements as null.
      const copy = element === undefined ? null : sortedCopy(element, depth + 1);
      if (copy === UNSUITABLE) return UNSUITABLE;
      out[i] = copy;
    }
    return out;
  }
  checkPlain(value);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const member = record[key];
    if (member === undefined) continue;
    if (key === '__proto__' || INDEX_LIKE.test(key)) return UNSUITABLE;
    checkString(key);
    const copy = sortedCopy(member, depth + 1);
    if (copy === UNSUITABLE) return UNSUITABLE;
    out[key] = copy;
  }
  return out;
}

function notJson(value: unknown): never {
  throw new StorefrontError(
    'internal_error',
    `Expected a JSON value, got \`${typeof value}\` (canonical JSON has no form for it)`,
  );
}

function checkPlain(item: object): void {
  const proto: unknown = Object.getPrototypeOf(item);
  if (proto !== Object.prototype && proto !== null) {
    const name = (item as { constructor?: { name?: string } }).constructor?.name ?? 'object';
    throw new StorefrontError(
      'internal_error',
      `Expected a plain object, got \`${name}\` (convert it to JSON values first)`,
    );
  }
}

/** {@link canonicalize} by an explicit stack: any depth, and cycles detected. */
export function canonicalizeIteratively(value: unknown): string {
  const out: string[] = [];
  const stack: unknown[] = [value];
  const ancestors = new Set<object>();

  while (stack.length > 0) {
    const item = stack.pop();

    if (item instanceof Literal) {
      out.push(item.text);
      continue;
    }
    if (item instanceof Exit) {
      ancestors.delete(item.node);
      continue;
    }

    switch (typeof item) {
      case 'string':
        out.push(serializeString(item));
        continue;
      case 'number':
        out.push(serializeNumber(item));
        continue;
      case 'boolean':
        out.push(item ? 'true' : 'false');
        continue;
      case 'object':
        break;
      default:
        notJson(item);
    }

    if (item === null) {
      out.push('null');
      continue;
    }
    if (ancestors.has(item)) {
      throw new StorefrontError('internal_error', 'Expected an acyclic JSON value, got a cycle');
    }

    if (Array.isArray(item)) {
      if (item.length === 0) {
        out.push('[]');
        continue;
      }
      ancestors.add(item);
      out.push('[');
      stack.push(new Exit(item), new Literal(']'));
      for (let i = item.length - 1; i >= 0; i--) {
        const element: unknown = item[i];
        // JSON.stringify writes holes and undefined elements as null.
        stack.push(element === undefined ? null : element);
        if (i > 0) stack.push(new Literal(','));
      }
      continue;
    }

    checkPlain(item);
    const record = item as Record<string, unknown>;
    // §3.2.3: sort by UTF-16 code units, which is what the default comparator does.
    const keys = Object.keys(record)
      .filter((key) => record[key] !== undefined)
      .sort();
    if (keys.length === 0) {
      out.push('{}');
      continue;
    }
    ancestors.add(item);
    out.push('{');
    stack.push(new Exit(item), new Literal('}'));
    for (let i = keys.length - 1; i >= 0; i--) {
      const key = keys[i] as string;
      stack.push(record[key]);
      stack.push(new Literal(`${i > 0 ? ',' : ''}${serializeString(key)}:`));
    }
  }

  return out.join('');
}

function serializeNumber(value: number): string {
  if (!Number.isFinite(value)) {
    throw new StorefrontError(
      'internal_error',
      `Expected a finite number, got \`${value}\` (RFC 8785 §3.2.2.3 has no form for it)`,
    );
  }
  // ES Number::toString gives the shortest round-trip form; -0 becomes "0".
  return String(value);
}

function checkString(value: string): void {
  if (!value.isWellFormed()) {
    throw new StorefrontError(
      'internal_error',
      'Expected a well-formed string, got one with a lone surrogate (RFC 7493 §2.1)',
    );
  }
}

function serializeString(value: string): string {
  checkString(value);
  return JSON.stringify(value);
}
