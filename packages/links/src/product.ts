import type { JsonSchema, ReceiptRule } from '@storefront/core';

/** The JSON Schema (draft 2020-12) of the `data` of a successful `extractLinks` result. */
export const resultSchema = {
  type: 'object',
  required: [
    'pageOrigin',
    'total',
    'internalCount',
    'externalCount',
    'originCount',
    'links',
    'byOrigin',
    'thirdPartyOrigins',
  ],
  additionalProperties: false,
  properties: {
    pageOrigin: { type: 'string' },
    total: { type: 'integer' },
    internalCount: { type: 'integer' },
    externalCount: { type: 'integer' },
    originCount: { type: 'integer' },
    links: {
      type: 'array',
      items: {
        type: 'object',
        required: ['url', 'text', 'origin', 'internal'],
        additionalProperties: false,
        properties: {
          url: { type: 'string' },
          text: { type: 'string' },
          origin: { type: 'string' },
          internal: { type: 'boolean' },
        },
      },
    },
    byOrigin: {
      type: 'array',
      items: {
        type: 'object',
        required: ['origin', 'count', 'internal'],
        additionalProperties: false,
        properties: {
          origin: { type: 'string' },
          count: { type: 'integer' },
          internal: { type: 'boolean' },
        },
      },
    },
    thirdPartyOrigins: { type: 'array', items: { type: 'string' } },
  },
} as const satisfies JsonSchema;

/**
 * The signed `text` is one `anchor<TAB>url` row per entry of `data.links`; the rest of
 * `data` follows from those rows and the result's `url`.
 */
export const receiptRule = { kind: 'link-rows' } as const satisfies ReceiptRule;
