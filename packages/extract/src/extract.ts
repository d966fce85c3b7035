import {
  canonicalize,
  capString,
  type FetchedDocument,
  fail,
  ok,
  type ProductResult,
  StorefrontError,
} from '@storefront/core';
import { contentText, loadHtml } from '@storefront/html';
import { toMarkdown } from '@storefront/markdown';
import { parseExtractSchema } from './parse-schema.js';
import { resolveFields } from './resolve-fields.js';
import type {
  ExtractData,
  ExtractField,
  ExtractFieldType,
  ExtractFormat,
  ExtractOptions,
} from './types.js';

/**
 * The longest `title` (1,000 characters, UTF-16 code units); a longer one keeps its start
 * and ends with `…` (`capString` of @storefront/core).
 */
export const EXTRACT_MAX_TITLE_CHARS = 1000;

const OPTION_KEYS: ReadonlySet<string> = new Set(['schema', 'format']);

/**
 * The typed structured extract of a page (`/buy/extract`): each field of `schema`
 * resolved from JSON-LD, OpenGraph, meta and microdata and coerced to its declared type
 * (absent fields are null), with the page text. `text` is the RFC 8785 canonical JSON of
 * `{ extract, text }`, so the receipt covers the typed record and the page text. An
 * invalid `schema` is misuse (check it first with `parseExtractSchema`) and throws
 * `invalid_params`; bad content never throws. `extra.truncated` is true when the body was
 * cut at the fetch cap, the parse cap, or (for markdown) the markdown cap.
 *
 * @example
 *   const result = extract(doc, { schema: 'title, price:number, inStock:boolean' });
 *   if (result.ok) console.log(result.data.extract); // { inStock: null, price: 1299, title: '…' }
 */
export function extract(
  doc: FetchedDocument,
  options: Readonly<ExtractOptions>,
): ProductResult<ExtractData> {
  const { fields, format } = checkOptions(options);
  const schema = Object.fromEntries(
    fields.map((field) => [field.name, field.type] as const).sort(([a], [b]) => (a < b ? -1 : 1)),
  ) as Record<string, ExtractFieldType>;
  const loaded = loadHtml(doc);
  if (!loaded.ok) return fail(loaded.error, loaded.message, { schema, format });
  const { page } = loaded;

  let pageText: string;
  let truncated = doc.truncated || page.clipped;
  if (format === 'markdown') {
    const markdown = toMarkdown(doc);
    if (!markdown.ok) return fail(markdown.error, markdown.message, { schema, format });
    pageText = markdown.text.toWellFormed();
    truncated ||= markdown.data.truncated;
  } else {
    // Text decoded from malformed UTF-16 can hold lone surrogates; canonical JSON refuses them.
    pageText = contentText(page).toWellFormed();
  }
  const { record, coerced } = resolveFields(page, fields);
  const data: ExtractData = {
    extract: record,
    schema,
    coerced,
    title:
      page.title === null ? null : capString(page.title.toWellFormed(), EXTRACT_MAX_TITLE_CHARS),
    text: pageText,
    format,
  };
  return ok(canonicalize({ extract: record, text: pageText }), data, { truncated });
}

function checkOptions(options: unknown): {
  fields: readonly ExtractField[];
  format: ExtractFormat;
} {
  if (options === null || typeof options !== 'object' || Array.isArray(options)) {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`options\` to be an object with a \`schema\` string, got \`${options === null ? 'null' : Array.isArray(options) ? 'array' : typeof options}\``,
    );
  }
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) {
      throw new StorefrontError(
        'invalid_params',
        `Unknown option \`${key}\`; expected \`schema\` and \`format\``,
      );
    }
  }
  const { schema, format = 'text' } = options as { schema?: unknown; format?: unknown };
  if (format !== 'text' && format !== 'markdown') {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`format\` to be \`text\` or \`markdown\`, got \`${String(format)}\``,
    );
  }
  const parsed = parseExtractSchema(schema as string);
  if (!parsed.ok) throw new StorefrontError('invalid_params', parsed.message);
  return { fields: parsed.fields, format };
}
