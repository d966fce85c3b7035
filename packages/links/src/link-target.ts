import { bareHost, resolveUrl } from '@storefront/html';
import { MAX_LINK_URL_CHARS } from './limits.js';

/** Where a kept `<a href>` points. */
export interface LinkTarget {
  /** The absolute URL without fragment and credentials. */
  readonly url: string;
  readonly origin: string;
  /** The host name without a leading `www.` (no port). */
  readonly bareHost: string;
}

/** Why an `href` is not part of the graph. */
export type SkipReason = 'empty' | 'invalid' | 'scheme' | 'same-page-fragment' | 'too-long';

const ASCII_WHITESPACE_ENDS = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;

/**
 * The page's own URL as links are compared with it: no fragment, no credentials.
 * Returns null when `url` is not an absolute http(s) URL.
 */
export function pageKey(url: string): { url: string; origin: string; bareHost: string } | null {
  if (!URL.canParse(url)) return null;
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  parsed.hash = '';
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.href, origin: parsed.origin, bareHost: bareHost(parsed.hostname) };
}

/**
 * Resolve an `href` against the document base URL (HTML §4.6.2: the value with leading
 * and trailing ASCII whitespace stripped, parsed relative to the base) and decide
 * whether it is a hyperlink of the graph: only http and https, fragment dropped,
 * credentials dropped, in-page fragment links and over-long URLs left out.
 */
export function linkTarget(
  href: string,
  baseUrl: string,
  pageUrl: string,
): LinkTarget | SkipReason {
  const trimmed = href.replace(ASCII_WHITESPACE_ENDS, '');
  if (trimmed === '') return 'empty';
  const resolved = resolveUrl(trimmed, baseUrl);
  if (resolved === null) return 'invalid';
  const parsed = new URL(resolved);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'scheme';
  // `href="#x"` and `href="/page#x"` on /page move within the page: not an edge of the graph.
  const hasFragment = resolved.includes('#');
  parsed.hash = '';
  parsed.username = '';
  parsed.password = '';
  const url = parsed.href;
  if (hasFragment && url === pageUrl) return 'same-page-fragment';
  if (url.length > MAX_LINK_URL_CHARS) return 'too-long';
  return { url, origin: parsed.origin, bareHost: bareHost(parsed.hostname) };
}
