import type { ErrorCode, FetchedDocument } from '@storefront/core';

/** What {@link diffText} compares: the refetched page against a previous hash or text. */
export interface DiffInput {
  /** The refetched page: its final URL, `fetchedAt`, size and content type. */
  readonly document: FetchedDocument;
  /**
   * The page's current text, as `/buy/fetch` returns it for the requested `format`
   * (cleaned text or markdown). Without it, the decoded body is compared.
   */
  readonly text?: string;
  /** `0x` + 64 hex digits: the sha256 of an earlier text (an earlier claim's `toHash`). */
  readonly prevHash?: string;
  /** The earlier text itself, for a line diff. */
  readonly prevText?: string;
}

/** Options of {@link diffText}. */
export interface DiffOptions {
  /** Unchanged lines shown around each change; default {@link DIFF_CONTEXT_LINES}. */
  readonly context?: number;
}

/** The line diff, present when `prevText` was given. */
export interface DiffLines {
  /** Lines only in the current text. */
  readonly added: number;
  /** Lines only in the previous text. */
  readonly removed: number;
  /**
   * Unified-diff lines (`@@ … @@` headers, then ` `, `-`, `+` lines), at most
   * {@link DIFF_MAX_HUNK_LINES}, each at most {@link DIFF_MAX_HUNK_LINE_CHARS} characters.
   */
  readonly hunks: readonly string[];
  /** True when `hunks` stops before the end of the diff, or a line was cut (it ends with `…`). */
  readonly truncated: boolean;
}

/** The change proof: the spec's `/buy/diff` fields besides the envelope. */
export interface DiffData {
  /** True when `toHash` differs from `fromHash`. */
  readonly changed: boolean;
  /** The sha256 of the previous text; null only when no hash can be derived. */
  readonly fromHash: string | null;
  /** `0x` + sha256 of the current text (line endings normalised to `\n`). */
  readonly toHash: string;
  /** `text` when `prevText` was compared, `hash` when only `prevHash` was given. */
  readonly comparedBy: 'hash' | 'text';
  /** The line diff; only when `prevText` was given. */
  readonly diff?: DiffLines;
  /** The raw body size in bytes. */
  readonly bytes: number;
  /** The upstream `Content-Type`, or null. */
  readonly contentType: string | null;
}

/** The failures {@link diffText} can report. */
export type DiffErrorCode = Extract<
  ErrorCode,
  'invalid_params' | 'invalid_url' | 'upstream_http_error'
>;
