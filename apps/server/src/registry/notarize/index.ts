import {
  checkNotarizeParams,
  INLINE_SOURCE,
  NOTARIZE_MAX_CONTENT_CHARS,
  notarize,
  receiptRule,
  resultSchema,
} from '@storefront/notarize';
import { extractText } from '@storefront/text';
import {
  INTEGER,
  ISO_TIME,
  paramsSchema,
  responseSchema,
  STRING,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import type { Checked, NoneSource, PageSource, RouteDefinition } from '../types.js';
import { example } from './example.js';

type NotarizeParams = { readonly url: string } | { readonly content: string };

/** `/buy/notarize`: a signed statement of the sha256 of inline content or a page's text. */
export const notarizeRoute: RouteDefinition<
  NotarizeParams,
  PageSource | NoneSource,
  ReturnType<typeof notarize>
> = {
  name: 'notarize',
  example,
  receiptRule,
  path: '/buy/notarize',
  title: 'Notarization',
  description:
    'A signed, fixed-format statement that the given content (inline, or a page’s cleaned text) had this sha256 at this time.',
  params: paramsSchema(
    {
      url: {
        ...URL_PARAM,
        description: 'A page whose cleaned text is notarized (exactly one of url, content).',
      },
      content: {
        type: 'string',
        maxLength: NOTARIZE_MAX_CONTENT_CHARS,
        description:
          'Inline UTF-8 content of at most 256 KB to notarize (exactly one of url, content).',
      },
    },
    [],
  ),
  prices: [{ tier: 'notarize', amount: 8000, includes: 'signed notarization statement' }],
  chargeRule: 'free-on-failure',
  closedResponse: true,
  response: responseSchema(
    {
      status: INTEGER,
      text: STRING,
      fetchedAt: ISO_TIME,
      data: resultSchema,
    },
    true,
  ),
  check(query): Checked<NotarizeParams> {
    const result = checkNotarizeParams(query);
    if (!result.ok) return { ok: false, details: result.details };
    if (result.kind === 'inline') return { ok: true, params: { content: query.content as string } };
    const problem = urlProblem('url', query.url as string);
    return problem
      ? { ok: false, details: [problem] }
      : { ok: true, params: { url: query.url as string } };
  },
  priceFor: () => notarizeRoute.prices[0] as (typeof notarizeRoute.prices)[0],
  reads: { kind: 'page-or-content', url: (params) => ('url' in params ? params.url : null) },
  // A page's receipt: the spec notarizes its cleaned text; a body that is not a page is
  // hashed as it is. Inline content is a sha256 of at most 256 KB, witnessed when read.
  compute: ({ source, params, baseUrl }) => {
    if (source.kind === 'none') {
      const content = 'content' in params ? params.content : '';
      return notarize({ content, witnessedAt: source.at }, { baseUrl });
    }
    const cleaned = extractText(source.doc);
    return notarize(
      { document: source.doc, ...(cleaned.ok ? { text: cleaned.text } : {}) },
      { baseUrl },
    );
  },
  shape(result, { source }) {
    const at =
      source.kind === 'none'
        ? { url: INLINE_SOURCE, status: 200, fetchedAt: source.at }
        : { url: source.doc.url, status: source.doc.status, fetchedAt: source.doc.fetchedAt };
    if (!result.ok) {
      return { ok: false, error: result.error, message: result.message, at };
    }
    return {
      ok: true,
      text: result.text,
      body: {
        ok: true,
        url: at.url,
        status: at.status,
        text: result.text,
        fetchedAt: at.fetchedAt,
        data: result.data,
      },
      envelope: at,
    };
  },
};
