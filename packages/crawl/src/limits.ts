/** The most URLs a map answer lists (issue 19: "at most 5,000 URLs"); the default `limit`. */
export const MAP_MAX_URLS = 5000;

/**
 * The most documents one map call fetches: robots.txt, the start page, and sitemaps,
 * sitemap indexes and feeds (issue 19: "25 fetches per call"). Sources found beyond it
 * are counted in `cut.unreadSources`, never fetched.
 */
export const MAP_MAX_FETCHES = 25;

/**
 * The most distinct same-site URLs collected before sorting (ten times the answer's
 * cap). Entries read after that are counted in `cut.beyondCollect`, so the answer is the
 * first `limit` URLs, in code-unit order, of the first 50,000 distinct ones found in read
 * order.
 */
export const MAP_MAX_COLLECTED = 50_000;

/**
 * The most bytes a gzipped sitemap may decode to (10 MiB, the fetch cap, security.md §2):
 * a body that would decode to more is a decompression bomb and is refused unread
 * (`body_too_large`), whatever its compressed size.
 */
export const SITEMAP_MAX_DECODED_BYTES = 10 * 1024 * 1024;

/** The longest `lastmod` kept, in characters; a longer value is dropped (`null`). */
export const MAP_MAX_LASTMOD_CHARS = 64;

/** The longest URL kept, in characters (core's `URL_MAX_CHARS`); longer ones are skipped. */
export const SITE_MAX_URL_CHARS = 2048;

/** Documents fetched at once in one round of a walk (politeness toward the site). */
export const WALK_ROUND_MAX_FETCHES = 4;

/** The most pages one crawl reads (issue 19: "at most 10 pages"); the default `limit`. */
export const CRAWL_MAX_PAGES = 10;

/**
 * The most characters of one page's `content` (text or markdown); a longer one is cut
 * and ends with `…` (U+2026).
 */
export const CRAWL_MAX_CONTENT_CHARS = 100_000;

/** The most links listed per crawled page (unique, absolute, in the order @storefront/links gives). */
export const CRAWL_MAX_PAGE_LINKS = 500;

/** The most entries of a crawl's `skipped` list; more are counted in `skippedCount` only. */
export const CRAWL_MAX_SKIPPED = 100;
