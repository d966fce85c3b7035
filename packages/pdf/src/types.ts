import type { ErrorCode } from '@storefront/core';

/** How page text is written: plain lines, or markdown with headings found from font sizes. */
export type PdfFormat = 'text' | 'markdown';

/** Options of {@link extractPdf}. */
export interface PdfOptions {
  /** `text` (default) or `markdown`. */
  readonly format?: PdfFormat;
  /**
   * The pages to read, 1-based, as a list of numbers and ranges (`1-3,7`); every page
   * when absent. A page past the end fails with `not_found`.
   */
  readonly pages?: string;
}

/** One page's text. */
export interface PdfPageText {
  /** The page number, 1-based. */
  readonly page: number;
  /** The page's text (or markdown): lines joined with `\n`, paragraphs with a blank line. */
  readonly text: string;
  /** Characters (code points) in `text`. */
  readonly chars: number;
}

/** One outline (bookmark) entry. */
export interface PdfOutlineEntry {
  readonly title: string;
  /** The page it points at, 1-based, or null when it points nowhere in this document. */
  readonly page: number | null;
  readonly items: readonly PdfOutlineEntry[];
}

/** The document information dictionary, as strings; dates as ISO-8601 UTC. */
export interface PdfMetadata {
  readonly title: string | null;
  readonly author: string | null;
  readonly subject: string | null;
  readonly keywords: string | null;
  readonly creator: string | null;
  readonly producer: string | null;
  /** `CreationDate`, as ISO-8601 UTC, or null when absent or not a PDF date. */
  readonly created: string | null;
  /** `ModDate`, the same way. */
  readonly modified: string | null;
  /** The header's version (`1.7`). */
  readonly pdfVersion: string | null;
  /** The catalog's `Lang`. */
  readonly language: string | null;
}

/** The `data` of a `/buy/pdf` result. */
export interface PdfData {
  readonly format: PdfFormat;
  /** Pages in the document. */
  readonly pageCount: number;
  /** The selected pages, in order (the first {@link PDF_MAX_PAGES}, and those that fit the text cap). */
  readonly pages: readonly PdfPageText[];
  readonly metadata: PdfMetadata;
  readonly outline: readonly PdfOutlineEntry[];
  /** Characters (code points) of text over all returned pages. */
  readonly chars: number;
  /**
   * True when something was left out: pages past {@link PDF_MAX_PAGES}, text past
   * {@link PDF_MAX_TEXT_CHARS} (the page where it ran out ends with `…` and later pages
   * are not returned), outline entries past {@link PDF_MAX_OUTLINE_ITEMS}, or a field cut
   * at its cap.
   */
  readonly truncated: boolean;
}

/** Why a PDF could not be read, beside the error code. */
export type PdfFailureReason = 'not_pdf' | 'encrypted' | 'no_text' | 'malformed' | 'truncated';

/** The failures {@link extractPdf} can report. */
export type PdfErrorCode = Extract<
  ErrorCode,
  'unsupported_content_type' | 'parse_error' | 'body_too_large' | 'not_found'
>;

/** A failed {@link extractPdf}: the code, a message, and the reason. */
export interface PdfFailure {
  readonly ok: false;
  readonly error: PdfErrorCode;
  readonly message: string;
  readonly reason: PdfFailureReason | 'no_such_page';
}

/** A successful {@link extractPdf}: `text` is the canonical JSON of `data`. */
export interface PdfSuccess {
  readonly ok: true;
  readonly text: string;
  readonly data: PdfData;
}

/** What {@link extractPdf} resolves to. */
export type PdfResult = PdfSuccess | PdfFailure;
