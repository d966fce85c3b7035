import type { ErrorCode } from '@storefront/core';

/** Options of {@link parseFeed}; both can only lower the spec's caps. */
export interface FeedOptions {
  /** Items to keep, in document order: an integer from 0 to {@link FEED_MAX_ITEMS} (the default). */
  readonly maxItems?: number;
  /**
   * Code points a summary keeps: an integer from 0 to {@link FEED_MAX_SUMMARY_CHARS}
   * (the default).
   */
  readonly maxSummaryChars?: number;
}

/** `rss` for RSS 2.0, 0.9x and RSS 1.0 (RDF); `atom` for Atom 1.0 (and 0.3). */
export type FeedKind = 'rss' | 'atom';

/** One normalised item (`<item>` or `<entry>`); every field is a string, possibly empty. */
export interface FeedItem {
  /** The title as plain text: HTML removed, entities decoded, whitespace collapsed. */
  readonly title: string;
  /** The item's absolute http(s) link, or `''`. */
  readonly link: string;
  /** The date as ISO-8601 UTC with milliseconds (`2026-01-02T03:04:05.000Z`), or `''`. */
  readonly published: string;
  /** The date element's text as the feed wrote it (entities decoded, ends trimmed), or `''`. */
  readonly publishedRaw: string;
  /** Plain-text summary, at most {@link FEED_MAX_SUMMARY_CHARS} code points. */
  readonly summary: string;
}

/** The structured result of `/buy/feed`; `text` is its canonical JSON. */
export interface FeedData {
  /** The feed's own title as plain text, or `''`. */
  readonly feedTitle: string;
  readonly kind: FeedKind;
  /** The number of items returned (at most {@link FEED_MAX_ITEMS}). */
  readonly count: number;
  readonly items: readonly FeedItem[];
}

/** The caps one read applies: the options' values, at most the exported constants. */
export interface ReadLimits {
  readonly maxItems: number;
  readonly maxSummaryChars: number;
}

/** The failures {@link parseFeed} can report. */
export type FeedErrorCode = Extract<ErrorCode, 'unsupported_content_type' | 'parse_error'>;
