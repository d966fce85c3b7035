import type { ErrorCode } from '@storefront/core';
import type { DefaultTreeAdapterMap } from 'parse5';

/** Any node of a parsed page (in parse5's default tree shape). */
export type HtmlNode = DefaultTreeAdapterMap['node'];
/** An element node. */
export type HtmlElement = DefaultTreeAdapterMap['element'];
/** A text node. */
export type HtmlText = DefaultTreeAdapterMap['textNode'];
/** A node that can have children: document, fragment or element. */
export type HtmlParent = DefaultTreeAdapterMap['parentNode'];
/** The document node. */
export type HtmlDocumentNode = DefaultTreeAdapterMap['document'];

/** The failures {@link loadHtml} can report. */
export type HtmlErrorCode = Extract<
  ErrorCode,
  'unsupported_content_type' | 'parse_error' | 'page_too_complex'
>;

/** What kind of body a document carries, decided from its `Content-Type` and its bytes. */
export type BodyKind = 'html' | 'text' | 'unsupported';

/** One document, decoded and parsed once, shared by every product that reads it. */
export interface HtmlPage {
  /** The final URL of the document. */
  readonly url: string;
  /** The URL relative links resolve against: the first `<base href>`, else {@link url}. */
  readonly baseUrl: string;
  /** The WHATWG name of the encoding the bytes were decoded with. */
  readonly encoding: string;
  /** The parsed tree. */
  readonly document: HtmlDocumentNode;
  /** `<html>`, `<head>` and `<body>` (the tree always has all three for HTML input). */
  readonly html: HtmlElement | null;
  readonly head: HtmlElement | null;
  readonly body: HtmlElement | null;
  /** The `<title>` text with whitespace collapsed, or null when absent or empty. */
  readonly title: string | null;
  /** True when the decoded text was cut at {@link HTML_MAX_PARSE_CHARS} before parsing. */
  readonly clipped: boolean;
  /** The body kind: `text` pages (text/plain) are wrapped in a `<pre>` so products read them alike. */
  readonly kind: 'html' | 'text';
}

/** What {@link loadHtml} returns: a page, or an honest failure. */
export type LoadResult =
  | { readonly ok: true; readonly page: HtmlPage }
  | { readonly ok: false; readonly error: HtmlErrorCode; readonly message: string };
