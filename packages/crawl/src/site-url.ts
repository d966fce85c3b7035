import { bareHost } from '@storefront/html';
import { SITE_MAX_URL_CHARS } from './limits.js';

const ASCII_WHITESPACE_ENDS = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;

/**
 * A URL as the map and the crawl compare and list it: `raw` (ASCII whitespace trimmed)
 * resolved against `base` by the WHATWG URL parser, which lower-cases the host, drops a
 * default port and normalises the path; fragment and credentials removed. Null when it
 * is not http(s) or longer than `SITE_MAX_URL_CHARS`.
 */
export function siteUrl(raw: string, base?: string): string | null {
  return siteUrlOf(raw, base)?.url ?? null;
}

/** {@link siteUrl} and {@link siteOf} of the result, from one parse. */
export function siteUrlOf(raw: string, base?: string): { url: string; site: string } | null {
  const trimmed = raw.replace(ASCII_WHITESPACE_ENDS, '');
  if (trimmed === '' || !URL.canParse(trimmed, base)) return null;
  const parsed = new URL(trimmed, base);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  parsed.hash = '';
  parsed.username = '';
  parsed.password = '';
  const url = parsed.href;
  return url.length > SITE_MAX_URL_CHARS ? null : { url, site: bareHost(parsed.hostname) };
}

/** The host of an http(s) URL without a leading `www.`: same-site for the map. */
export function siteOf(url: string): string {
  return bareHost(new URL(url).hostname);
}

/** `scheme://host[:port]` of an absolute URL. */
export function originOf(url: string): string {
  return new URL(url).origin;
}

/** The path and query robots.txt rules are matched against (RFC 9309 §2.2.2). */
export function robotsPath(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
