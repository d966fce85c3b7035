import {
  collapseWhitespace,
  getAttr,
  type HtmlElement,
  type HtmlPage,
  isElement,
  isText,
  resolveUrl,
  textContent,
  walk,
} from '@storefront/html';
import { parseJsonLd } from '@storefront/metadata';

const HTML_NAMESPACE = 'http://www.w3.org/1999/xhtml';

/** One `<link rel="alternate" hreflang>`: the language and the resolved URL (null when it does not resolve). */
export interface Hreflang {
  readonly lang: string;
  readonly href: string | null;
}

/** Everything the rules read from the page's tree, gathered in one walk. */
export interface PageFacts {
  /** Every HTML `<title>`, whitespace collapsed. */
  readonly titles: readonly string[];
  /** The `content` of every `<meta name="description">`, whitespace collapsed. */
  readonly descriptions: readonly string[];
  /** The level of every heading `<h1>`–`<h6>`, in document order. */
  readonly headings: readonly number[];
  /** The text of every `<h1>`, whitespace collapsed. */
  readonly h1: readonly string[];
  /** The `href` of every `<link rel=canonical>` as written, and resolved (null when it does not resolve). */
  readonly canonicals: readonly { readonly raw: string; readonly url: string | null }[];
  /** Every robots meta: `name` (lower-cased: robots, googlebot, …) and `content`. */
  readonly robotsMeta: readonly { readonly name: string; readonly content: string }[];
  readonly hreflang: readonly Hreflang[];
  readonly images: number;
  readonly imagesWithAlt: number;
  /** The `src` of images without `alt`, resolved where possible, in document order. */
  readonly imagesWithoutAlt: readonly string[];
  readonly jsonLdBlocks: number;
  /** 1-based indexes of JSON-LD blocks that did not parse. */
  readonly jsonLdInvalid: readonly number[];
  /** `@type` values of the parsed JSON-LD objects, first seen first. */
  readonly jsonLdTypes: readonly string[];
  /** Elements with `itemscope` (microdata). */
  readonly microdata: number;
  /** Resolved subresource URLs whose scheme is `http:`. */
  readonly insecure: readonly string[];
}

/** Robots meta names read as directives for every crawler or for a major one. */
const ROBOTS_NAMES = new Set(['robots', 'googlebot', 'bingbot']);

/** Elements and attributes that load a subresource (mixed content, Mixed Content §3). */
const SUBRESOURCES: Readonly<Record<string, readonly string[]>> = {
  img: ['src', 'srcset'],
  script: ['src'],
  iframe: ['src'],
  source: ['src', 'srcset'],
  video: ['src', 'poster'],
  audio: ['src'],
  track: ['src'],
  embed: ['src'],
  object: ['data'],
};

/** `<link rel>` tokens that load what they point at. */
const LOADING_RELS = new Set(['stylesheet', 'icon', 'preload', 'modulepreload', 'manifest']);

