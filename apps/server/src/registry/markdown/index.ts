import { receiptRule, resultSchema, toMarkdown } from '@storefront/markdown';
import { documentRoute, type UrlParams } from '../document-route.js';
import { checked, paramsSchema, URL_PARAM, urlProblem } from '../shared.js';
import { example } from './example.js';

/** `/buy/markdown`: clean, byte-stable markdown. */
export const markdownRoute = documentRoute<UrlParams, unknown>({
  name: 'markdown',
  example,
  receiptRule,
  title: 'Markdown',
  description:
    'Clean GitHub-flavoured markdown of the page: navigation, boilerplate and ads stripped; headings, lists, tables, code and links kept. Same bytes, same markdown.',
  params: paramsSchema({ url: URL_PARAM }, ['url']),
  price: { tier: 'markdown', amount: 5000, includes: 'clean markdown plus signed receipt' },
  chargeRule: 'before-charging',
  closedResponse: true,
  data: resultSchema,
  check: (query) =>
    checked([urlProblem('url', query.url ?? '')], () => ({ url: query.url as string })),
  product: (doc) => toMarkdown(doc),
});
