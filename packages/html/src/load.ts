import { decodeBytes, type FetchedDocument } from '@storefront/core';
import { parse } from 'parse5';
import { bodyKind } from './body-kind.js';
import { markContentHolders } from './boilerplate.js';
import { collapseWhitespace, getAttr, isElement, textContent, walk } from './dom.js';
import type { HtmlDocumentNode, HtmlElement, HtmlPage, LoadResult } from './types.js';
import { resolveUrl } from './urls.js';

/**
 * The most decoded characters handed to the parser (5 Mi). parse5 is linear in time but
 * its tree can take about 100 bytes of heap per input byte on pathological nesting, so
 * the rest of a larger body is left out and the page says `clipped`.
 */
export const HTML_MAX_PARSE_CHARS = 5 * 1024 * 1024;

/**
 * The parse is kept on the document object itself, under a private symbol, not in a
 * `WeakMap`: V8 keeps a weak map's values alive until a full collection, so a cache
 * there promoted every tree to the old generation and made loading 40 % slower. A
 * property dies with the document, young, as the tree should.
 */
const PAGE = Symbol('@storefront/html page');
type CarriesPage = { [PAGE]?: LoadResult };

/**
 * Decode and parse a fetched document once. Every product that reads the same
 * `FetchedDocument` object gets the same tree back, so a route that builds text,
 * markdown, links and a typed record from one page parses it once.
 *
 * The tree is shared: callers must not change it.
 *
 * @example
 *   const loaded = loadHtml(doc);
 *   if (loaded.ok) console.log(loaded.page.title);
 */
export function loadHtml(doc: FetchedDocument): LoadResult {
  const cached = (doc as CarriesPage)[PAGE];
  if (cached !== undefined) return cached;
  const result = load(doc);
  // A frozen document cannot carry the parse; it is then parsed on every call.
  if (Object.isExtensible(doc)) {
    Object.defineProperty(doc, PAGE, { value: result, enumerable: false, configurable: true });
  }
  return result;
}

function load(doc: FetchedDocument): LoadResult {
  const { kind, reason } = bodyKind(doc);
  if (kind === 'unsupported') {
    return {
      ok: false,
      error: 'unsupported_content_type',
      message: `Cannot read the page as HTML: ${reason}.`,
    };
  }
  const decoded = decodeBytes(doc.bytes, {
    contentType: doc.contentType,
    sniff: kind === 'html' ? 'html' : 'none',
  });
  let source = decoded.text;
  const clipped = source.length > HTML_MAX_PARSE_CHARS;
  if (clipped) {
    // Never split a surrogate pair.
    let end = HTML_MAX_PARSE_CHARS;
    const code = source.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    source = source.slice(0, end);
  }
  if (kind === 'text') source = `<pre>${escapeText(source)}</pre>`;

  let document: HtmlDocumentNode;
  try {
    document = parse(source, { scriptingEnabled: true });
  } catch (error) {
    // parse5 recovers from every markup error; reaching here means a limit of the engine.
    return {
      ok: false,
      error: 'parse_error',
      message: `The page could not be parsed: ${String(error)}.`,
    };
  }

  const html = document.childNodes.find(isElement) ?? null;
  const head =
    html === null
      ? null
      : ((html.childNodes.find((n) => isElement(n) && n.tagName === 'head') as
          | HtmlElement
          | undefined) ?? null);
  const body =
    html === null
      ? null
      : ((html.childNodes.find((n) => isElement(n) && n.tagName === 'body') as
          | HtmlElement
          | undefined) ?? null);

  // One walk finds the base URL, the title and the main-content holders.
  const HTML_NS = 'http://www.w3.org/1999/xhtml';
  let baseHref: string | null = null;
  let titleElement: HtmlElement | null = null;
  const holders: HtmlElement[] = [];
  if (html !== null) {
    walk(html, {
      enter(node) {
        if (!isElement(node)) return 'skip';
        const tag = node.tagName;
        if (tag === 'article' || tag === 'main') holders.push(node);
        else if (tag === 'base') {
          if (baseHref === null) baseHref = getAttr(node, 'href');
        } else if (tag === 'title') {
          if (titleElement === null && node.namespaceURI === HTML_NS) titleElement = node;
          return 'skip';
        } else if (node.attrs.length > 0 && getAttr(node, 'role') === 'main') holders.push(node);
      },
    });
    markContentHolders(holders);
  }

  // HTML §4.2.3: the document base URL is the first `<base>` with an `href`, resolved
  // against the document's own URL.
  let baseUrl = doc.url;
  let title: string | null = null;
  if (kind === 'html') {
    if (baseHref !== null) baseUrl = resolveUrl(baseHref, doc.url) ?? doc.url;
    if (titleElement !== null) title = collapseWhitespace(textContent(titleElement)) || null;
  }

  const page: HtmlPage = {
    url: doc.url,
    baseUrl,
    encoding: decoded.encoding,
    document,
    html,
    head,
    body,
    title,
    clipped,
    kind,
  };
  return { ok: true, page };
}

function escapeText(text: string): string {
  return text.replace(/[&<]/g, (c) => (c === '&' ? '&amp;' : '&lt;'));
}
