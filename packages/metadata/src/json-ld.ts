import { capString, type JsonValue } from '@storefront/core';
import type { JsonLdObject } from './types.js';

/** A JSON-LD block longer than this (in UTF-16 code units, 1 Mi) is skipped unparsed. */
export const JSONLD_MAX_BLOCK_CHARS = 1024 * 1024;

/**
 * A JSON-LD block whose values nest deeper than this (objects and arrays counted from the
 * block's root) is skipped, so nothing downstream walks pathological depth.
 */
export const JSONLD_MAX_DEPTH = 64;

/** The most JSON-LD objects kept for one page; later ones are left out. */
export const JSONLD_MAX_ITEMS = 100;

/**
 * The longest JSON-LD string value (16,384 characters, UTF-16 code units; an `articleBody`
 * fits); a longer one keeps its start and ends with `…` (`capString` of @storefront/core).
 */
export const JSONLD_MAX_STRING_CHARS = 16_384;

/** The longest JSON-LD key (1,024 characters); a longer one is cut the same way. */
export const JSONLD_MAX_KEY_CHARS = 1024;

/** Wrappers some pages put around a block, longest first so `//<![CDATA[` beats `<![CDATA[`. */
const PREFIXES = ['/*<![CDATA[*/', '//<![CDATA[', '<![CDATA[', '<!--'] as const;
const SUFFIXES = ['/*]]>*/', '//]]>', ']]>', '//-->', '-->', ';'] as const;

/**
 * Parse the text of one `<script type="application/ld+json">` into JSON-LD objects:
 * HTML comment and CDATA wrappers and a trailing semicolon are tolerated; top-level
 * arrays and `@graph` are flattened into separate objects, each `@graph` member
 * inheriting the container's `@context` unless it has its own; non-object members are
 * dropped. Strings are made well-formed (lone surrogates become U+FFFD) and numbers
 * too large for a double (`1e400`) become null, so every object has a canonical form.
 * Strings longer than {@link JSONLD_MAX_STRING_CHARS} and keys longer than
 * {@link JSONLD_MAX_KEY_CHARS} keep their start and end with `…`.
 *
 * @returns the objects (possibly none), or null when the block is not JSON, is longer
 *   than {@link JSONLD_MAX_BLOCK_CHARS}, or nests deeper than {@link JSONLD_MAX_DEPTH}.
 */
export function parseJsonLd(
  source: string,
  maxItems: number = JSONLD_MAX_ITEMS,
): JsonLdObject[] | null {
  if (source.length > JSONLD_MAX_BLOCK_CHARS) return null;
  const text = unwrap(source);
  if (text === '') return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const value = sanitize(parsed);
  if (value === TOO_DEEP) return null;
  const out: JsonLdObject[] = [];
  flatten(value, out, maxItems);
  return out;
}

function unwrap(source: string): string {
  let text = source.trim();
  // A few rounds cover combinations such as `<!--//<![CDATA[ … //]]>-->`.
  for (let round = 0; round < 8; round++) {
    const before = text;
    for (const prefix of PREFIXES) {
      if (text.startsWith(prefix)) {
        text = text.slice(prefix.length).trim();
        break;
      }
    }
    for (const suffix of SUFFIXES) {
      if (text.endsWith(suffix)) {
        text = text.slice(0, text.length - suffix.length).trim();
        break;
      }
    }
    if (text === before) break;
  }
  return text;
}

const TOO_DEEP = Symbol('too deep');

type Container = unknown[] | Record<string, unknown>;
type OutContainer = JsonValue[] | Record<string, JsonValue>;

interface Frame {
  readonly source: Container;
  readonly out: OutContainer;
  /** Keys of an object source, or null for an array. */
  readonly keys: readonly string[] | null;
  readonly length: number;
  readonly depth: number;
  next: number;
}

function isContainer(value: unknown): value is Container {
  return value !== null && typeof value === 'object';
}

