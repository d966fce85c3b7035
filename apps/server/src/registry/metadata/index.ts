import { extractMetadata, receiptRule, resultSchema } from '@storefront/metadata';
import { documentRoute, type UrlParams } from '../document-route.js';
import { checked, paramsSchema, URL_PARAM, urlProblem } from '../shared.js';
import { example } from './example.js';

/** `/buy/metadata`: one typed metadata record. */
export const metadataRoute = documentRoute<UrlParams, unknown>({
  name: 'metadata',
  example,
  receiptRule,
  title: 'Page metadata',
  description:
    'Title, canonical URL, OpenGraph, Twitter and standard meta tags, and every JSON-LD block (@graph flattened) as one typed record.',
  params: paramsSchema({ url: URL_PARAM }, ['url']),
  price: { tier: 'metadata', amount: 6000, includes: 'typed metadata record plus signed receipt' },
  chargeRule: 'free-on-failure',
  closedResponse: true,
  data: resultSchema,
  check: (query) =>
    checked([urlProblem('url', query.url ?? '')], () => ({ url: query.url as string })),
  product: (doc) => extractMetadata(doc),
});
