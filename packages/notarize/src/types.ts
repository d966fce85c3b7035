import type { ErrorCode, FetchedDocument, Sha256Hex } from '@storefront/core';

/** Inline content to notarize: the `/buy/notarize?content=` case. */
export interface InlineNotarizeInput {
  /** The content; its UTF-8 bytes are notarized. */
  readonly content: string;
  /** ISO-8601 time the service received it (the result's `fetchedAt`). */
  readonly witnessedAt: string;
}

/** A fetched page to notarize: the `/buy/notarize?url=` case. */
export interface FetchedNotarizeInput {
  /** The fetched page; its final URL is the source and its `fetchedAt` the witness time. */
  readonly document: FetchedDocument;
  /**
   * The page's cleaned text (what `/buy/fetch` returns as `text`); its UTF-8 bytes are
   * notarized. Without it, the body bytes as received are notarized.
   */
  readonly text?: string;
}

/** What {@link notarize} notarizes. */
export type NotarizeInput = InlineNotarizeInput | FetchedNotarizeInput;

/** Options of {@link notarize}. */
export interface NotarizeOptions {
  /**
   * The service's public base URL (`https://storefront.example`). With it,
   * `verify.wellKnown` is an absolute URL; without it, the path alone.
   */
  readonly baseUrl?: string;
}

/** Exactly which bytes the statement's hash covers. */
export type NotarizeSubject = 'inline-text' | 'page-text' | 'page-body';

/** How to check a notarization. */
export interface NotarizeVerify {
  /** One line of instructions. */
  readonly howTo: string;
  /** Where the signer key is pinned: `/.well-known/service-attestation`, absolute with `baseUrl`. */
  readonly wellKnown: string;
}

/** The structured result of {@link notarize}: the spec's `data` for `/buy/notarize`. */
export interface NotarizeData {
  readonly algorithm: 'sha256';
  /** `0x` + sha256 hex of the notarized bytes. */
  readonly contentHash: Sha256Hex;
  /** Length of the notarized bytes. */
  readonly byteLength: number;
  /** The final URL, or `inline:content`. */
  readonly source: string;
  readonly sourceKind: 'url' | 'inline';
  /** ISO-8601 witness time; equals the result's `fetchedAt`. */
  readonly witnessedAt: string;
  /** The statement scheme, {@link NOTARIZE_STATEMENT_VERSION}. */
  readonly statementVersion: string;
  readonly verify: NotarizeVerify;
}

/** The failures {@link notarize} can report. */
export type NotarizeErrorCode = Extract<
  ErrorCode,
  'invalid_params' | 'invalid_url' | 'upstream_http_error' | 'body_too_large'
>;
