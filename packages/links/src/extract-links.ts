import {
  type FetchedDocument,
  fail,
  joinRows,
  ok,
  type ProductResult,
  readOptions,
  StorefrontError,
} from '@storefront/core';
import { loadHtml } from '@storefront/html';
import { collectLinks } from './collect-links.js';
import { MAX_LINKS_TOTAL_CHARS } from './limits.js';
import { pageKey } from './link-target.js';
import type { Link, LinksData, LinksOptions, OriginCount } from './types.js';

/**
 * Build the `<a href>` link graph of an HTML page: every hyperlink resolved against the
 * document base URL, kept once per absolute URL, labelled internal or external
 * (same host, www-insensitive), grouped by origin. `text` is one `anchor text<TAB>url`
 * row per link, sorted by origin and then by first appearance.
 *
 * @example
 *   const result = extractLinks(doc);
 *   if (result.ok) console.log(result.data.total, result.data.thirdPartyOrigins);
 */
export function extractLinks(
  doc: FetchedDocument,
  options?: Readonly<LinksOptions> | null,
): ProductResult<LinksData> {
  checkOptions(options);
  const page = pageKey(doc.url);
  if (page === null) {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`doc.url\` to be an absolute http or https URL, got \`${String(doc.url)}\``,
    );
  }

  const loaded = loadHtml(doc);
  if (!loaded.ok) return fail(loaded.error, loaded.message);

  const entries = collectLinks(loaded.page.document, loaded.page.baseUrl, page.url);

  const links: Link[] = [];
  let budget = MAX_LINKS_TOTAL_CHARS;
  for (const entry of entries) {
    const text = entry.text !== '' ? entry.text : entry.fallback;
    budget -= entry.target.url.length + text.length;
    if (budget < 0) break;
    links.push({
      url: entry.target.url,
      text,
      origin: entry.target.origin,
      internal: entry.target.bareHost === page.bareHost,
    });
  }
  // By origin (code-unit order), then document order: `entries` is in document order and
  // Array.prototype.sort is stable.
  links.sort((a, b) => compare(a.origin, b.origin));

  const byOrigin: OriginCount[] = [];
  for (const link of links) {
    const last = byOrigin[byOrigin.length - 1];
    if (last !== undefined && last.origin === link.origin) {
      byOrigin[byOrigin.length - 1] = { ...last, count: last.count + 1 };
    } else {
      byOrigin.push({ origin: link.origin, count: 1, internal: link.internal });
    }
  }
  const thirdPartyOrigins = byOrigin
    .filter((group) => !group.internal)
    .map((group) => group.origin);
  byOrigin.sort((a, b) => b.count - a.count || compare(a.origin, b.origin));

  let internalCount = 0;
  for (const link of links) if (link.internal) internalCount++;

  const data: LinksData = {
    pageOrigin: page.origin,
    total: links.length,
    internalCount,
    externalCount: links.length - internalCount,
    originCount: byOrigin.length,
    links,
    byOrigin,
    thirdPartyOrigins,
  };
  return ok(joinRows(links.map((link) => [link.text, link.url])), data);
}

/** Code-unit order, the order of canonical JSON keys: no locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function checkOptions(options: unknown): void {
  readOptions(options, [], 'extractLinks');
}
