import { gunzipSync } from 'node:zlib';
import { decodeBytes, type FetchedDocument } from '@storefront/core';
import { parseFeed } from '@storefront/feed';
import { XMLParser } from 'fast-xml-parser';
import { MAP_MAX_LASTMOD_CHARS, SITEMAP_MAX_DECODED_BYTES, SITEMAP_MAX_DEPTH } from './limits.js';

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

/**
 * security.md §3.1's options: no attribute or value parsing, entities limited to the
 * XML ones, nesting bounded. Namespace prefixes are dropped, so `<sm:urlset>` reads as
 * `<urlset>`; `url` and `sitemap` are always arrays.
 */
const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  removeNSPrefix: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  maxNestedTags: SITEMAP_MAX_DEPTH,
  processEntities: {
    enabled: true,
    maxEntityCount: 1,
    maxEntitySize: 1,
    maxExpansionDepth: 1,
    maxTotalExpansions: 100_000,
    maxExpandedLength: 1_000_000,
  },
  isArray: (name) => name === 'url' || name === 'sitemap',
});

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
  const body = text.replace(/^\uFEFF/, '').trim();
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
  let tree: Record<string, unknown>;
  try {
    tree = parser.parse(body) as Record<string, unknown>;
  } catch (error) {
    return {
      ok: false,
      error: 'parse_error',
      message: `The sitemap is not well-formed XML: ${(error as Error).message}`,
    };
  }
  const item = root === 'urlset' ? 'url' : 'sitemap';
  const top = tree[root];
  const list = isRecord(top) && Array.isArray(top[item]) ? (top[item] as unknown[]) : [];
  const entries: SitemapEntry[] = [];
  for (const raw of list) {
    if (!isRecord(raw)) continue;
    const loc = stringOf(raw.loc);
    if (loc === null || loc === '') continue;
    const lastmod = stringOf(raw.lastmod);
    entries.push({
      loc,
      lastmod:
        lastmod === null || lastmod === '' || lastmod.length > MAP_MAX_LASTMOD_CHARS
          ? null
          : lastmod,
    });
  }
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A leaf's text: the parser gives a string, or an object when the element had children. */
function stringOf(value: unknown): string | null {
  if (typeof value === 'string') return value.trim();
  if (isRecord(value) && typeof value['#text'] === 'string')
    return (value['#text'] as string).trim();
  return null;
}
