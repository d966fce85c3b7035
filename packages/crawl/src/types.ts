import type { ErrorCode, FetchedDocument } from '@storefront/core';
import type { ParsedRobots } from '@storefront/robots';

// ---------------------------------------------------------------------------
// The walk: dependent fetches in rounds, driven by pure steps.
// ---------------------------------------------------------------------------

/** What fetching one URL gave: a response (any status) or a failure. A safe-fetch result fits. */
export type FetchOutcome =
  | { readonly ok: true; readonly doc: FetchedDocument }
  | {
      readonly ok: false;
      /** An upstream error code (`timeout`, `blocked_ssrf`, …). */
      readonly error: string;
      readonly status?: number | undefined;
      readonly message?: string | undefined;
    };

/**
 * The next move of a walk: its state (plain, structured-clonable data) and the URLs to
 * fetch now, in order. An empty `fetch` ends the walk. The caller fetches the URLs,
 * hands the outcomes back to the step function in the same order, and repeats.
 */
export interface WalkPlan<S> {
  readonly state: S;
  readonly fetch: readonly string[];
}

/**
 * Why a walk ended: its plan ran out (`done`), or the caller stopped it with fetches
 * still planned, at its call deadline (`deadline`) or at a fetch bound of its own
 * (`fetch-cap`).
 */
export type WalkStop = 'done' | 'deadline' | 'fetch-cap';

// ---------------------------------------------------------------------------
// Map
// ---------------------------------------------------------------------------

/** Options of {@link startMap}. */
export interface MapOptions {
  /** The most URLs listed: an integer from 1 to `MAP_MAX_URLS` (the default). */
  readonly limit?: number;
}

/** How a map source was read. */
export type MapSourceKind =
  /** `<origin>/robots.txt`: its `Sitemap:` lines. */
  | 'robots.txt'
  /** The start page: its `<a href>` links and `<link rel=alternate>` feeds. */
  | 'page'
  /** A `<sitemapindex>`: the sitemaps it names. */
  | 'sitemap-index'
  /** A `<urlset>`: its `<loc>` and `<lastmod>` pairs. */
  | 'urlset'
  /** An RSS or Atom feed used as a sitemap: item links and dates. */
  | 'feed'
  /** A text sitemap: one URL per line. */
  | 'text'
  /** A sitemap that could not be read (its `error` says why). */
  | 'sitemap';

/** One document a map read, in read order. */
export interface MapSource {
  /** The URL requested. */
  readonly url: string;
  readonly kind: MapSourceKind;
  /** What named it: `robots.txt`'s URL, a sitemap index's, the start page's; `default` for `/sitemap.xml` tried when robots.txt names none; null for robots.txt and the start page. */
  readonly via: string | null;
  /** The HTTP status of the final response, or null when none arrived. */
  readonly status: number | null;
  /** The error code when the document gave nothing (fetch failure, HTTP error, unreadable body). */
  readonly error: string | null;
  /** Valid http(s) URLs the document listed (before the same-site filter and de-duplication). */
  readonly entries: number;
}

/** One URL of the map. */
export interface MapUrl {
  readonly url: string;
  /** The first `<lastmod>` (or feed item date) given for it, as written; null when none. */
  readonly lastmod: string | null;
}

/** What a map left out, by cause. */
export interface MapCut {
  /** Distinct same-site URLs found but not listed because of `limit`. */
  readonly beyondLimit: number;
  /** Entries read after `MAP_MAX_COLLECTED` distinct URLs were collected. */
  readonly beyondCollect: number;
  /** Entries dropped because they point to another site (sitemaps too). */
  readonly offSite: number;
  /** Sitemaps and feeds known but not read: the fetch cap or the deadline came first. */
  readonly unreadSources: number;
}

/** The `data` of a `/buy/map` result; `text` is its RFC 8785 JSON. */
export interface MapData {
  /** `scheme://host[:port]` of the start URL. */
  readonly origin: string;
  /** URLs listed. */
  readonly count: number;
  /** Same-site URLs, normalised, de-duplicated, in code-unit order, at most `limit`. */
  readonly urls: readonly MapUrl[];
  /** The documents read, in read order. */
  readonly sources: readonly MapSource[];
  readonly cut: MapCut;
  /** Why the walk ended. */
  readonly stop: WalkStop;
}

/** The failures {@link finishMap} can report: the start page's own, when nothing was found. */
export type MapErrorCode = ErrorCode;

/** A document a map plans to read. */
export interface MapPending {
  readonly url: string;
  readonly role: 'robots.txt' | 'page' | 'sitemap';
  readonly via: string | null;
}

