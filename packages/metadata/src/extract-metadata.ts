import {
  canonicalize,
  type FetchedDocument,
  fail,
  ok,
  type ProductResult,
  readOptions,
} from '@storefront/core';
import { loadHtml } from '@storefront/html';
import { collectMetadata } from './collect-metadata.js';
import type { MetadataData, MetadataOptions } from './types.js';

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
  const data: MetadataData = {
    ...collected,
    counts: {
      jsonLd: collected.jsonLd.length,
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
