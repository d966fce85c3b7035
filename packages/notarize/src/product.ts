import type { JsonSchema, ReceiptRule } from '@storefront/core';

/** The JSON Schema (draft 2020-12) of the `data` of a successful `notarize` result. */
export const resultSchema = {
  type: 'object',
  required: [
    'algorithm',
    'contentHash',
    'byteLength',
    'source',
    'sourceKind',
    'witnessedAt',
    'statementVersion',
    'verify',
  ],
  additionalProperties: false,
  properties: {
    algorithm: { const: 'sha256' },
    contentHash: { type: 'string', pattern: '^0x[0-9a-f]{64}$' },
    byteLength: { type: 'integer' },
    source: { type: 'string' },
    sourceKind: { enum: ['url', 'inline'] },
    witnessedAt: { type: 'string', format: 'date-time' },
    statementVersion: { type: 'string' },
    verify: {
      type: 'object',
      required: ['howTo', 'wellKnown'],
      additionalProperties: false,
      properties: {
        howTo: { type: 'string' },
        wellKnown: { type: 'string' },
      },
    },
  },
} as const satisfies JsonSchema;

/** The signed `text` is the notarization statement, each of its lines built from `data`. */
export const receiptRule = { kind: 'notarization' } as const satisfies ReceiptRule;
