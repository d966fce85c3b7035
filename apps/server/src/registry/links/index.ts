import { extractLinks, receiptRule, resultSchema } from '@storefront/links';
import { documentRoute, type UrlParams } from '../document-route.js';
import { checked, paramsSchema, URL_PARAM, urlProblem } from '../shared.js';
import { example } from './example.js';

/** `/buy/links`: the page's `<a href>` link graph. */
export const linksRoute = documentRoute<UrlParams, unknown>({
  name: 'links',
  example,
  receiptRule,
  title: 'Link graph',
  description:
    'Every `<a href>` of the page, absolute and de-duplicated, split into internal and external, grouped by origin.',
  params: paramsSchema({ url: URL_PARAM }, ['url']),
  price: { tier: 'links', amount: 5000, includes: 'link graph plus signed receipt' },
  chargeRule: 'per-attempt',
  closedResponse: true,
  contentType: true,
  data: resultSchema,
  check: (query) =>
    checked([urlProblem('url', query.url ?? '')], () => ({ url: query.url as string })),
  product: (doc) => extractLinks(doc),
});
