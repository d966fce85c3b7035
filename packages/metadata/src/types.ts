import type { ErrorCode, JsonValue } from '@storefront/core';

/**
 * Options of {@link extractMetadata}. There are none yet: the record is fully decided by
 * the page. Pass nothing, `null` or `{}`; any key is refused as misuse.
 */
export type MetadataOptions = Readonly<Record<string, never>>;

/** One JSON-LD node: a parsed, sanitised object from a `<script type="application/ld+json">`. */
export type JsonLdObject = { readonly [key: string]: JsonValue };

/** How many entries each part of the record holds. */
export interface MetadataCounts {
  /** Objects in {@link MetadataData.jsonLd}. */
  readonly jsonLd: number;
  /** Keys of {@link MetadataData.openGraph}. */
  readonly openGraph: number;
  /** Keys of {@link MetadataData.twitter}. */
  readonly twitter: number;
  /** Keys of {@link MetadataData.standard}. */
  readonly standard: number;
}

/** The metadata of one page as collected, before counting (shared with `@storefront/extract`). */
export interface CollectedMetadata {
  /** The `<title>` text, whitespace collapsed, or null. */
  readonly title: string | null;
  /** The first `<link rel=canonical>` href, resolved to an absolute http(s) URL, or null. */
  readonly canonical: string | null;
  /** `og:*`, `article:*`, `product:*` (and the other ogp.me namespaces), first value per key. */
  readonly openGraph: Readonly<Record<string, string>>;
  /** `twitter:*` meta from `name` or `property`, first value per key. */
  readonly twitter: Readonly<Record<string, string>>;
  /** Every other named meta (lower-cased), `charset`, and `http-equiv:<name>` entries. */
  readonly standard: Readonly<Record<string, string>>;
  /** Every JSON-LD object, top-level arrays and `@graph` flattened, in document order. */
  readonly jsonLd: readonly JsonLdObject[];
}

/** The `data` of a `/buy/metadata` result. */
export interface MetadataData extends CollectedMetadata {
  readonly counts: MetadataCounts;
}

/** The failures {@link extractMetadata} can report. */
export type MetadataErrorCode = Extract<ErrorCode, 'unsupported_content_type' | 'parse_error'>;
