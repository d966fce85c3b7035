import {
  canonicalize,
  capString,
  type FetchedDocument,
  fail,
  type JsonValue,
  ok,
  type ProductResult,
  readOptions,
  URL_MAX_CHARS,
} from '@storefront/core';
import { loadHtml } from '@storefront/html';
import { collectMetadata } from './collect-metadata.js';
import type { JsonLdObject, MetadataData, MetadataOptions } from './types.js';

/**
 * The longest `title` (1,000 characters, UTF-16 code units); a longer one keeps its start
 * and ends with `…` (`capString` of @storefront/core).
 */
export const METADATA_MAX_TITLE_CHARS = 1000;

/**
 * The longest `canonical` URL (2,048 characters, the service's `url` limit, core's
 * `URL_MAX_CHARS`), cut the same way.
 */
export const METADATA_MAX_URL_CHARS = URL_MAX_CHARS;

/**
 * The most JSON-LD a record carries (1,048,576 characters): every object's size is its
 * canonical JSON length before string escapes (keys and strings with their quotes,
 * numbers counted as 24 characters); objects are kept in document order while their total
 * fits, and the rest is left out. Members of a `@graph` each carry the container's
 * `@context`, so without this a page could repeat one large context a hundred times.
 */
export const METADATA_MAX_JSONLD_CHARS = 1024 * 1024;

/**
 * One typed metadata record for a page (`/buy/metadata`): the `<title>`, the canonical
 * URL, OpenGraph, Twitter and other named meta, and every JSON-LD object, with counts.
 * `text` is the RFC 8785 canonical JSON of `data`. Non-HTML bodies give
 * `unsupported_content_type`; the function never throws on content.
 *
 * @example
 *   const result = extractMetadata(doc);
 *   if (result.ok) console.log(result.data.openGraph['og:title'], result.data.counts);
 */
export function extractMetadata(
  doc: FetchedDocument,
  options?: Readonly<MetadataOptions> | null,
): ProductResult<MetadataData> {
  checkOptions(options);
  const loaded = loadHtml(doc);
  if (!loaded.ok) return fail(loaded.error, loaded.message);
  const collected = collectMetadata(loaded.page);
  const jsonLd = withinBudget(collected.jsonLd, METADATA_MAX_JSONLD_CHARS);
  const data: MetadataData = {
    ...collected,
    title: collected.title === null ? null : capString(collected.title, METADATA_MAX_TITLE_CHARS),
    canonical:
      collected.canonical === null ? null : capString(collected.canonical, METADATA_MAX_URL_CHARS),
    jsonLd,
    counts: {
      jsonLd: jsonLd.length,
      openGraph: Object.keys(collected.openGraph).length,
      twitter: Object.keys(collected.twitter).length,
      standard: Object.keys(collected.standard).length,
    },
  };
  return ok(canonicalize(data), data);
}

function checkOptions(options: unknown): void {
  readOptions(options, [], 'extractMetadata');
}

/** The leading objects whose sizes (see {@link METADATA_MAX_JSONLD_CHARS}) fit in `budget`. */
function withinBudget(objects: readonly JsonLdObject[], budget: number): JsonLdObject[] {
  const kept: JsonLdObject[] = [];
  let left = budget;
  for (const object of objects) {
    const size = sizeUpTo(object, left);
    if (size > left) break;
    left -= size;
    kept.push(object);
  }
  return kept;
}

/** The size of a JSON value, counted iteratively; stops once it passes `limit`. */
function sizeUpTo(root: JsonValue, limit: number): number {
  let size = 0;
  const stack: JsonValue[] = [root];
  while (stack.length > 0 && size <= limit) {
    const value = stack.pop() as JsonValue;
    if (typeof value === 'string') size += value.length + 2;
    else if (typeof value === 'number') size += 24;
    else if (value === null || typeof value === 'boolean') size += 5;
    else if (Array.isArray(value)) {
      size += 2 + value.length;
      for (const item of value) stack.push(item);
    } else {
      const record = value as { readonly [key: string]: JsonValue };
      const keys = Object.keys(record);
      size += 2 + keys.length;
      for (const key of keys) {
        size += key.length + 3;
        stack.push(record[key] as JsonValue);
      }
    }
  }
  return size;
}
