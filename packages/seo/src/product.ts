import { GRADE_SUMMARY_SCHEMA, type JsonSchema, type ReceiptRule } from '@storefront/core';

/** The JSON Schema (draft 2020-12) of the `data` of a successful `auditSeo` result. */
export const resultSchema = {
  type: 'object',
  required: [...GRADE_SUMMARY_SCHEMA.required, 'checks', 'findings', 'counts', 'rubric'],
  properties: {
    ...GRADE_SUMMARY_SCHEMA.properties,
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'label', 'pass', 'weight', 'value', 'note'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          label: { type: 'string' },
          pass: { type: 'boolean' },
          weight: { type: 'integer' },
          value: { type: ['string', 'null'] },
          note: { type: 'string' },
        },
      },
    },
    findings: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'severity', 'remediate'],
        additionalProperties: false,
        properties: {
          id: { type: 'string' },
          severity: { enum: ['high', 'medium', 'low'] },
          remediate: { type: 'string' },
        },
      },
    },
    counts: {
      type: 'object',
      required: [
        'h1',
        'headings',
        'images',
        'imagesWithAlt',
        'internalLinks',
        'externalLinks',
        'jsonLdBlocks',
        'jsonLdInvalid',
        'hreflang',
        'mixedContent',
      ],
      additionalProperties: false,
      properties: {
        h1: { type: 'integer' },
        headings: { type: 'integer' },
        images: { type: 'integer' },
        imagesWithAlt: { type: 'integer' },
        internalLinks: { type: 'integer' },
        externalLinks: { type: 'integer' },
        jsonLdBlocks: { type: 'integer' },
        jsonLdInvalid: { type: 'integer' },
        hreflang: { type: 'integer' },
        mixedContent: { type: 'integer' },
      },
    },
    rubric: { type: 'string' },
    // Present only when a value was cut at its cap (see the README).
    truncatedFields: { const: true },
  },
} as const satisfies JsonSchema;

/** The signed `text` is the RFC 8785 JSON of the whole `data`. */
export const receiptRule = { kind: 'canonical-json' } as const satisfies ReceiptRule;
