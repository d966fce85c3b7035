import type { JsonSchema, ReceiptRule } from '@storefront/core';

const NULLABLE_STRING = { type: ['string', 'null'] } as const;
const NULLABLE_TIME = { type: ['string', 'null'], format: 'date-time' } as const;

/**
 * The JSON Schema (draft 2020-12) of the `data` of a successful `extractPdf` result. An
 * outline entry's `items` have the entry's own shape; the schema spells it out one level
 * down only, so that it holds no `$ref` and can be embedded in any document as it is.
 */
export const resultSchema = {
  type: 'object',
  required: ['format', 'pageCount', 'pages', 'metadata', 'outline', 'chars', 'truncated'],
  additionalProperties: false,
  properties: {
    format: { enum: ['text', 'markdown'] },
    pageCount: { type: 'integer' },
    pages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['page', 'text', 'chars'],
        additionalProperties: false,
        properties: {
          page: { type: 'integer' },
          text: { type: 'string' },
          chars: { type: 'integer' },
        },
      },
    },
    metadata: {
      type: 'object',
      required: [
        'title',
        'author',
        'subject',
        'keywords',
        'creator',
        'producer',
        'created',
        'modified',
        'pdfVersion',
        'language',
      ],
      additionalProperties: false,
      properties: {
        title: NULLABLE_STRING,
        author: NULLABLE_STRING,
        subject: NULLABLE_STRING,
        keywords: NULLABLE_STRING,
        creator: NULLABLE_STRING,
        producer: NULLABLE_STRING,
        created: NULLABLE_TIME,
        modified: NULLABLE_TIME,
        pdfVersion: NULLABLE_STRING,
        language: NULLABLE_STRING,
      },
    },
    outline: {
      type: 'array',
      items: {
        type: 'object',
        required: ['title', 'page', 'items'],
        additionalProperties: false,
        properties: {
          title: { type: 'string' },
          page: { type: ['integer', 'null'] },
          items: { type: 'array', items: { type: 'object' } },
        },
      },
    },
    chars: { type: 'integer' },
    truncated: { type: 'boolean' },
  },
} as const satisfies JsonSchema;

/** The signed `text` is the RFC 8785 JSON of the whole `data`. */
export const receiptRule = { kind: 'canonical-json' } as const satisfies ReceiptRule;
