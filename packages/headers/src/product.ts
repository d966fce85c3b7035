import { GRADE_SUMMARY_SCHEMA, type JsonSchema, type ReceiptRule } from '@storefront/core';

/** The JSON Schema (draft 2020-12) of the `data` of a successful `inspectHeaders` result. */
export const resultSchema = {
  type: 'object',
  required: [...GRADE_SUMMARY_SCHEMA.required, 'checks', 'findings', 'serverBanner', 'rubric'],
  properties: {
    ...GRADE_SUMMARY_SCHEMA.properties,
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['header', 'label', 'present', 'pass', 'weight', 'value', 'note'],
        properties: {
          header: { type: 'string' },
          label: { type: 'string' },
          present: { type: 'boolean' },
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
        required: ['header', 'severity', 'remediate'],
        properties: {
          header: { type: 'string' },
          severity: { enum: ['high', 'medium', 'low'] },
          remediate: { type: 'string' },
        },
      },
    },
    serverBanner: { type: ['string', 'null'] },
    rubric: { type: 'string' },
    // Present only when a value was cut at its cap (see the README).
    truncatedFields: { const: true },
  },
} as const satisfies JsonSchema;

/** The signed `text` is the RFC 8785 JSON of the whole `data`. */
export const receiptRule = { kind: 'canonical-json' } as const satisfies ReceiptRule;
