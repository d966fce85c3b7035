import type { JsonSchema, ReceiptRule } from '@storefront/core';

const HASH = { type: 'string', pattern: '^0x[0-9a-f]{64}$' } as const;

/** The JSON Schema (draft 2020-12) of the `data` of a successful `validateDocument` result. */
export const resultSchema = {
  type: 'object',
  required: [
    'valid',
    'errorCount',
    'errors',
    'truncated',
    'documentHash',
    'schemaHash',
    'schemaForm',
    'pointer',
    'validatedType',
  ],
  properties: {
    valid: { type: 'boolean' },
    errorCount: { type: 'integer' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'keyword', 'message'],
        additionalProperties: false,
        properties: {
          path: { type: 'string' },
          keyword: { type: 'string' },
          message: { type: 'string' },
        },
      },
    },
    truncated: { type: 'boolean' },
    documentHash: HASH,
    schemaHash: HASH,
    schemaForm: { enum: ['compact', 'json-schema', 'shorthand'] },
    pointer: { type: 'string' },
    validatedType: { type: 'string' },
    // Present only when a value was cut at its cap (see the README).
    truncatedFields: { const: true },
  },
} as const satisfies JsonSchema;

/** The signed `text` is the RFC 8785 JSON of the whole `data`. */
export const receiptRule = { kind: 'canonical-json' } as const satisfies ReceiptRule;
