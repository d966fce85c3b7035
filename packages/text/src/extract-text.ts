import {
  canonicalize,
  capString,
  type FetchedDocument,
  fail,
  ok,
  type ProductResult,
  StorefrontError,
} from '@storefront/core';
import { resolveFields } from '@storefront/extract';
import {
  collapseWhitespace,
  contentText,
  countWords,
  findAll,
  type HtmlElement,
  type HtmlPage,
  loadHtml,
  readableText,
  selectContent,
  textContent,
} from '@storefront/html';
import { extractLinks } from '@storefront/links';
import { toMarkdown } from '@storefront/markdown';
import { parseFetchExtract } from './fields.js';
import type { FieldValue, TextData, TextLink, TextOptions } from './types.js';

/** The longest `description` taken from the first paragraph when the page declares none. */
export const DESCRIPTION_MAX_CHARS = 300;

/**
 * The longest `title` (1,000 characters, UTF-16 code units); a longer one keeps its start
 * and ends with `…` (`capString` of @storefront/core).
 */
export const TEXT_MAX_TITLE_CHARS = 1000;

/**
 * The longest declared `description` (2,000 characters); a longer one keeps its start and
 * ends with `…`. Typed-record values are capped by @storefront/extract
 * (`EXTRACT_MAX_VALUE_CHARS`), link texts and URLs by @storefront/links.
 */
export const TEXT_MAX_DESCRIPTION_CHARS = 2000;

const EMPTY: TextOptions = Object.freeze({});

/**
 * Clean readable text of a page, the product behind `/buy/fetch`: boilerplate left out,
 * one paragraph per block. Options add markdown instead of text, a description and word
 * count, a typed record, and the link list; each part parses the page once, shared.
 *
 * The signed `text` is the cleaned text (or markdown). With a field list it is the RFC
 * 8785 JSON of `{extract, text}`, so the receipt covers the typed record too.
 *
 * @example
 *   const result = extractText(doc, { extract: '1' });
 *   if (result.ok) console.log(result.data.wordCount, result.text);
 */
export function extractText(
  doc: FetchedDocument,
  options?: Readonly<TextOptions> | null,
): ProductResult<TextData> {
  const settings = options ?? EMPTY;
  const format = settings.format ?? 'text';
  if (format !== 'text' && format !== 'markdown') {
    throw new StorefrontError(
      'invalid_params',
      `\`format\` is \`${String(format)}\`; expected \`text\` or \`markdown\`.`,
    );
  }
  const wanted = parseFetchExtract(settings.extract);
  if (!wanted.ok) throw new StorefrontError('invalid_params', wanted.message);

  const loaded = loadHtml(doc);
  if (!loaded.ok) return fail(loaded.error, loaded.message);
  const page = loaded.page;

  let content: string;
  let words: number | undefined;
  let truncated = doc.truncated || page.clipped;
  if (format === 'markdown') {
    const markdown = toMarkdown(doc);
    if (!markdown.ok) return fail(markdown.error, markdown.message);
    content = markdown.data.markdown;
    words = markdown.data.wordCount;
    truncated ||= markdown.data.truncated;
  } else {
    content = page.kind === 'text' ? plainText(page) : contentText(page);
  }

  const data: {
    -readonly [K in keyof TextData]: TextData[K];
  } = { contentType: doc.contentType, bytes: doc.bytes.length, truncated };
  if (page.kind === 'html' && page.title !== null) {
    data.title = capString(page.title, TEXT_MAX_TITLE_CHARS);
  }
  if (format === 'markdown') data.format = 'markdown';

  let text = content;
  if (wanted.mode === 'summary') {
    data.description = describe(page, content);
    data.wordCount = words ?? countWords(content);
  } else if (wanted.mode === 'fields') {
    const { record } = resolveFields(page, wanted.fields);
    const extract: Record<string, FieldValue> = {};
    for (const field of wanted.fields) extract[field.name] = record[field.name] ?? null;
    data.extract = extract;
    text = canonicalize({ extract, text: content });
  }
  if (settings.links === true) data.links = sameOriginFirst(doc);
  return ok(text, data);
}

function plainText(page: HtmlPage): string {
  // text/plain arrives wrapped in one <pre>: its text, with line ends normalised.
  return readableText(page.body ?? page.document, { filter: false }).replace(/\r\n?/g, '\n');
}

function describe(page: HtmlPage, content: string): string {
  if (page.kind === 'html') {
    const { record } = resolveFields(page, [{ name: 'description', type: 'string' }]);
    const declared = record.description;
    if (typeof declared === 'string' && declared.trim() !== '') {
      return capString(declared, TEXT_MAX_DESCRIPTION_CHARS);
    }
  }
  // No declared description: the first non-empty paragraph (`<p>`) of the content,
  // else the first block of the text, cut at a word boundary.
  let first = '';
  if (page.kind === 'html') {
    const { root, leaves } = selectContent(page);
    for (const paragraph of findAll(root, 'p')) {
      if (isLeftOut(paragraph, root, leaves)) continue;
      const text = collapseWhitespace(textContent(paragraph));
      if (countWords(text) > 0) {
        first = text;
        break;
      }
    }
  }
  if (first === '') first = content.split('\n\n').find((block) => countWords(block) > 0) ?? '';
  return clip(first.replace(/\s+/g, ' ').trim(), DESCRIPTION_MAX_CHARS);
}

function isLeftOut(
  element: HtmlElement,
  root: unknown,
  leaves: (element: HtmlElement) => boolean,
): boolean {
  for (let node: HtmlElement | null = element; node !== null && node !== root; ) {
    if (leaves(node)) return true;
    const parent: HtmlElement['parentNode'] = node.parentNode;
    node = parent !== null && 'tagName' in parent ? parent : null;
  }
  return false;
}

function clip(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  const cut = chars.slice(0, max).join('');
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

function sameOriginFirst(doc: FetchedDocument): TextLink[] {
  const result = extractLinks(doc);
  if (!result.ok) return [];
  const internal: TextLink[] = [];
  const external: TextLink[] = [];
  for (const link of result.data.links) {
    (link.internal ? internal : external).push({ url: link.url, text: link.text });
  }
  return [...internal, ...external];
}
