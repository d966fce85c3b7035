import type { JsonSchema, ReceiptRule } from '@storefront/core';

/**
 * The JSON Schema (draft 2020-12) of the `data` of a successful `extractText` result. A
 * `/buy/fetch` answer has no `data` member: it carries these fields at its top level,
 * beside `url`, `status` and `text` (the page text, or with a field list the signed
 * record). `title` is there for HTML pages, `format` when markdown was asked for,
 * `description` and `wordCount` with `extract=1`, `extract` with a field list, and
 * `links` with `links=1`.
 */
export const resultSchema = {
  type: 'object',
  required: ['contentType', 'bytes', 'truncated'],
  additionalProperties: false,
  properties: {
    title: { type: 'string' },
    format: { const: 'markdown' },
    description: { type: 'string' },
    wordCount: { type: 'integer' },
    extract: {
      type: 'object',
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    },
    links: {
      type: 'array',
      items: {
        type: 'object',
        required: ['url', 'text'],
        additionalProperties: false,
        properties: { url: { type: 'string' }, text: { type: 'string' } },
      },
    },
    contentType: { type: ['string', 'null'] },
    bytes: { type: 'integer' },
    truncated: { type: 'boolean' },
  },
} as const satisfies JsonSchema;

/**
 * With a field list, the signed `text` is the RFC 8785 JSON of `{extract, text}` (the
 * record and the page text); otherwise it is the page text, and no field restates it.
 */
export const receiptRule = { kind: 'record' } as const satisfies ReceiptRule;
