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
 * The walk is iterative, so arbitrarily deep values cannot overflow the stack.
 *
 * @example
 *   canonicalize({ b: [1, 2.50], a: '€' }) // '{"a":"€","b":[1,2.5]}'
 */
export function canonicalize(value: unknown): string {
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
        throw new StorefrontError(
          'internal_error',
          `Expected a JSON value, got \`${typeof item}\` (canonical JSON has no form for it)`,
        );
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

    const proto: unknown = Object.getPrototypeOf(item);
    if (proto !== Object.prototype && proto !== null) {
      const name = (item as { constructor?: { name?: string } }).constructor?.name ?? 'object';
      throw new StorefrontError(
        'internal_error',
        `Expected a plain object, got \`${name}\` (convert it to JSON values first)`,
      );
    }

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

function serializeString(value: string): string {
  if (!value.isWellFormed()) {
    throw new StorefrontError(
      'internal_error',
      'Expected a well-formed string, got one with a lone surrogate (RFC 7493 §2.1)',
    );
  }
  return JSON.stringify(value);
}
