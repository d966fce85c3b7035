import type { ErrorCode } from '@storefront/core';

/** Options of {@link extractText}, one per `/buy/fetch` parameter. */
export interface TextOptions {
  /** `text` (default): cleaned text. `markdown`: GitHub-flavoured markdown from @storefront/markdown. */
  readonly format?: 'text' | 'markdown';
  /** Add the page's `<a href>` links, same-origin first. */
  readonly links?: boolean;
  /**
   * `'1'` adds `description` and `wordCount`; a comma list of field names (each optionally
   * `name:type`) adds a typed record resolved as `/buy/extract` does.
   */
  readonly extract?: string;
}

/** A value of the typed record. */
export type FieldValue = string | number | boolean | null;

/** One link of `links`. */
export interface TextLink {
  readonly url: string;
  readonly text: string;
}

/** The structured part of a `/buy/fetch` result; fields appear only when requested. */
export interface TextData {
  /** The page title; HTML pages only. */
  readonly title?: string;
  /** `markdown`, echoed only when requested. */
  readonly format?: 'markdown';
  /** With `extract=1`: the page description (meta, OpenGraph, JSON-LD, else the first paragraph). */
  readonly description?: string;
  /** With `extract=1`: words in the returned text. */
  readonly wordCount?: number;
  /** With a field list: each requested field, typed; absent fields are null. */
  readonly extract?: Readonly<Record<string, FieldValue>>;
  /** With `links=1`: unique links, same-origin first. */
  readonly links?: readonly TextLink[];
  /** The upstream `Content-Type`, or null. */
  readonly contentType: string | null;
  /** Raw body size in bytes. */
  readonly bytes: number;
  /** True when the body was cut at the fetch cap or the parse cap. */
  readonly truncated: boolean;
}

/** The failures {@link extractText} can report. */
export type TextErrorCode = Extract<ErrorCode, 'unsupported_content_type' | 'parse_error'>;
