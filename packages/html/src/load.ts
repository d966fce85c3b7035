import { decodeBytes, type FetchedDocument } from '@storefront/core';
import { parse } from 'parse5';
import { bodyKind } from './body-kind.js';
import { collapseWhitespace, findFirst, getAttr, isElement, textContent } from './dom.js';
import type { HtmlDocumentNode, HtmlElement, HtmlPage, LoadResult } from './types.js';
import { resolveUrl } from './urls.js';

/**
 * The most decoded characters handed to the parser (5 Mi). parse5 is linear in time but
 * its tree can take about 100 bytes of heap per input byte on pathological nesting, so
 * the rest of a larger body is left out and the page says `clipped`.
 */
export const HTML_MAX_PARSE_CHARS = 5 * 1024 * 1024;

const cache = new WeakMap<FetchedDocument, LoadResult>();

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
  let result = cache.get(doc);
  if (result === undefined) {
    result = load(doc);
    cache.set(doc, result);
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

  // HTML §4.2.3: the document base URL is the first `<base>` with an `href`, resolved
  // against the document's own URL.
  let baseUrl = doc.url;
  if (kind === 'html' && html !== null) {
    const base = findBase(html);
    if (base !== null) baseUrl = resolveUrl(base, doc.url) ?? doc.url;
  }

  let title: string | null = null;
  if (kind === 'html' && html !== null) {
    const element = findFirst(head ?? html, 'title') ?? findFirst(html, 'title');
    if (element !== null) title = collapseWhitespace(textContent(element)) || null;
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

function findBase(html: HtmlElement): string | null {
  let href: string | null = null;
  // Only the first `<base>` carrying `href` counts; search in document order.
  const stack: HtmlElement[] = [html];
  const order: HtmlElement[] = [];
  while (stack.length > 0 && href === null) {
    const element = stack.pop()!;
    if (element.tagName === 'base') {
      const value = getAttr(element, 'href');
      if (value !== null) href = value;
      continue;
    }
    order.length = 0;
    for (const child of element.childNodes) if (isElement(child)) order.push(child);
    for (let i = order.length - 1; i >= 0; i--) stack.push(order[i]!);
  }
  return href;
}

function escapeText(text: string): string {
  return text.replace(/[&<]/g, (c) => (c === '&' ? '&amp;' : '&lt;'));
}
