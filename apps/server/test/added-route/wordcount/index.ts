import { canonicalize, decodeBytes, type FetchedDocument, ok } from '@storefront/core';
import { documentRoute, type UrlParams } from '../../../src/registry/document-route.js';
import {
  checked,
  INTEGER,
  paramsSchema,
  record,
  STRING,
  URL_PARAM,
  urlProblem,
} from '../../../src/registry/shared.js';
import { example } from './example.js';

/**
 * A route folder as a new product would add it, for the test that adding one touches
 * nothing else: `/buy/wordcount`, the words of a page's title and of its whole text. Its
 * product is tiny and lives here; a real one is a package under `packages/`.
 */
export function countWords(doc: FetchedDocument) {
  const html = decodeBytes(doc.bytes, { contentType: doc.contentType }).text;
  const title = /<title[^>]*>([^<]*)<\/title>/i.exec(html)?.[1]?.trim() ?? '';
  const body = html.replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ').replace(/<[^>]*>/g, ' ');
  const words = (text: string) => text.split(/\s+/).filter((word) => word !== '').length;
  const data = { title, titleWords: words(title), words: words(body) };
  return ok(canonicalize(data), data);
}

export const wordcountRoute = documentRoute<UrlParams, ReturnType<typeof countWords>['data']>({
  name: 'wordcount',
  example,
  title: 'Word count',
  description: 'Count the words of a page and of its title.',
  params: paramsSchema({ url: URL_PARAM }, ['url']),
  price: { tier: 'wordcount', amount: 2000, includes: 'word counts plus signed receipt' },
  chargeRule: 'per-attempt',
  closedResponse: true,
  data: record({ title: STRING, titleWords: INTEGER, words: INTEGER }),
  receiptRule: { kind: 'canonical-json' },
  check: (query) =>
    checked([urlProblem('url', query.url ?? '')], () => ({ url: query.url as string })),
  product: (doc) => countWords(doc),
});
