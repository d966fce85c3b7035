import type { HtmlPage } from './types.js';

const MEMO = Symbol('@storefront/html memo');
type CarriesMemo = { [MEMO]?: Map<symbol, unknown> };

/**
 * Compute something from a page once and keep it with the page, so products that read
 * the same page (metadata and extract, say) share the work. The value lives exactly as
 * long as the page. `key` is a symbol owned by the caller.
 *
 * @example
 *   const KEY = Symbol('my-product');
 *   const value = pageMemo(page, KEY, () => expensive(page));
 */
export function pageMemo<T>(page: HtmlPage, key: symbol, compute: () => T): T {
  const holder = page as HtmlPage & CarriesMemo;
  let memo = holder[MEMO];
  if (memo === undefined) {
    memo = new Map();
    Object.defineProperty(holder, MEMO, { value: memo, enumerable: false });
  }
  if (memo.has(key)) return memo.get(key) as T;
  const value = compute();
  memo.set(key, value);
  return value;
}