function emptyLike(value: Container): OutContainer {
  return Array.isArray(value) ? [] : {};
}

function frame(source: Container, out: OutContainer, depth: number): Frame {
  const keys = Array.isArray(source) ? null : Object.keys(source);
  return {
    source,
    out,
    keys,
    length: keys === null ? (source as unknown[]).length : keys.length,
    depth,
    next: 0,
  };
}

function leaf(value: unknown): JsonValue {
  switch (typeof value) {
    case 'string':
      return capString(value.toWellFormed(), JSONLD_MAX_STRING_CHARS);
    case 'number':
      return Number.isFinite(value) ? value : null;
    case 'boolean':
      return value;
    default:
      return null;
  }
}

function put(out: OutContainer, key: string | null, value: JsonValue): void {
  if (key === null) {
    (out as JsonValue[]).push(value);
    return;
  }
  const record = out as Record<string, JsonValue>;
  const name = capString(key.toWellFormed(), JSONLD_MAX_KEY_CHARS);
  // Two keys can become equal once made well-formed or cut: the first one stays.
  if (Object.hasOwn(record, name)) return;
  // `__proto__` from JSON.parse is an ordinary own key; keep it one.
  Object.defineProperty(record, name, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/** Copy a parsed JSON value into a canonicalisable one, iteratively, refusing excess depth. */
function sanitize(root: unknown): JsonValue | typeof TOO_DEEP {
  if (!isContainer(root)) return leaf(root);
  const rootOut = emptyLike(root);
  const stack: Frame[] = [frame(root, rootOut, 1)];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next >= top.length) {
      stack.pop();
      continue;
    }
    const index = top.next++;
    const key = top.keys === null ? null : top.keys[index]!;
    const value =
      key === null
        ? (top.source as unknown[])[index]
        : (top.source as Record<string, unknown>)[key];
    if (isContainer(value)) {
      if (top.depth >= JSONLD_MAX_DEPTH) return TOO_DEEP;
      const out = emptyLike(value);
      put(top.out, key, out);
      stack.push(frame(value, out, top.depth + 1));
    } else {
      put(top.out, key, leaf(value));
    }
  }
  return rootOut;
}

function isObject(value: JsonValue | undefined): value is { readonly [key: string]: JsonValue } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Top-level arrays and `@graph` become separate objects, in document order. A container
 * holding more than `@context` and `@graph` is kept too (without `@graph`), before its
 * members.
 */
function flatten(root: JsonValue, out: JsonLdObject[], maxItems: number): void {
  const stack: { value: JsonValue; context: JsonValue | undefined }[] = [
    { value: root, context: undefined },
  ];
  while (stack.length > 0 && out.length < maxItems) {
    const { value, context } = stack.pop()!;
    if (Array.isArray(value)) {
      for (let i = value.length - 1; i >= 0; i--) stack.push({ value: value[i]!, context });
      continue;
    }
    if (!isObject(value)) continue;
    const own = Object.hasOwn(value, '@context') ? value['@context'] : context;
    if (Object.hasOwn(value, '@graph')) {
      stack.push({ value: value['@graph']!, context: own });
      const rest = Object.keys(value).filter((key) => key !== '@graph' && key !== '@context');
      if (rest.length > 0) {
        const container: Record<string, JsonValue> = {};
        if (own !== undefined) container['@context'] = own;
        for (const key of rest) put(container, key, value[key]!);
        stack.push({ value: container, context: undefined });
      }
      continue;
    }
    out.push(
      context === undefined || Object.hasOwn(value, '@context')
        ? value
        : withContext(value, context),
    );
  }
}

function withContext(value: JsonLdObject, context: JsonValue): JsonLdObject {
  const copy: Record<string, JsonValue> = {};
  put(copy, '@context', context);
  for (const key of Object.keys(value)) put(copy, key, value[key]!);
  return copy;
}
