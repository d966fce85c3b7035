import {
  capString,
  type FetchedDocument,
  fail,
  ok,
  type ProductResult,
  readOptions,
} from '@storefront/core';
import { loadHtml } from '@storefront/html';
import { MARKDOWN_MAX_BYTES, MARKDOWN_MAX_TITLE_CHARS } from './limits.js';
import { mdastToMarkdown } from './mdast-to-markdown.js';
import { toMdast } from './to-mdast.js';
import type { MarkdownData, MarkdownOptions } from './types.js';

/**
 * Turn a fetched HTML (or text/plain) page into clean GitHub-flavoured markdown:
 * boilerplate, navigation and ads left out, headings, lists, links, images, code and
 * tables kept, URLs made absolute. The same bytes always give byte-identical markdown;
 * `text` is exactly `data.markdown`, at most {@link MARKDOWN_MAX_BYTES} UTF-8 bytes.
 *
 * @example
 *   const result = toMarkdown(doc);
 *   if (result.ok) console.log(result.text); // '# Title\n\nFirst paragraph …'
 */
export function toMarkdown(
  doc: FetchedDocument,
  options?: Readonly<MarkdownOptions> | null,
): ProductResult<MarkdownData> {
  checkOptions(options);
  const partial = {
    contentType: doc.contentType,
    bytes: doc.bytes.length,
    redirects: [...doc.redirects],
  };
  const loaded = loadHtml(doc);
  if (!loaded.ok) return fail<MarkdownData>(loaded.error, loaded.message, partial);
  let serialized: ReturnType<typeof mdastToMarkdown>;
  try {
    // The tree needs no more content than the cap can show (with room to spare).
    const tree = toMdast(loaded.page, { stopAfter: 2 * MARKDOWN_MAX_BYTES });
    serialized = mdastToMarkdown(tree, MARKDOWN_MAX_BYTES);
  } catch (error) {
    // The builder and serializer are iterative and bounded; this is a last guard so the
    // product stays total on trees no test has met.
    return fail<MarkdownData>(
      'parse_error',
      `The page could not be converted: ${String(error)}.`,
      partial,
    );
  }
  const { markdown, truncated, wordCount } = serialized;
  const { title } = loaded.page;
  const data: MarkdownData = {
    markdown,
    title:
      loaded.page.kind === 'html' && title !== null
        ? capString(title, MARKDOWN_MAX_TITLE_CHARS)
        : null,
    wordCount,
    contentType: partial.contentType,
    bytes: partial.bytes,
    truncated,
    redirects: partial.redirects,
  };
  return ok(markdown, data);
}

function checkOptions(options: unknown): void {
  readOptions(options, [], 'toMarkdown');
}
