import { URL_MAX_CHARS } from '@storefront/core';

/**
 * The most unique links a graph holds (10,000). Links are taken in document order; a link
 * whose URL is not yet in a full graph is left out, so `total === MAX_LINKS` means the
 * page may have more.
 */
export const MAX_LINKS = 10_000;

/**
 * The most characters (UTF-16 code units) of URL plus anchor text all links of a graph
 * hold together (2,000,000). Links are taken in document order; the link that would pass
 * the budget, and every later one, is left out. With {@link MAX_LINKS} this bounds the
 * whole result: a long `<base href>` can otherwise give ten thousand 2,048-character URLs.
 */
export const MAX_LINKS_TOTAL_CHARS = 2_000_000;

/**
 * The most characters (UTF-16 code units) of anchor text kept per link (500); longer text
 * keeps its start, cut on a code point boundary, and ends with `…`.
 */
export const MAX_LINK_TEXT_CHARS = 500;

/**
 * The longest absolute URL a link may have (2,048 characters, the service's own `url`
 * limit, core's `URL_MAX_CHARS`, so every link can be sent back to it); longer links are
 * left out.
 */
export const MAX_LINK_URL_CHARS = URL_MAX_CHARS;
