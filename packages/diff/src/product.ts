import type { JsonSchema, ReceiptRule } from '@storefront/core';

const HASH = { type: 'string', pattern: '^0x[0-9a-f]{64}$' } as const;

/**
 * The JSON Schema (draft 2020-12) of the `data` of a successful `diffText` result. A
 * `/buy/diff` answer has no `data` member: it carries these fields at its top level,
 * beside `url`, `status`, `text` (the signed change claim) and `fetchedAt`. `diff` is
 * present only when `prevText` was given.
 */
export const resultSchema = {
  type: 'object',
  required: ['changed', 'fromHash', 'toHash', 'comparedBy', 'bytes', 'contentType'],
  additionalProperties: false,
  properties: {
    changed: { type: 'boolean' },
    fromHash: { anyOf: [HASH, { type: 'null' }] },
    toHash: HASH,
    comparedBy: { enum: ['hash', 'text'] },
    diff: {
      type: 'object',
      required: ['added', 'removed', 'hunks', 'truncated'],
      additionalProperties: false,
      properties: {
        added: { type: 'integer' },
        removed: { type: 'integer' },
        hunks: { type: 'array', items: { type: 'string' } },
        truncated: { type: 'boolean' },
      },
    },
    bytes: { type: 'integer' },
    contentType: { type: ['string', 'null'] },
  },
} as const satisfies JsonSchema;

/**
 * The signed `text` is the change claim: `claimVersion`, `url`, `changed`, `fromHash`,
 * `toHash` and `fetchedAt` rows, from these fields and the answer's envelope.
 */
export const receiptRule = { kind: 'change-claim' } as const satisfies ReceiptRule;
