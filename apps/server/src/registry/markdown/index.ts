import { receiptRule, resultSchema, toMarkdown } from '@storefront/markdown';
import { documentRoute } from '../document-route.js';
import { checked, paramsSchema, URL_PARAM, urlProblem } from '../shared.js';
import { readSlice, SLICE_PARAMS, type SliceRequest } from '../slice.js';
import { example } from './example.js';

interface MarkdownParams {
  readonly url: string;
  /** The part of the markdown asked for (`maxChars`, `offset`); null for the whole. */
  readonly slice: SliceRequest | null;
}

/** `/buy/markdown`: clean, byte-stable markdown. */
export const markdownRoute = documentRoute<MarkdownParams, unknown>({
  name: 'markdown',
  example,
  receiptRule,
  title: 'Markdown',
  description:
    'Clean GitHub-flavoured markdown of the page: navigation, boilerplate and ads stripped; headings, lists, tables, code and links kept. Same bytes, same markdown.',
  params: paramsSchema({ url: URL_PARAM, ...SLICE_PARAMS }, ['url']),
  price: { tier: 'markdown', amount: 5000, includes: 'clean markdown plus signed receipt' },
  chargeRule: 'before-charging',
  closedResponse: true,
  data: resultSchema,
  // `data.markdown` holds the same text as `text`: both carry the part.
  slices: { of: (params) => params.slice, copies: [['data', 'markdown']] },
  check(query) {
    const slice = readSlice(query);
    return checked([urlProblem('url', query.url ?? ''), 'ok' in slice ? null : slice], () => ({
      url: query.url as string,
      slice: 'ok' in slice ? slice.slice : null,
    }));
  },
  product: (doc) => toMarkdown(doc),
});
