import type { JsonSchema, ReceiptRule } from '@storefront/core';

/** The JSON Schema (draft 2020-12) of the `data` of a successful `toMarkdown` result. */
export const resultSchema = {
  type: 'object',
  required: ['markdown', 'title', 'wordCount', 'contentType', 'bytes', 'truncated', 'redirects'],
  additionalProperties: false,
  properties: {
    markdown: { type: 'string' },
    title: { type: ['string', 'null'] },
    wordCount: { type: 'integer' },
    contentType: { type: ['string', 'null'] },
    bytes: { type: 'integer' },
    truncated: { type: 'boolean' },
    redirects: { type: 'array', items: { type: 'string' } },
  },
} as const satisfies JsonSchema;

/** The receipt covers `data.markdown`: the signed `text` is the markdown itself. */
export const receiptRule = {
  kind: 'equals',
  field: 'data.markdown',
} as const satisfies ReceiptRule;
