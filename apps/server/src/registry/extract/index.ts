import {
  EXTRACT_SCHEMA_MAX_CHARS,
  extract,
  parseExtractSchema,
  receiptRule,
  resultSchema,
} from '@storefront/extract';
import { loadHtml } from '@storefront/html';
import {
  BOOLEAN,
  checked,
  enumParam,
  INTEGER,
  ISO_TIME,
  NULLABLE_STRING,
  onePrice,
  paramsSchema,
  responseSchema,
  STRING,
  STRINGS,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import type { PageSource, RouteDefinition } from '../types.js';
import { example } from './example.js';

interface ExtractParams {
  readonly url: string;
  readonly schema: string;
  readonly format: 'text' | 'markdown';
}

/** `/buy/extract`: a typed record resolved from JSON-LD, OpenGraph, meta and microdata. */
/** The product's output: the record, and the page kind from the same parse. */
interface ExtractOutput {
  readonly result: ReturnType<typeof extract>;
  readonly kind: 'html' | 'text';
}

export const extractRoute: RouteDefinition<ExtractParams, PageSource, ExtractOutput> = {
  name: 'extract',
  example,
  receiptRule,
  path: '/buy/extract',
  title: 'Typed structured extract',
  description:
    'Resolve the fields of a schema from the page’s JSON-LD, OpenGraph, meta and microdata, each coerced to its declared type; the receipt covers the record and the page text.',
  params: paramsSchema(
    {
      url: URL_PARAM,
      schema: {
        type: 'string',
        minLength: 1,
        maxLength: EXTRACT_SCHEMA_MAX_CHARS,
        description:
          'Compact `field[:type]` list (type string, number, integer or boolean; default string), or a JSON-Schema string whose `properties` give each field’s `type`.',
      },
      format: enumParam(['text', 'markdown'], 'Format of the `text` field.', 'text'),
    },
    ['url', 'schema'],
  ),
  prices: onePrice('extract', 4000, 'typed structured-extract record plus page text, signed'),
  chargeRule: 'per-attempt',
  closedResponse: true,
  response: responseSchema(
    {
      status: INTEGER,
      ...resultSchema.properties,
      // The answer leaves an empty list out.
      coerced: { ...resultSchema.properties.coerced, minItems: 1 },
      text: STRING,
      bytes: INTEGER,
      contentType: NULLABLE_STRING,
      truncated: BOOLEAN,
      redirects: STRINGS,
      fetchedAt: ISO_TIME,
      metered: BOOLEAN,
      delivered: { enum: ['key', 'x402', 'mcp'] },
      kind: { enum: ['html', 'text'] },
    },
    true,
  ),
  check(query) {
    const schema = query.schema === undefined ? null : parseExtractSchema(query.schema);
    return checked(
      [
        urlProblem('url', query.url ?? ''),
        schema === null || schema.ok ? null : { param: 'schema', message: schema.message },
      ],
      () => ({
        url: query.url as string,
        schema: query.schema as string,
        format: query.format === 'markdown' ? 'markdown' : 'text',
      }),
    );
  },
  priceFor: () => extractRoute.prices[0] as (typeof extractRoute.prices)[0],
  reads: { kind: 'page', url: (params) => params.url },
  // The product, and the page kind the answer reports from the same parse.
  compute: ({ source: { doc }, params }) => {
    const result = extract(doc, { schema: params.schema, format: params.format });
    const loaded = loadHtml(doc);
    return { result, kind: loaded.ok ? loaded.page.kind : 'html' };
  },
  shape({ result, kind }, { source: { doc } }, call) {
    const common = {
      bytes: doc.bytes.length,
      contentType: doc.contentType,
      truncated: doc.truncated,
      redirects: [...doc.redirects],
      fetchedAt: doc.fetchedAt,
    };
    if (!result.ok)
      return { ok: false, error: result.error, message: result.message, fields: common };
    const { data } = result;
    return {
      ok: true,
      text: result.text,
      body: {
        ok: true,
        url: doc.url,
        status: doc.status,
        extract: data.extract,
        schema: data.schema,
        ...(data.coerced.length > 0 ? { coerced: data.coerced } : {}),
        title: data.title,
        text: result.text,
        ...common,
        truncated: result.extra?.truncated === true,
        metered: call.metered,
        delivered: call.door,
        kind,
      },
    };
  },
};