/** Walk the page once and gather the facts the rubric grades. */
export function scanPage(page: HtmlPage): PageFacts {
  const titles: string[] = [];
  const descriptions: string[] = [];
  const headings: number[] = [];
  const h1: string[] = [];
  const canonicals: { raw: string; url: string | null }[] = [];
  const robotsMeta: { name: string; content: string }[] = [];
  const hreflang: Hreflang[] = [];
  const imagesWithoutAlt: string[] = [];
  const jsonLdInvalid: number[] = [];
  const jsonLdTypes: string[] = [];
  const insecure: string[] = [];
  let images = 0;
  let imagesWithAlt = 0;
  let jsonLdBlocks = 0;
  let microdata = 0;
  const base = page.baseUrl;

  const insecureUrl = (value: string) => {
    const url = resolveUrl(value.trim(), base);
    if (url?.startsWith('http:')) insecure.push(url);
  };

  if (page.kind === 'html') {
    walk(page.document, {
      enter(node) {
        if (!isElement(node)) return;
        // Inert or foreign subtrees are not part of the page as crawlers index it.
        if (node.namespaceURI !== HTML_NAMESPACE || node.tagName === 'template') return 'skip';
        if (node.attrs.length > 0 && getAttr(node, 'itemscope') !== null) microdata++;
        const tag = node.tagName;
        const loads = SUBRESOURCES[tag];
        if (loads !== undefined) {
          for (const name of loads) {
            const value = getAttr(node, name);
            if (value === null) continue;
            if (name === 'srcset')
              for (const candidate of srcsetUrls(value)) insecureUrl(candidate);
            else insecureUrl(value);
          }
        }
        switch (tag) {
          case 'title':
            titles.push(collapseWhitespace(textContent(node)));
            return 'skip';
          case 'meta': {
            const name = (getAttr(node, 'name') ?? '').trim().toLowerCase();
            const content = collapseWhitespace(getAttr(node, 'content') ?? '');
            if (name === 'description') descriptions.push(content);
            else if (ROBOTS_NAMES.has(name)) robotsMeta.push({ name, content });
            return 'skip';
          }
          case 'link':
            readLink(node);
            return 'skip';
          case 'img': {
            images++;
            if (getAttr(node, 'alt') !== null) imagesWithAlt++;
            else {
              const src = (getAttr(node, 'src') ?? '').trim();
              imagesWithoutAlt.push(src === '' ? '(no src)' : (resolveUrl(src, base) ?? src));
            }
            return;
          }
          case 'script':
            if (isJsonLd(node)) readJsonLd(node);
            return 'skip';
          case 'h1':
          case 'h2':
          case 'h3':
          case 'h4':
          case 'h5':
          case 'h6': {
            const level = Number(tag[1]);
            headings.push(level);
            if (level === 1) h1.push(collapseWhitespace(textContent(node)));
            return;
          }
        }
      },
    });
  }

  function readLink(node: HtmlElement): void {
    const rels = (getAttr(node, 'rel') ?? '').toLowerCase().split(/[\t\n\f\r ]+/);
    const href = getAttr(node, 'href');
    if (href === null) return;
    if (rels.includes('canonical')) {
      canonicals.push({ raw: href.trim(), url: httpUrl(resolveUrl(href.trim(), base)) });
    }
    const lang = getAttr(node, 'hreflang');
    if (rels.includes('alternate') && lang !== null) {
      hreflang.push({ lang: lang.trim(), href: httpUrl(resolveUrl(href.trim(), base)) });
    }
    if (rels.some((rel) => LOADING_RELS.has(rel))) insecureUrl(href);
  }

  function readJsonLd(node: HtmlElement): void {
    jsonLdBlocks++;
    let source = '';
    for (const child of node.childNodes) if (isText(child)) source += child.value;
    const items = parseJsonLd(source);
    if (items === null) {
      jsonLdInvalid.push(jsonLdBlocks);
      return;
    }
    for (const item of items) {
      const type = item['@type'];
      const names = Array.isArray(type) ? type : [type];
      for (const name of names) {
        if (typeof name === 'string' && name !== '' && !jsonLdTypes.includes(name)) {
          jsonLdTypes.push(name);
        }
      }
    }
  }

  return {
    titles,
    descriptions,
    headings,
    h1,
    canonicals,
    robotsMeta,
    hreflang,
    images,
    imagesWithAlt,
    imagesWithoutAlt,
    jsonLdBlocks,
    jsonLdInvalid,
    jsonLdTypes,
    microdata,
    insecure,
  };
}

function isJsonLd(node: HtmlElement): boolean {
  const type = getAttr(node, 'type');
  return type !== null && type.trim().toLowerCase() === 'application/ld+json';
}

/** The URLs of a `srcset` (HTML §4.8.4.3.1, simplified: candidates split at commas followed by whitespace or at the end). */
function srcsetUrls(srcset: string): string[] {
  const urls: string[] = [];
  for (const candidate of srcset.split(/,(?:\s+|$)/)) {
    const url = candidate.trim().split(/\s+/)[0];
    if (url !== undefined && url !== '') urls.push(url);
  }
  return urls;
}

/** `url` when it is http(s), else null. */
function httpUrl(url: string | null): string | null {
  return url !== null && (url.startsWith('http:') || url.startsWith('https:')) ? url : null;
}
