import { toMarkdown } from '@storefront/markdown';
import { documentRoute, type UrlParams } from '../document-route.js';
import {
  BOOLEAN,
  checked,
  INTEGER,
  NULLABLE_STRING,
  paramsSchema,
  record,
  STRING,
  STRINGS,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import { example } from './example.js';

/** `/buy/markdown`: clean, byte-stable markdown. */
export const markdownRoute = documentRoute<UrlParams, unknown>({
  name: 'markdown',
  example,
  title: 'Markdown',
  description:
    'Clean GitHub-flavoured markdown of the page: navigation, boilerplate and ads stripped; headings, lists, tables, code and links kept. Same bytes, same markdown.',
  params: paramsSchema({ url: URL_PARAM }, ['url']),
  price: { tier: 'markdown', amount: 5000, includes: 'clean markdown plus signed receipt' },
  chargeRule: 'before-charging',
  closedResponse: true,
  data: record({
    markdown: STRING,
    title: NULLABLE_STRING,
    wordCount: INTEGER,
    contentType: NULLABLE_STRING,
    bytes: INTEGER,
    truncated: BOOLEAN,
    redirects: STRINGS,
  }),
  check: (query) =>
    checked([urlProblem('url', query.url ?? '')], () => ({ url: query.url as string })),
  product: (doc) => toMarkdown(doc),
});
