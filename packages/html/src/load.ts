import { decodeChunks, type FetchedDocument } from '@storefront/core';
import { bodyKind } from './body-kind.js';
import { markContentHolders } from './boilerplate.js';
import { collapseWhitespace, getAttr, isElement, textContent, walk } from './dom.js';
import { buildTree, type Created, HTML_NS } from './tree.js';
import type { HtmlDocumentNode, HtmlElement, HtmlPage, LoadResult } from './types.js';
import { resolveUrl } from './urls.js';

/**
 * The most decoded characters handed to the parser (5 Mi). Parsing is linear in time, but
 * a tree of pathological markup can take many times its input in heap, so the rest of a
 * larger body is left out and the page says `clipped`.
 */
export const HTML_MAX_PARSE_CHARS = 5 * 1024 * 1024;

/**
 * The most elements a page may open before it is parsed (150,000). A tree keeps a few
 * hundred bytes of heap per element, more with the products' work on it, so a page of
 * a million unclosed `<div>` (5 MB) would take half a gigabyte. A cheap count of start
 * tags over the decoded text refuses such a page (`page_too_complex`) before any tree is
 * built; real pages hold 10–30 elements per KB, so a 2 MB article opens about 40,000 and
 * a 3 MB page minified onto one line about 100,000. What passes the count and is still
 * too heavy meets the product thread's heap bound.
 */
export const HTML_MAX_ELEMENTS = 150_000;

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
  const decoded = decodeChunks(doc.bytes, {
    contentType: doc.contentType,
    sniff: kind === 'html' ? 'html' : 'none',
  });
  const { chunks, clipped } = clip(decoded.chunks, HTML_MAX_PARSE_CHARS);
  // A start tag takes three characters at least (`<b>`): a shorter page cannot open too
  // many elements, and is not counted (nor joined into one string to count).
  if (kind === 'html' && lengthOf(chunks) > MIN_START_TAG_CHARS * HTML_MAX_ELEMENTS) {
    if (countStartTags(chunks.join(''), HTML_MAX_ELEMENTS) > HTML_MAX_ELEMENTS) {
      return {
        ok: false,
        error: 'page_too_complex',
        message: `The page has more than ${HTML_MAX_ELEMENTS.toLocaleString('en-US')} elements.`,
      };
    }
  }
  // text/plain is read as the text of one `<pre>`.
  const input = kind === 'text' ? `<pre>${escapeText(chunks.join(''))}</pre>` : chunks;

  let document: HtmlDocumentNode;
  const created: Created = { holders: [], titles: [], bases: [], foreignTitle: false };
  try {
    document = buildTree(input, created);
  } catch (error) {
    // The parser recovers from every markup error; reaching here means a limit of the engine.
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

  // The base URL, the title and the main-content holders, from the elements noted as
  // they were created; a walk in tree order when those are not unambiguous.
  const found = html === null ? null : fromCreated(created, document, html, body);
  const { baseHref, titleElement, holders } = found ?? findByWalk(html);
  markContentHolders(holders);

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

/** The shortest text a start tag can be (`<b>`). */
const MIN_START_TAG_CHARS = 3;

function lengthOf(chunks: readonly string[]): number {
  let length = 0;
  for (const chunk of chunks) length += chunk.length;
  return length;
}

/** The first `max` characters of the text in `chunks`, never splitting a surrogate pair. */
function clip(
  chunks: readonly string[],
  max: number,
): { chunks: readonly string[]; clipped: boolean } {
  let length = 0;
  for (let k = 0; k < chunks.length; k++) {
    const chunk = chunks[k] as string;
    if (length + chunk.length <= max) {
      length += chunk.length;
      continue;
    }
    let end = max - length;
    const code = chunk.charCodeAt(end - 1);
    if (code >= 0xd800 && code <= 0xdbff) end--;
    return { chunks: [...chunks.slice(0, k), chunk.slice(0, end)], clipped: true };
  }
  return { chunks, clipped: false };
}

/** What {@link load} reads from a fresh tree besides its three top elements. */
interface Found {
  /** The `href` of the first `<base>` that has one, in tree order. */
  readonly baseHref: string | null;
  /** The first HTML `<title>`, in tree order. */
  readonly titleElement: HtmlElement | null;
  /** `<article>`, `<main>` and `role="main"` elements. */
  readonly holders: readonly HtmlElement[];
}

/**
 * What the walk of {@link findByWalk} would find, from the created elements, when they
 * say it without doubt: at most one title and one base, each in the document (not
 * dropped by the parser, not in a template), and no SVG or MathML title (the walk does
 * not look inside titles). Null otherwise. Holders the parser dropped are marked in
 * their detached subtree only, where no product reads.
 */
function fromCreated(
  created: Created,
  document: HtmlDocumentNode,
  html: HtmlElement,
  body: HtmlElement | null,
): Found | null {
  const { titles, bases, holders } = created;
  if (created.foreignTitle || titles.length > 1 || bases.length > 1) return null;
  const titleElement = titles[0] ?? null;
  const base = bases[0] ?? null;
  if (titleElement !== null && !inDocument(titleElement, document)) return null;
  if (base !== null && !inDocument(base, document)) return null;
  // A second `<html>` or `<body>` tag adds its attributes to the first after creation.
  for (const element of [html, body]) {
    if (element !== null && getAttr(element, 'role') === 'main' && !holders.includes(element)) {
      holders.push(element);
    }
  }
  return { baseHref: base === null ? null : getAttr(base, 'href'), titleElement, holders };
}

function inDocument(element: HtmlElement, document: HtmlDocumentNode): boolean {
  let node: HtmlElement['parentNode'] = element.parentNode;
  while (node !== null && node !== undefined && node !== document) {
    node = 'parentNode' in node ? node.parentNode : null;
  }
  return node === document;
}

/** One walk in tree order finds the base URL, the title and the main-content holders. */
function findByWalk(html: HtmlElement | null): Found {
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
  }
  return { baseHref, titleElement, holders };
}

