import { parseFeedDate } from './feed-date.js';
import { FEED_MAX_DATE_RAW_CHARS, FEED_MAX_LINK_CHARS } from './limits.js';
import { ATOM_03_NAMESPACES, NS } from './namespaces.js';
import { capMarked, htmlText, normalizeText } from './text.js';
import { absoluteUrl, XmlElement, type XmlNode } from './xml-tree.js';

/** The child elements of `element` named `local` in one of `namespaces`, in document order. */
export function childrenNamed(
  element: XmlElement,
  local: string,
  namespaces: ReadonlySet<string>,
): XmlElement[] {
  const found: XmlElement[] = [];
  for (const child of element.children) {
    if (child instanceof XmlElement && child.local === local && namespaces.has(child.ns)) {
      found.push(child);
    }
  }
  return found;
}

/**
 * The character data of an element and all its descendants, concatenated (XPath
 * `string()`); with `spaced`, every descendant element's start and end count as a space.
 */
export function plainText(element: XmlElement, spaced = false): string {
  const parts: string[] = [];
  const stack: XmlNode[] = [element];
  while (stack.length > 0) {
    const node = stack.pop() as XmlNode;
    if (typeof node === 'string') {
      parts.push(node);
      continue;
    }
    if (spaced && node !== element) {
      parts.push(' ');
      stack.push(' ');
    }
    const children = node.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as XmlNode);
  }
  return parts.join('');
}

/**
 * The content of an element written back as HTML for the HTML parser: child elements as
 * tags named by their local name (attributes are not needed for text), and character data
 * either as it is (it is HTML source: an RSS description, Atom `type="html"`) or escaped
 * (it is text: Atom `type="xhtml"`, whose markup is the XML elements themselves).
 */
function markup(element: XmlElement, escapeText: boolean): string {
  const out: string[] = [];
  const stack: (XmlNode | { readonly close: string })[] = [];
  const pushChildren = (parent: XmlElement) => {
    const children = parent.children;
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i] as XmlNode);
  };
  pushChildren(element);
  while (stack.length > 0) {
    const item = stack.pop() as XmlNode | { readonly close: string };
    if (typeof item === 'string') {
      out.push(escapeText ? item.replace(/&/g, '&amp;').replace(/</g, '&lt;') : item);
    } else if (item instanceof XmlElement) {
      const tag = /^[A-Za-z][A-Za-z0-9._-]*$/.test(item.local) ? item.local : 'span';
      out.push(`<${tag}>`);
      stack.push({ close: tag });
      pushChildren(item);
    } else {
      out.push(`</${item.close}>`);
    }
  }
  return out.join('');
}

function hasElementChildren(element: XmlElement): boolean {
  return element.children.some((child) => child instanceof XmlElement);
}

/**
 * An RSS text field (title, description, `content:encoded`, `dc:*`): RSS has no content
 * type, and publishers entity-encode HTML in all of them, so each is read as HTML — tags
 * removed, the HTML entities left after the XML layer decoded (`&amp;eacute;` → é).
 * Markup written as XML elements instead of escaped is read the same way.
 */
export function rssText(element: XmlElement): string {
  return htmlText(hasElementChildren(element) ? markup(element, false) : plainText(element));
}

/**
 * An Atom text construct (RFC 4287 §3.1) or `content` element (§4.1.3): `text` (the
 * default) is plain text, `html` is escaped HTML, `xhtml` is inline XHTML; `content`
 * also takes media types (`text/html`, `text/*`, `application/xhtml+xml`, other XML
 * types, whose text is read with element boundaries as spaces). Out-of-line content
 * (`src`) and other media types (base64) give `''`. Atom 0.3's `mode` (`escaped`,
 * `xml` — the default in the 0.3 namespaces —, `base64`) is honoured, and its
 * `multipart/alternative` content gives its first readable part.
 */
