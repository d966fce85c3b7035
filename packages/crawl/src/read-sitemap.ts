import { gunzipSync } from 'node:zlib';
import { decodeBytes, type FetchedDocument } from '@storefront/core';
import { parseFeed } from '@storefront/feed';
import { MAP_MAX_LASTMOD_CHARS, SITEMAP_MAX_DECODED_BYTES } from './limits.js';

/** One `<loc>` of a sitemap (or a feed item's link), with its date when given. */
export interface SitemapEntry {
  /** As written, entities decoded, ends trimmed; not yet resolved or checked. */
  readonly loc: string;
  readonly lastmod: string | null;
}

/** What one sitemap document holds. */
export type SitemapRead =
  | {
      readonly ok: true;
      readonly kind: 'sitemap-index' | 'urlset' | 'feed' | 'text';
      readonly entries: readonly SitemapEntry[];
    }
  | {
      readonly ok: false;
      readonly error: 'body_too_large' | 'parse_error' | 'unsupported_content_type';
      readonly message: string;
    };

const GZIP_MAGIC = [0x1f, 0x8b] as const;

/** The local name of the first element of an XML text, or null when there is none. */
function rootName(text: string): string | null {
  const tag = /<(?![?!/])(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/.exec(text);
  return tag === null ? null : (tag[1] as string);
}

/**
 * Read a fetched sitemap: gzip is recognised by its magic bytes (a `.xml.gz` served
 * without `Content-Encoding`) and decoded to at most `SITEMAP_MAX_DECODED_BYTES`, more
 * being a decompression bomb; then a `<sitemapindex>`, a `<urlset>`, an RSS or Atom
 * feed (sitemaps.org: "RSS 2.0, Atom 0.3, Atom 1.0" are accepted sitemaps, read by
 * @storefront/feed), or a text file of one URL per line. Never throws on content.
 */
export function readSitemap(doc: FetchedDocument): SitemapRead {
  let bytes = doc.bytes;
  let contentType = doc.contentType;
  if (bytes[0] === GZIP_MAGIC[0] && bytes[1] === GZIP_MAGIC[1]) {
    try {
      bytes = new Uint8Array(gunzipSync(bytes, { maxOutputLength: SITEMAP_MAX_DECODED_BYTES }));
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
        return {
          ok: false,
          error: 'body_too_large',
          message: `The gzipped sitemap decodes to more than ${SITEMAP_MAX_DECODED_BYTES} bytes; it was not read.`,
        };
      }
      return { ok: false, error: 'parse_error', message: 'The gzipped sitemap is corrupt or cut.' };
    }
    contentType = null;
  }
  const { text } = decodeBytes(bytes, { contentType, sniff: 'xml' });
  const body = withoutComments(text.replace(/^\uFEFF/, '')).trim();
  if (body === '') return { ok: false, error: 'parse_error', message: 'The sitemap is empty.' };
  if (!body.startsWith('<')) return readTextSitemap(body);

  const root = rootName(body);
  if (root === 'rss' || root === 'RDF' || root === 'feed') {
    const feed = parseFeed({ ...doc, bytes, contentType });
    if (!feed.ok)
      return { ok: false, error: feed.error as 'parse_error', message: feed.message ?? feed.error };
    return {
      ok: true,
      kind: 'feed',
      entries: feed.data.items
        .filter((item) => item.link !== '')
        .map((item) => ({
          loc: item.link,
          lastmod: item.published === '' ? null : item.published,
        })),
    };
  }
  if (root !== 'urlset' && root !== 'sitemapindex') {
    return {
      ok: false,
      error: 'unsupported_content_type',
      message: `The document is not a sitemap: its root element is \`${root ?? 'none'}\`.`,
    };
  }
  // security.md §3.1: sitemaps never need DTD entities; refuse them unexpanded.
  if (/<!ENTITY/i.test(body)) {
    return {
      ok: false,
      error: 'parse_error',
      message: 'The sitemap declares DTD entities; it was refused unread.',
    };
  }
  const item = root === 'urlset' ? 'url' : 'sitemap';
  const entries = scanEntries(body, item);
  return { ok: true, kind: root === 'urlset' ? 'urlset' : 'sitemap-index', entries };
}

/** sitemaps.org "Text file": one URL per line, nothing else. */
function readTextSitemap(body: string): SitemapRead {
  const entries: SitemapEntry[] = [];
  for (const line of body.split(/\r\n|\r|\n/)) {
    const loc = line.trim();
    if (loc === '') continue;
    if (!/^https?:\/\//i.test(loc)) {
      return {
        ok: false,
        error: 'unsupported_content_type',
        message: 'The document is neither XML nor a text sitemap of one URL per line.',
      };
    }
    entries.push({ loc, lastmod: null });
  }
  return { ok: true, kind: 'text', entries };
}

