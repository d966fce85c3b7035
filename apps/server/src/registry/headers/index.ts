import { inspectHeaders, receiptRule, resultSchema } from '@storefront/headers';
import { documentRoute, type UrlParams } from '../document-route.js';
import { checked, paramsSchema, URL_PARAM, urlProblem } from '../shared.js';
import { example } from './example.js';

/** `/buy/headers`: security-headers audit of the page's response. */
export const headersRoute = documentRoute<UrlParams, unknown>({
  name: 'headers',
  example,
  receiptRule,
  title: 'Security-headers audit',
  description:
    'Grade the response’s security headers (HSTS, CSP, framing, content-type options, referrer and permissions policies, cookies) A–F under a published rubric, with an exact fix per finding.',
  params: paramsSchema({ url: URL_PARAM }, ['url']),
  price: {
    tier: 'headers',
    amount: 5000,
    includes: 'graded security-headers audit plus signed receipt',
  },
  chargeRule: 'free-on-failure',
  closedResponse: false,
  anyStatus: true,
  headOnly: true,
  data: resultSchema,
  check: (query) =>
    checked([urlProblem('url', query.url ?? '')], () => ({ url: query.url as string })),
  product: (doc) => inspectHeaders(doc),
});
