import type { JsonSchema, ReceiptRule } from '@storefront/core';

/**
 * The JSON Schema (draft 2020-12) of the part of a successful `extract` result's `data`
 * that a `/buy/extract` answer carries. The answer has no `data` member: `extract`,
 * `schema`, `coerced` (left out when empty) and `title` sit at its top level. `data.text`
 * (the page text) and `data.format` are not carried as such: the answer's `text` is the
 * signed record, the RFC 8785 JSON of `{extract, text}`.
 */
export const resultSchema = {
  type: 'object',
  required: ['extract', 'schema', 'coerced', 'title'],
  properties: {
    extract: {
      type: 'object',
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    },
    schema: {
      type: 'object',
      additionalProperties: { enum: ['string', 'number', 'integer', 'boolean'] },
    },
    coerced: { type: 'array', items: { type: 'string' } },
    title: { type: ['string', 'null'] },
  },
} as const satisfies JsonSchema;

/** The signed `text` is the RFC 8785 JSON of `{extract, text}`: the record and the page text. */
export const receiptRule = { kind: 'record' } as const satisfies ReceiptRule;