/** Where the raw text of `<script>` and `<style>` ends, found without lowering the page. */
const RAW_TEXT_END: Readonly<Record<string, RegExp>> = {
  script: /<\/script/gi,
  style: /<\/style/gi,
};

/**
 * The start tags in `html` (a `<` followed by an ASCII letter), counted up to one past
 * `stop`: the elements a parse would open at most. Comments and the raw text of
 * `<script>` and `<style>` are skipped, as the parser reads no tags there. One pass, no
 * copy of the text.
 */
export function countStartTags(html: string, stop = Number.POSITIVE_INFINITY): number {
  let count = 0;
  let at = html.indexOf('<');
  while (at >= 0 && count <= stop) {
    const next = html.charCodeAt(at + 1) | 0x20;
    if (next >= 0x61 && next <= 0x7a) {
      count++;
      const name = rawTextName(html, at + 1);
      const end = name === null ? undefined : RAW_TEXT_END[name];
      if (name !== null && end !== undefined) {
        end.lastIndex = at + name.length + 1;
        const found = end.exec(html);
        if (found === null) break;
        at = found.index + 2;
      } else at += 2;
    } else if (html.startsWith('<!--', at)) {
      const close = html.indexOf('-->', at + 4);
      if (close < 0) break;
      at = close + 3;
    } else at += 1;
    at = html.indexOf('<', at);
  }
  return count;
}

/** `script` or `style` when the tag name at `at` is one of them (any case), else null. */
function rawTextName(html: string, at: number): string | null {
  for (const name of RAW_TEXT_NAMES) {
    if (html.length < at + name.length + 1 || !namedAt(html, at, name)) continue;
    const after = html.charCodeAt(at + name.length);
    // The name ends at whitespace, `/` or `>`.
    if (after === 0x3e || after === 0x2f || after === 0x20 || (after >= 0x09 && after <= 0x0d)) {
      return name;
    }
  }
  return null;
}

const RAW_TEXT_NAMES = ['script', 'style'] as const;

/** Whether `html` holds `name` (lower-case ASCII letters) at `at`, in any case, without a copy. */
function namedAt(html: string, at: number, name: string): boolean {
  for (let i = 0; i < name.length; i++) {
    // Setting bit 0x20 lowers an ASCII capital and leaves a lower-case letter as it is.
    if ((html.charCodeAt(at + i) | 0x20) !== name.charCodeAt(i)) return false;
  }
  return true;
}

function escapeText(text: string): string {
  return text.replace(/[&<]/g, (c) => (c === '&' ? '&amp;' : '&lt;'));
}
