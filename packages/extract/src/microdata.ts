import {
  type HtmlElement,
  type HtmlPage,
  isElement,
  pageMemo,
  resolveUrl,
  walk,
} from '@storefront/html';
import { LazyText } from './lookup.js';

/** The most property values (items included) read from one page's microdata. */
export const MICRODATA_MAX_VALUES = 10_000;

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/** A microdata item as a plain object: `@type` (the `itemtype` URLs) and one key per property. */
export type MicrodataItem = Record<string, unknown>;

const URL_ATTRIBUTE: Readonly<Record<string, string>> = {
  a: 'href',
  area: 'href',
  link: 'href',
  audio: 'src',
  embed: 'src',
  iframe: 'src',
  img: 'src',
  source: 'src',
  track: 'src',
  video: 'src',
  object: 'data',
};

const MEMO_KEY = Symbol('@storefront/extract microdata');

/**
 * The top-level microdata items of a page (HTML §5.2), in document order: every
 * `itemscope` element that is not the `itemprop` value of an enclosing item, with its
 * properties; a nested `itemscope` with `itemprop` becomes that property's value. One
 * iterative walk, cached per page. `itemref` is not followed.
 */
export function microdataItems(page: HtmlPage): readonly MicrodataItem[] {
  return pageMemo(page, MEMO_KEY, () => collect(page));
}

function collect(page: HtmlPage): MicrodataItem[] {
  const top: MicrodataItem[] = [];
  if (page.kind !== 'html') return top;
  const scopes: { element: HtmlElement; item: MicrodataItem }[] = [];
  let values = 0;
  walk(page.document, {
    enter(node) {
      if (!isElement(node)) return;
      if (node.namespaceURI !== HTML_NAMESPACE || node.tagName === 'template') return 'skip';
      let itemscope = false;
      let itemprop: string | null = null;
      let itemtype: string | null = null;
      for (const attr of node.attrs) {
        if (attr.namespace !== undefined) continue;
        if (attr.name === 'itemscope') itemscope = true;
        else if (attr.name === 'itemprop') itemprop = attr.value;
        else if (attr.name === 'itemtype') itemtype = attr.value;
      }
      if (!itemscope && itemprop === null) return;
      if (values >= MICRODATA_MAX_VALUES) return;
      const parent = scopes.length > 0 ? scopes[scopes.length - 1]!.item : null;
      const names = itemprop === null ? [] : itemprop.split(/[\t\n\f\r ]+/).filter((n) => n !== '');
      let value: unknown;
      if (itemscope) {
        const item: MicrodataItem = {};
        const types =
          itemtype === null ? [] : itemtype.split(/[\t\n\f\r ]+/).filter((t) => t !== '');
        if (types.length > 0) item['@type'] = types;
        scopes.push({ element: node, item });
        value = item;
        if (parent === null || names.length === 0) {
          top.push(item);
          values++;
          return;
        }
      } else {
        if (parent === null) return;
        value = propertyValue(node, page.baseUrl);
      }
      values++;
      for (const name of names) addValue(parent!, name, value);
    },
    leave(node) {
      if (scopes.length > 0 && scopes[scopes.length - 1]!.element === node) scopes.pop();
    },
  });
  return top;
}

function addValue(item: MicrodataItem, name: string, value: unknown): void {
  const existing = Object.hasOwn(item, name) ? item[name] : undefined;
  if (Array.isArray(existing)) {
    existing.push(value);
    return;
  }
  // defineProperty keeps a `__proto__` property an ordinary own key.
  Object.defineProperty(item, name, {
    value: existing === undefined ? value : [existing, value],
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * HTML §5.2.4 property values, with one widespread extension: a `content` attribute on
 * any element wins (as on `<span itemprop="price" content="1299.00">$1,299.00</span>`).
 */
function propertyValue(element: HtmlElement, baseUrl: string): unknown {
  const attr = (name: string): string | null => {
    for (const a of element.attrs) if (a.name === name && a.namespace === undefined) return a.value;
    return null;
  };
  const content = attr('content');
  if (content !== null) return content;
  const tag = element.tagName;
  if (tag === 'meta') return '';
  const urlAttribute = URL_ATTRIBUTE[tag];
  if (urlAttribute !== undefined) {
    const raw = attr(urlAttribute);
    return raw === null ? '' : (resolveUrl(raw.trim(), baseUrl) ?? '');
  }
  if (tag === 'data' || tag === 'meter') return attr('value') ?? '';
  if (tag === 'time') {
    const datetime = attr('datetime');
    if (datetime !== null) return datetime;
  }
  return new LazyText(element);
}