/** The text with every `<!-- … -->` comment removed (an unterminated one runs to the end). */
function withoutComments(text: string): string {
  let at = text.indexOf('<!--');
  if (at === -1) return text;
  const parts: string[] = [];
  let from = 0;
  while (at !== -1) {
    parts.push(text.slice(from, at));
    const end = text.indexOf('-->', at + 4);
    if (end === -1) return parts.join('');
    from = end + 3;
    at = text.indexOf('<!--', from);
  }
  parts.push(text.slice(from));
  return parts.join('');
}

const ENTRY_PARTS: ReadonlySet<string> = new Set(['url', 'sitemap', 'loc', 'lastmod']);
const NAME = /^\/?(?:[A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)/;

/**
 * One linear pass over the markup collecting each entry's `<loc>` and `<lastmod>` (the
 * first of each inside the entry, any namespace prefix). Only the entry element (`url`
 * or `sitemap`), `loc` and `lastmod` are looked at; other elements (`priority`,
 * `xhtml:link`, `image:image`, …) are skipped. Text is read as XML character data: a
 * CDATA section is taken as written, references to the five predefined entities and
 * numeric references are decoded, and any other `&name;` is left as it is (DTD entities
 * were refused before). Every tag is found with `indexOf`, so the pass is linear on any
 * input, broken markup included.
 */
function scanEntries(text: string, item: 'url' | 'sitemap'): SitemapEntry[] {
  const entries: SitemapEntry[] = [];
  let inEntry = false;
  let loc: string | null = null;
  let lastmod: string | null = null;
  let open: { name: string; end: number } | null = null;
  let at = text.indexOf('<');
  while (at !== -1) {
    const end = text.indexOf('>', at + 1);
    if (end === -1) break;
    const tag = NAME.exec(text.slice(at + 1, Math.min(end, at + 130)));
    const name = tag?.[1];
    if (name !== undefined && ENTRY_PARTS.has(name)) {
      const closing = text.charCodeAt(at + 1) === 0x2f;
      const selfClosing = text.charCodeAt(end - 1) === 0x2f;
      if (name === item) {
        if (!closing && !selfClosing) {
          inEntry = true;
          loc = null;
          lastmod = null;
        } else if (closing && inEntry) {
          inEntry = false;
          if (loc !== null && loc !== '') {
            const keep =
              lastmod !== null && lastmod !== '' && lastmod.length <= MAP_MAX_LASTMOD_CHARS;
            entries.push({ loc, lastmod: keep ? lastmod : null });
          }
        }
        open = null;
      } else if (inEntry && name !== 'url' && name !== 'sitemap') {
        if (!closing && !selfClosing) {
          open = { name, end: end + 1 };
        } else if (closing && open !== null && open.name === name) {
          const value = characterData(text.slice(open.end, at));
          if (name === 'loc' && loc === null) loc = value;
          if (name === 'lastmod' && lastmod === null) lastmod = value;
          open = null;
        }
      }
    }
    // A CDATA section may hold `<` and `>`: skip it whole.
    if (text.startsWith('<![CDATA[', at)) {
      const close = text.indexOf(']]>', at + 9);
      if (close === -1) break;
      at = text.indexOf('<', close + 3);
    } else {
      at = text.indexOf('<', end + 1);
    }
  }
  return entries;
}

const REFERENCE = /&(?:#x([0-9A-Fa-f]{1,6})|#([0-9]{1,7})|(amp|lt|gt|quot|apos));/g;
const PREDEFINED: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
};

function characterData(raw: string): string {
  const parts: string[] = [];
  let from = 0;
  let at = raw.indexOf('<![CDATA[');
  while (at !== -1) {
    const close = raw.indexOf(']]>', at + 9);
    if (close === -1) break;
    parts.push(decodeReferences(raw.slice(from, at)), raw.slice(at + 9, close));
    from = close + 3;
    at = raw.indexOf('<![CDATA[', from);
  }
  parts.push(decodeReferences(raw.slice(from)));
  return parts.join('').trim();
}

function decodeReferences(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(REFERENCE, (whole, hex?: string, decimal?: string, name?: string) => {
    if (name !== undefined) return PREDEFINED[name] as string;
    const code = hex !== undefined ? Number.parseInt(hex, 16) : Number(decimal);
    return code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)
      ? String.fromCodePoint(code)
      : whole;
  });
}
