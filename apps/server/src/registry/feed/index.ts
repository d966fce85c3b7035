import { FEED_MAX_ITEMS, parseFeed, receiptRule, resultSchema } from '@storefront/feed';
import { documentRoute, type UrlParams } from '../document-route.js';
import { checked, paramsSchema, URL_PARAM, urlProblem } from '../shared.js';
import { example } from './example.js';

/** `/buy/feed`: RSS 2.0, RDF and Atom normalized to one item shape. */
export const feedRoute = documentRoute<UrlParams, unknown>({
  name: 'feed',
  example,
  receiptRule,
  title: 'Feed normalization',
  description: `An RSS 2.0, RDF or Atom 1.0 feed as up to ${FEED_MAX_ITEMS} items of title, link, ISO-8601 UTC date, the date as written, and a plain-text summary.`,
  params: paramsSchema({ url: URL_PARAM }, ['url']),
  price: { tier: 'feed', amount: 5000, includes: 'normalized feed items plus signed receipt' },
  chargeRule: 'per-attempt',
  closedResponse: true,
  contentType: true,
  data: resultSchema,
  check: (query) =>
    checked([urlProblem('url', query.url ?? '')], () => ({ url: query.url as string })),
  product: (doc) => parseFeed(doc),
});
