import {
  canonicalize,
  decodeBytes,
  type FetchedDocument,
  fail,
  ok,
  type ProductResult,
} from '@storefront/core';
import { FEED_MAX_BYTES } from './limits.js';
import { isAtomNamespace, NS } from './namespaces.js';
import { readOptions } from './options.js';
import { readAtom } from './read-atom.js';
import { RDF_CORE, readRss } from './read-rss.js';
import type { FeedData, FeedOptions, ReadLimits } from './types.js';
import { feedText, scanXml } from './xml-scan.js';
import { parseXml, type XmlElement } from './xml-tree.js';

/**
 * Normalise an RSS 2.0, RSS 1.0 (RDF) or Atom 1.0 feed (RSS 0.9x and the pre-1.0 Atom
 * namespaces are tolerated) into its title and at most {@link FEED_MAX_ITEMS} items of
 * plain-text title, absolute link, ISO-8601 UTC date with the raw date string, and
 * plain-text summary, every string within its cap (`FEED_MAX_*_CHARS`). `text` is the RFC 8785 canonical JSON of `data`.
 *
 * Bodies that are not a feed (HTML, JSON, other XML, binary) give
 * `unsupported_content_type`; a feed that is empty, not well-formed, too deep, or
 * declares entities gives `parse_error`. Never throws on content; throws a
 * `StorefrontError` for invalid options.
 *
 * @example
 *   const result = parseFeed(doc);
 *   if (result.ok) for (const item of result.data.items) console.log(item.published, item.title);
 */
export function parseFeed(
  doc: FetchedDocument,
  options?: Readonly<FeedOptions> | null,
): ProductResult<FeedData> {
  const limits = readOptions(options);

  const oversized = doc.bytes.length > FEED_MAX_BYTES;
  const bytes = oversized ? doc.bytes.subarray(0, FEED_MAX_BYTES) : doc.bytes;
  // WHATWG sniffing order: BOM, Content-Type charset, the XML declaration's encoding,
  // then UTF-8 when valid, else windows-1252.
  const { text } = decodeBytes(bytes, { contentType: doc.contentType, sniff: 'xml' });

  if (text.trim() === '') {
    return fail('parse_error', 'The body is empty: there is no feed to read.');
  }
  // security.md §3.1: feeds never need DTD entities, and refusing them unread is the only
  // answer to entity-expansion bombs that costs nothing.
  if (/<!ENTITY/i.test(text)) {
    return fail(
      'parse_error',
      'The document declares DTD entities (`<!ENTITY`); feeds never need them, so it is refused without expanding any.',
    );
  }

  const scan = scanXml(text, { maxItems: limits.maxItems, clipped: oversized || doc.truncated });
  if (scan.kind === 'not-feed') return fail('unsupported_content_type', scan.message);
  if (scan.kind === 'malformed') {
    return fail('parse_error', `The feed is not well-formed XML: ${scan.message}.`);
  }

  // The prolog (declaration, DOCTYPE, comments) is left out: nothing in it is needed, and
  // an HTML DOCTYPE in front of a feed is no XML.
  const parsed = parseXml(feedText(text, scan), URL.canParse(doc.url) ? doc.url : null);
  if (!parsed.ok) return fail('parse_error', `${parsed.message}.`);

  const data = readFeed(parsed.root, limits);
  if (typeof data === 'string') return fail('unsupported_content_type', data);
  return ok(canonicalize(data), data);
}

/** Read the feed under `root`, or say why the root is not one. */
function readFeed(root: XmlElement, limits: ReadLimits): FeedData | string {
  if (root.local === 'rss') return readRss(root, new Set([root.ns]), limits);
  if (root.local === 'RDF' && root.ns === NS.rdf) return readRss(root, RDF_CORE, limits);
  if (root.local === 'feed' && isAtomNamespace(root.ns)) {
    return readAtom(root, new Set([NS.atom, NS.atom03, root.ns]), limits);
  }
  return `The root element \`<${root.name}>\` is in namespace \`${root.ns}\`, which is not RDF or Atom.`;
}
