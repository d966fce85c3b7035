import type { JsonSchema, ReceiptRule } from '@storefront/core';

const NULLABLE_INTEGER = { type: ['integer', 'null'] } as const;

/** The JSON Schema (draft 2020-12) of the `data` of a successful `classifyAvailability` result. */
export const resultSchema = {
  type: 'object',
  required: ['up', 'reachable', 'httpStatus', 'responseClass', 'reason', 'rubric', 'responseMs'],
  additionalProperties: false,
  properties: {
    up: { type: 'boolean' },
    reachable: { type: 'boolean' },
    httpStatus: NULLABLE_INTEGER,
    responseClass: {
      enum: [
        '1xx-informational',
        '2xx-success',
        '3xx-redirect',
        '4xx-client-error',
        '5xx-server-error',
        'unknown',
        'none',
      ],
    },
    reason: { type: 'string' },
    rubric: { type: 'string' },
    responseMs: NULLABLE_INTEGER,
  },
} as const satisfies JsonSchema;

/**
 * The signed `text` is the RFC 8785 JSON of `data` without `responseMs`: the response
 * time is telemetry, reported but not signed (it differs on every probe).
 */
export const receiptRule = {
  kind: 'canonical-json',
  omit: ['responseMs'],
} as const satisfies ReceiptRule;
