import { collapseWhitespace, type HtmlElement, textContent } from '@storefront/html';

/** The text of a microdata property element, computed only when a rule reads it. */
export class LazyText {
  #element: HtmlElement;
  #value: string | null = null;

  constructor(element: HtmlElement) {
    this.#element = element;
  }

  get value(): string {
    if (this.#value === null) this.#value = collapseWhitespace(textContent(this.#element));
    return this.#value;
  }
}

/** A plain object node (JSON-LD object or microdata item). */
export function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    !(value instanceof LazyText)
  );
}

/** How many values a path step keeps (arrays are read in order up to this many). */
export const LOOKUP_MAX_BRANCH = 16;

/**
 * Follow a property path (`offers.price`) from `root`: arrays at any step are read in
 * order (at most {@link LOOKUP_MAX_BRANCH} values), and `resolve` may replace a node
 * (a JSON-LD `{"@id": …}` reference) before it is read. Returns every value reached, in
 * order; the caller takes the first valid one.
 */
export function lookup(
  root: unknown,
  path: readonly string[],
  resolve: (node: unknown) => unknown = (node) => node,
): unknown[] {
  let current: unknown[] = [root];
  for (const key of path) {
    const next: unknown[] = [];
    for (const node of current) {
      const target = resolve(node);
      if (!isRecord(target) || !Object.hasOwn(target, key)) continue;
      const value = target[key];
      if (Array.isArray(value)) {
        for (const member of value) {
          if (next.length >= LOOKUP_MAX_BRANCH) break;
          if (!Array.isArray(member)) next.push(member);
        }
      } else if (next.length < LOOKUP_MAX_BRANCH) {
        next.push(value);
      }
    }
    current = next;
  }
  return current.map(resolve);
}

/**
 * A scalar from a value reached by a path: strings, numbers and booleans as they are,
 * lazy microdata text read, an object's `@value`, else the first of `keys` it holds
 * (an author's `name`, an image's `url`).
 */
export function scalarOf(
  value: unknown,
  keys: readonly string[],
): string | number | boolean | null {
  const direct = scalar(value);
  if (direct !== null || !isRecord(value)) return direct;
  for (const key of ['@value', ...keys]) {
    if (!Object.hasOwn(value, key)) continue;
    const member = value[key];
    const found = scalar(Array.isArray(member) ? member.find((m) => scalar(m) !== null) : member);
    if (found !== null) return found;
  }
  return null;
}

function scalar(value: unknown): string | number | boolean | null {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (value instanceof LazyText) return value.value;
  return null;
}
