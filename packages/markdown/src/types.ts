import type { ErrorCode } from '@storefront/core';

/**
 * Options of {@link toMarkdown}. The route takes no parameter besides `url`, so there
 * are none yet: pass nothing, `null` or `{}`. Any key is refused as misuse.
 */
export type MarkdownOptions = Readonly<Record<string, never>>;

/** The structured part of a `/buy/markdown` result. */
export interface MarkdownData {
  /** The GitHub-flavoured markdown; identical to the result's `text`. */
  readonly markdown: string;
  /** The page `<title>` with whitespace collapsed, or null (always null for text/plain). */
  readonly title: string | null;
  /** Words in the content of `markdown` (text, alt text and code), not in its syntax. */
  readonly wordCount: number;
  /** The upstream `Content-Type` verbatim, or null. */
  readonly contentType: string | null;
  /** Raw upstream body size in bytes. */
  readonly bytes: number;
  /** True when the markdown hit {@link MARKDOWN_MAX_BYTES} and was cut at a block boundary. */
  readonly truncated: boolean;
  /** Every URL that answered with a redirect, in order. */
  readonly redirects: readonly string[];
}

/** The failures {@link toMarkdown} can report. */
export type MarkdownErrorCode = Extract<ErrorCode, 'unsupported_content_type' | 'parse_error'>;