export function atomText(element: XmlElement): string {
  if (element.attr('src') !== null) return '';
  const type = (element.attr('type') ?? '').trim().toLowerCase();
  if (type === 'multipart/alternative') {
    // Atom 0.3 §3.1.1.3: alternatives of the same content as child `content` elements;
    // the first readable one wins (one level: nested alternatives are not read).
    const parts = childrenNamed(element, 'content', new Set([element.ns]));
    return firstText(
      parts.filter((part) => (part.attr('type') ?? '').trim().toLowerCase() !== type),
      atomText,
    );
  }
  const modeAttribute = element.attr('mode');
  const mode =
    modeAttribute !== null
      ? modeAttribute.trim().toLowerCase()
      : ATOM_03_NAMESPACES.has(element.ns)
        ? 'xml'
        : null;
  let kind: 'text' | 'html' | 'xhtml' | 'xml' | null;
  if (mode === 'base64') kind = null;
  else if (mode === 'escaped') kind = type.includes('html') ? 'html' : 'text';
  else if (mode === 'xml') kind = type.includes('html') ? 'xhtml' : 'text';
  else if (type === '' || type === 'text' || type === 'text/plain') kind = 'text';
  else if (type === 'html' || type === 'text/html') kind = 'html';
  else if (type === 'xhtml' || type === 'application/xhtml+xml') kind = 'xhtml';
  else if (type.startsWith('text/')) kind = 'text';
  else if (type.endsWith('/xml') || type.endsWith('+xml')) kind = 'xml';
  else kind = null;

  switch (kind) {
    case 'text':
      return normalizeText(plainText(element));
    case 'html':
      return rssText(element);
    case 'xhtml':
      return htmlText(markup(element, true));
    case 'xml':
      return normalizeText(plainText(element, true));
    default:
      return '';
  }
}

/** The first non-empty value of `read` over `elements`, or `''`. */
export function firstText(
  elements: readonly XmlElement[],
  read: (element: XmlElement) => string,
): string {
  for (const element of elements) {
    const value = read(element);
    if (value !== '') return value;
  }
  return '';
}

/**
 * The URL an Atom `<link>` points to: its `href`, or, when `href` is missing or blank,
 * its text content (`<link rel="alternate">https://…</link>`, as some Atom 0.3 and
 * hand-written feeds have it). Not yet resolved.
 */
export function linkTarget(link: XmlElement): string {
  const href = link.attr('href');
  return href !== null && href.trim() !== '' ? href : plainText(link);
}

/**
 * `href` resolved against `base`, when the result is an http or https URL of at most
 * {@link FEED_MAX_LINK_CHARS} characters; else `''`. A longer URL is refused, not cut:
 * a cut URL would point somewhere else.
 */
export function httpUrl(href: string | null, base: string | null): string {
  if (href === null || href.trim() === '') return '';
  const url = absoluteUrl(href, base);
  if (url === null || url.length > FEED_MAX_LINK_CHARS) return '';
  return url.startsWith('http:') || url.startsWith('https:') ? url : '';
}

const DC: ReadonlySet<string> = new Set([NS.dc]);
const DCTERMS: ReadonlySet<string> = new Set([NS.dcterms]);

/**
 * The Dublin Core date elements of an item, in the order they stand in for a publication
 * date: `dcterms:issued` (DCMI: "date of formal issuance", i.e. publication), `dc:date`
 * and `dcterms:date` (a date of the lifecycle, in RSS 1.0 the publication date), then
 * `dcterms:created`, then `dcterms:modified` (an update is the last resort, as Atom's
 * `updated` is).
 */
export function dublinCoreDates(item: XmlElement): XmlElement[] {
  return [
    ...childrenNamed(item, 'issued', DCTERMS),
    ...childrenNamed(item, 'date', DC),
    ...childrenNamed(item, 'date', DCTERMS),
    ...childrenNamed(item, 'created', DCTERMS),
    ...childrenNamed(item, 'modified', DCTERMS),
  ];
}

/** A publication date and the string it was read from. */
export interface PickedDate {
  readonly published: string;
  readonly publishedRaw: string;
}

/**
 * The first candidate date that parses wins, with its own raw string. When none parses,
 * `published` is `''` and `publishedRaw` is the first non-empty candidate, cut to
 * {@link FEED_MAX_DATE_RAW_CHARS} code points with a `…` mark (only a string too long to
 * be a date can be that long).
 */
export function pickDate(elements: readonly XmlElement[]): PickedDate {
  let firstRaw = '';
  for (const element of elements) {
    const raw = plainText(element).trim().toWellFormed();
    if (raw === '') continue;
    const published = parseFeedDate(raw);
    if (published !== '') return { published, publishedRaw: raw };
    if (firstRaw === '') firstRaw = raw;
  }
  return { published: '', publishedRaw: capMarked(firstRaw, FEED_MAX_DATE_RAW_CHARS) };
}
