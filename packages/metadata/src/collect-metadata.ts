import {
  type HtmlElement,
  type HtmlPage,
  isElement,
  isText,
  pageMemo,
  resolveUrl,
  walk,
} from '@storefront/html';
import { JSONLD_MAX_ITEMS, parseJsonLd } from './json-ld.js';
import { type MetaBuckets, readMeta } from './meta-tags.js';
import type { CollectedMetadata, JsonLdObject } from './types.js';

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

const MEMO_KEY = Symbol('@storefront/metadata collected');

/**
 * The raw metadata of a parsed page (`<title>`, canonical link, OpenGraph, Twitter and
 * named meta, JSON-LD), collected in one iterative walk of the shared tree and cached per
 * page, so `@storefront/extract` and `@storefront/metadata` on one document walk it once.
 * The returned object is shared: do not change it.
 *
 * @example
 *   const loaded = loadHtml(doc);
 *   if (loaded.ok) collectMetadata(loaded.page).openGraph['og:title'];
 */
export function collectMetadata(page: HtmlPage): CollectedMetadata {
  return pageMemo(page, MEMO_KEY, () => collect(page));
}

function collect(page: HtmlPage): CollectedMetadata {
  const buckets: MetaBuckets = { openGraph: new Map(), twitter: new Map(), standard: new Map() };
  const jsonLd: JsonLdObject[] = [];
  let canonical: string | null = null;

  // A text/plain page is wrapped in <pre> by loadHtml: it has no markup of its own.
  if (page.kind === 'html') {
    walk(page.document, {
      enter(node) {
        if (!isElement(node)) return;
        // Inert or foreign subtrees hold no metadata of the page: <template> content,
        // SVG and MathML (whose <title>, <script> and <link> mean something else).
        if (node.namespaceURI !== HTML_NAMESPACE || node.tagName === 'template') return 'skip';
        switch (node.tagName) {
          case 'meta':
            readMeta(node, buckets);
            return 'skip';
          case 'link':
            if (canonical === null) canonical = canonicalHref(node, page.baseUrl);
            return 'skip';
          case 'script':
            if (jsonLd.length < JSONLD_MAX_ITEMS && isJsonLdScript(node)) {
              const items = parseJsonLd(scriptText(node), JSONLD_MAX_ITEMS - jsonLd.length);
              if (items !== null) jsonLd.push(...items);
            }
            return 'skip';
        }
      },
    });
  }

  return {
    title: page.title === null ? null : page.title.toWellFormed(),
    canonical,
    openGraph: sortedRecord(buckets.openGraph),
    twitter: sortedRecord(buckets.twitter),
    standard: sortedRecord(buckets.standard),
    jsonLd,
  };
}

/** A record with keys in sorted order; `Object.fromEntries` keeps `__proto__` an own key. */
function sortedRecord(map: ReadonlyMap<string, string>): Record<string, string> {
  return Object.fromEntries([...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * The href of a `<link>` whose `rel` token list (ASCII case-insensitive) holds
 * `canonical`, resolved against the document base URL; null when it is not such a
 * link, the href is empty, or it does not resolve to an http(s) URL.
 */
function canonicalHref(element: HtmlElement, baseUrl: string): string | null {
  let rel: string | null = null;
  let href: string | null = null;
  for (const attr of element.attrs) {
    if (attr.namespace !== undefined) continue;
    if (attr.name === 'rel') rel = attr.value;
    else if (attr.name === 'href') href = attr.value;
  }
  if (rel === null || href === null) return null;
  const tokens = rel.toLowerCase().split(/[\t\n\f\r ]+/);
  if (!tokens.includes('canonical')) return null;
  const trimmed = href.trim();
  if (trimmed === '') return null;
  const url = resolveUrl(trimmed, baseUrl);
  if (url === null || !(url.startsWith('http://') || url.startsWith('https://'))) return null;
  return url;
}

/** `type` is `application/ld+json`, ASCII case-insensitive, parameters ignored. */
function isJsonLdScript(element: HtmlElement): boolean {
  for (const attr of element.attrs) {
    if (attr.name === 'type' && attr.namespace === undefined) {
      const essence = attr.value.split(';')[0]!.trim().toLowerCase();
      return essence === 'application/ld+json';
    }
  }
  return false;
}

function scriptText(element: HtmlElement): string {
  let text = '';
  for (const child of element.childNodes) if (isText(child)) text += child.value;
  return text;
}
