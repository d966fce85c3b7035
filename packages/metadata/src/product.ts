import type { JsonSchema, ReceiptRule } from '@storefront/core';

const STRING_MAP = { type: 'object', additionalProperties: { type: 'string' } } as const;

/** The JSON Schema (draft 2020-12) of the `data` of a successful `extractMetadata` result. */
export const resultSchema = {
  type: 'object',
  required: ['title', 'canonical', 'openGraph', 'twitter', 'standard', 'jsonLd', 'counts'],
  additionalProperties: false,
  properties: {
    title: { type: ['string', 'null'] },
    canonical: { type: ['string', 'null'] },
    openGraph: STRING_MAP,
    twitter: STRING_MAP,
    standard: STRING_MAP,
    jsonLd: { type: 'array', items: { type: 'object' } },
    counts: {
      type: 'object',
      required: ['jsonLd', 'openGraph', 'twitter', 'standard'],
      additionalProperties: false,
      properties: {
        jsonLd: { type: 'integer' },
        openGraph: { type: 'integer' },
        twitter: { type: 'integer' },
        standard: { type: 'integer' },
      },
    },
  },
} as const satisfies JsonSchema;

/** The signed `text` is the RFC 8785 JSON of the whole `data`. */
export const receiptRule = { kind: 'canonical-json' } as const satisfies ReceiptRule;
