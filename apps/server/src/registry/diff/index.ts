import {
  checkDiffParams,
  DIFF_MAX_PREV_HASH_CHARS,
  DIFF_MAX_PREV_TEXT_CHARS,
  diffText,
  receiptRule,
  resultSchema,
} from '@storefront/diff';
import { toMarkdown } from '@storefront/markdown';
import { extractText } from '@storefront/text';
import {
  enumParam,
  INTEGER,
  ISO_TIME,
  paramsSchema,
  responseSchema,
  STRING,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import type { Checked, PageSource, RouteDefinition } from '../types.js';
import { example } from './example.js';

interface DiffParams {
  readonly url: string;
  readonly prevHash: string | undefined;
  readonly prevText: string | undefined;
  readonly format: 'text' | 'markdown';
}

/** `/buy/diff`: refetch a page and sign whether (and how) it changed. */
export const diffRoute: RouteDefinition<DiffParams, PageSource, ReturnType<typeof diffText>> = {
  name: 'diff',
  example,
  receiptRule,
  path: '/buy/diff',
  title: 'Change proof',
  description:
    'Refetch a page and sign a change claim against a previous receipt’s hash, or a line diff against previous text; receipts chain into an audit trail.',
  params: paramsSchema(
    {
      url: URL_PARAM,
      prevHash: {
        type: 'string',
        maxLength: DIFF_MAX_PREV_HASH_CHARS,
        description: 'Prior content hash (`0x` + 64 hex of sha256) from an earlier receipt.',
      },
      prevText: {
        type: 'string',
        maxLength: DIFF_MAX_PREV_TEXT_CHARS,
        description: 'Prior page text; adds a line-level diff.',
      },
      format: enumParam(['text', 'markdown'], 'Which page text is compared.', 'text'),
    },
    ['url'],
  ),
  prices: [{ tier: 'diff', amount: 6000, includes: 'signed change proof' }],
  chargeRule: 'per-attempt',
  closedResponse: true,
  response: responseSchema(
    { status: INTEGER, ...resultSchema.properties, text: STRING, fetchedAt: ISO_TIME },
    true,
  ),
  check(query): Checked<DiffParams> {
    const result = checkDiffParams(query);
    const problem = urlProblem('url', query.url ?? '');
    const details = [...(result.ok ? [] : result.details), ...(problem ? [problem] : [])];
    if (details.length > 0) return { ok: false, details };
    return {
      ok: true,
      params: {
        url: query.url as string,
        prevHash: query.prevHash,
        prevText: query.prevText,
        format: query.format === 'markdown' ? 'markdown' : 'text',
      },
    };
  },
  priceFor: () => diffRoute.prices[0] as (typeof diffRoute.prices)[0],
  reads: { kind: 'page', url: (params) => params.url },
  // The page text in the requested format; a body that is not a page is compared as it is.
  compute: ({ source: { doc }, params }) => {
    const extracted = params.format === 'markdown' ? toMarkdown(doc) : extractText(doc);
    return diffText({
      document: doc,
      ...(extracted.ok ? { text: extracted.text } : {}),
      ...(params.prevHash === undefined ? {} : { prevHash: params.prevHash }),
      ...(params.prevText === undefined ? {} : { prevText: params.prevText }),
    });
  },
  shape(result, { source: { doc } }) {
    if (!result.ok) {
      return {
        ok: false,
        error: result.error,
        message: result.message,
        fields: { bytes: doc.bytes.length, contentType: doc.contentType },
      };
    }
    const { data } = result;
    return {
      ok: true,
      text: result.text,
      body: {
        ok: true,
        url: doc.url,
        status: doc.status,
        changed: data.changed,
        fromHash: data.fromHash,
        toHash: data.toHash,
        comparedBy: data.comparedBy,
        ...(data.diff === undefined ? {} : { diff: data.diff }),
        text: result.text,
        bytes: data.bytes,
        contentType: data.contentType,
        fetchedAt: doc.fetchedAt,
      },
    };
  },
};
