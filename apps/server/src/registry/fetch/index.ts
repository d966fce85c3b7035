import {
  extractText,
  FETCH_EXTRACT_MAX_CHARS,
  parseFetchExtract,
  receiptRule,
  resultSchema,
} from '@storefront/text';
import {
  checked,
  enumParam,
  INTEGER,
  paramsSchema,
  responseSchema,
  STRING,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import { readSlice, SLICE_PARAMS, SLICE_SCHEMA, type SliceRequest } from '../slice.js';
import type { PageSource, PriceTier, RouteDefinition } from '../types.js';
import { example } from './example.js';

interface FetchParams {
  readonly url: string;
  readonly format: 'text' | 'markdown';
  readonly links: boolean;
  readonly extract: string | undefined;
  /** Whether `extract` names fields (a typed record), rather than `1` or nothing. */
  readonly record: boolean;
  /** The part of the text asked for (`maxChars`, `offset`); null for the whole. */
  readonly slice: SliceRequest | null;
}

/** The three price points of `/buy/fetch` (spec "Price tiers"). */
const PRICES: readonly PriceTier[] = [
  { tier: 'fetch', amount: 3000, includes: 'clean page text plus signed receipt' },
  { tier: 'plus', amount: 6000, includes: 'plus markdown structure and outbound-link graph' },
  { tier: 'pro', amount: 12000, includes: 'plus deterministic structured-extract record' },
];

/** `/buy/fetch`: page text with a signed receipt. */
export const fetchRoute: RouteDefinition<
  FetchParams,
  PageSource,
  ReturnType<typeof extractText>
> = {
  name: 'fetch',
  example,
  receiptRule,
  path: '/buy/fetch',
  title: 'Page text',
  description:
    'Read a page and return its clean text (or markdown) with a signed receipt; optionally the outbound links, a description and word count, or a typed record of named fields.',
  params: paramsSchema(
    {
      url: URL_PARAM,
      format: enumParam(
        ['text', 'markdown'],
        '`markdown` returns markdown instead of text.',
        'text',
      ),
      links: enumParam(
        ['0', '1'],
        '`1` adds the outbound-link graph, same-origin links first.',
        '0',
      ),
      extract: {
        type: 'string',
        maxLength: FETCH_EXTRACT_MAX_CHARS,
        description:
          '`1` adds description and wordCount; a comma list of field names (title, price, author, publishedAt, …) gives a typed record covered by the receipt.',
      },
      ...SLICE_PARAMS,
    },
    ['url'],
  ),
  prices: PRICES,
  chargeRule: 'per-attempt',
  closedResponse: true,
  response: responseSchema(
    { status: INTEGER, text: STRING, ...resultSchema.properties, slice: SLICE_SCHEMA },
    true,
  ),
  check(query) {
    const extract = parseFetchExtract(query.extract);
    const slice = readSlice(query);
    const sliced = 'ok' in slice && slice.slice !== null;
    return checked(
      [
        urlProblem('url', query.url ?? ''),
        extract.ok ? null : { param: 'extract', message: extract.message },
        'ok' in slice ? null : slice,
        sliced && extract.ok && extract.mode === 'fields'
          ? {
              param: 'maxChars',
              message:
                'Expected no `maxChars` or `offset` with an `extract` field list: its record and the page text are signed whole',
            }
          : null,
      ],
      () => ({
        url: query.url as string,
        format: query.format === 'markdown' ? 'markdown' : 'text',
        links: query.links === '1',
        extract: extract.ok && extract.mode !== 'none' ? query.extract : undefined,
        record: extract.ok && extract.mode === 'fields',
        slice: 'ok' in slice ? slice.slice : null,
      }),
    );
  },
  /**
   * Priced by what the answer carries (DESIGN §4): a structured-extract record (`extract`
   * naming fields) is pro; markdown or the link graph is plus; anything else is fetch,
   * which includes `extract=1` (description and word count only).
   */
  priceFor(params) {
    if (params.record) return PRICES[2] as PriceTier;
    if (params.format === 'markdown' || params.links) return PRICES[1] as PriceTier;
    return PRICES[0] as PriceTier;
  },
  reads: { kind: 'page', url: (params) => params.url },
  slices: { of: (params) => params.slice, copies: [] },
  compute: ({ source: { doc }, params }) =>
    extractText(doc, {
      format: params.format,
      links: params.links,
      ...(params.extract === undefined ? {} : { extract: params.extract }),
    }),
  shape(result, { source: { doc } }) {
    if (!result.ok) {
      return {
        ok: false,
        error: result.error,
        message: result.message,
        fields: { contentType: doc.contentType, bytes: doc.bytes.length, truncated: doc.truncated },
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
        ...(data.title === undefined ? {} : { title: data.title }),
        text: result.text,
        ...(data.format === undefined ? {} : { format: data.format }),
        ...(data.description === undefined ? {} : { description: data.description }),
        ...(data.wordCount === undefined ? {} : { wordCount: data.wordCount }),
        ...(data.extract === undefined ? {} : { extract: data.extract }),
        ...(data.links === undefined ? {} : { links: data.links }),
        contentType: data.contentType,
        bytes: data.bytes,
        truncated: data.truncated,
      },
    };
  },
};
