import { extractLinks } from '@storefront/links';
import { documentRoute, type UrlParams } from '../document-route.js';
import {
  BOOLEAN,
  checked,
  INTEGER,
  paramsSchema,
  record,
  STRING,
  STRINGS,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import { example } from './example.js';

/** `/buy/links`: the page's `<a href>` link graph. */
export const linksRoute = documentRoute<UrlParams, unknown>({
  name: 'links',
  example,
  title: 'Link graph',
  description:
    'Every `<a href>` of the page, absolute and de-duplicated, split into internal and external, grouped by origin.',
  params: paramsSchema({ url: URL_PARAM }, ['url']),
  price: { tier: 'links', amount: 5000, includes: 'link graph plus signed receipt' },
  chargeRule: 'per-attempt',
  closedResponse: true,
  contentType: true,
  data: record({
    pageOrigin: STRING,
    total: INTEGER,
    internalCount: INTEGER,
    externalCount: INTEGER,
    originCount: INTEGER,
    links: {
      type: 'array',
      items: record({ url: STRING, text: STRING, origin: STRING, internal: BOOLEAN }),
    },
    byOrigin: {
      type: 'array',
      items: record({ origin: STRING, count: INTEGER, internal: BOOLEAN }),
    },
    thirdPartyOrigins: STRINGS,
  }),
  check: (query) =>
    checked([urlProblem('url', query.url ?? '')], () => ({ url: query.url as string })),
  product: (doc) => extractLinks(doc),
});
