import type { ErrorCode } from '@storefront/core';

/** Options of {@link extractLinks}; none yet, reserved so the signature can grow without a break. */
export type LinksOptions = Readonly<Record<string, never>>;

/** One unique link of the graph. */
export interface Link {
  /** The absolute http(s) URL: resolved, fragment and credentials removed. */
  readonly url: string;
  /** The anchor text, whitespace collapsed; may be empty. */
  readonly text: string;
  /** `scheme://host[:port]` of {@link url}. */
  readonly origin: string;
  /** True when the link's host equals the page's host, ignoring a leading `www.`, the scheme and the port. */
  readonly internal: boolean;
}

/** How many unique links point at one origin. */
export interface OriginCount {
  readonly origin: string;
  readonly count: number;
  readonly internal: boolean;
}

/** The link graph of a page: the `data` of a `/buy/links` result. */
export interface LinksData {
  /** `scheme://host[:port]` of the final page URL. */
  readonly pageOrigin: string;
  /** Unique links. */
  readonly total: number;
  /** Unique links to the page's own host (www-insensitive). */
  readonly internalCount: number;
  /** Unique links to any other host. */
  readonly externalCount: number;
  /** Distinct origins among the links. */
  readonly originCount: number;
  /** Every unique link, by origin, then in the order each first appears in the document. */
  readonly links: readonly Link[];
  /** Unique links per origin, most first; ties by origin in code-unit order. */
  readonly byOrigin: readonly OriginCount[];
  /** Distinct origins of external links, in code-unit order. */
  readonly thirdPartyOrigins: readonly string[];
}

/** The failures {@link extractLinks} can report. */
export type LinksErrorCode = Extract<ErrorCode, 'unsupported_content_type' | 'parse_error'>;