/** The state of a map walk between rounds: plain data, cloned by every step. */
export interface MapState {
  readonly start: string;
  readonly origin: string;
  /** The start URL's host without a leading `www.`: what same-site means. */
  readonly site: string;
  readonly limit: number;
  /** Fetches planned so far. */
  fetches: number;
  /** The documents of the round in flight, in the order they were asked for. */
  pending: MapPending[];
  queue: MapPending[];
  /** Source URLs queued or read. */
  known: string[];
  /** Source URLs known but left unread (at most `MAP_MAX_COLLECTED`). */
  unread: string[];
  sources: MapSource[];
  /** Collected URLs in read order, and the first lastmod of each (same index). */
  urls: string[];
  lastmods: (string | null)[];
  beyondCollect: number;
  offSite: number;
  /** The start page's final URL and status, or its failure. */
  startUrl: string;
  startStatus: number | null;
  startError: { readonly error: string; readonly message: string } | null;
}

// ---------------------------------------------------------------------------
// Crawl
// ---------------------------------------------------------------------------

/** Options of {@link startCrawl}. */
export interface CrawlOptions {
  /** The most pages read: an integer from 1 to `CRAWL_MAX_PAGES` (the default). */
  readonly limit?: number;
  /** Each page's content: `text` (default, @storefront/text) or `markdown` (@storefront/markdown). */
  readonly format?: 'text' | 'markdown';
  /** The User-Agent the fetches send; robots.txt groups are matched on its product token. */
  readonly userAgent: string;
}

/** One page a crawl read. */
export interface CrawlPage {
  /** The final URL after redirects, fragment dropped. */
  readonly url: string;
  readonly status: number;
  readonly contentType: string | null;
  /** The `<title>`, whitespace collapsed; null for non-HTML and untitled pages. */
  readonly title: string | null;
  /** The page's readable text or markdown (empty when the body is not a page), at most `CRAWL_MAX_CONTENT_CHARS`. */
  readonly content: string;
  /** Unique absolute http(s) links of the page, at most `CRAWL_MAX_PAGE_LINKS`. */
  readonly links: readonly string[];
  /**
   * `0x` + sha256 of the RFC 8785 JSON of this page without `hash`: the value its row in
   * the signed `text` carries, so one page can be checked against the receipt alone.
   */
  readonly hash: string;
}

/** Why a URL was not read. */
export interface CrawlSkip {
  readonly url: string;
  /**
   * `robots` (disallowed for our user agent), `off-site-redirect`, `duplicate` (it
   * redirected to a page already read), `not_content` (a challenge, a sign-in wall or
   * another page served in the content's place, `pageVerdict` of `@storefront/html`),
   * or the fetch's error code.
   */
  readonly reason: string;
}

/** How robots.txt was applied. */
export interface CrawlRobots {
  readonly url: string;
  readonly status: number | null;
  /**
   * `rules`: a 2xx file, matched for our user agent (RFC 9309). `allow-all`: 4xx (or
   * a final 3xx), no rules. `disallow-all`: 5xx or unreachable (RFC 9309 §2.3.1.4).
   */
  readonly mode: 'rules' | 'allow-all' | 'disallow-all';
}

/** The `data` of a `/buy/crawl` result. */
export interface CrawlData {
  readonly origin: string;
  readonly format: 'text' | 'markdown';
  readonly count: number;
  /** Pages in breadth-first order. */
  readonly pages: readonly CrawlPage[];
  /** Found but not read, in the order met; at most `CRAWL_MAX_SKIPPED`. */
  readonly skipped: readonly CrawlSkip[];
  readonly skippedCount: number;
  readonly robots: CrawlRobots | null;
  readonly stop: WalkStop;
}

/** The failures {@link finishCrawl} can report. */
export type CrawlErrorCode = ErrorCode;

/** The state of a crawl walk between rounds: plain data, cloned by every step. */
export interface CrawlState {
  readonly start: string;
  origin: string;
  readonly format: 'text' | 'markdown';
  readonly limit: number;
  readonly userAgent: string;
  /** The origin whose robots.txt is known (or being fetched), and what it said. */
  robotsOrigin: string | null;
  robots: ParsedRobots | null;
  robotsInfo: CrawlRobots | null;
  /** Page fetches planned so far. */
  attempts: number;
  pending: string[];
  /** True when the round in flight is a robots.txt fetch. */
  pendingRobots: boolean;
  queue: string[];
  seen: Record<string, true>;
  pages: CrawlPage[];
  skipped: CrawlSkip[];
  skippedCount: number;
  startFailure: {
    readonly error: string;
    readonly message: string;
    readonly status: number | null;
  } | null;
}
