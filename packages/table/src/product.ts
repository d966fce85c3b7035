import type { JsonSchema, ReceiptRule } from '@storefront/core';

/**
 * The JSON Schema (draft 2020-12) of the `data` of a successful `extractTables` result.
 * A table has `rows` unless `format` is `csv`, and `csv` unless it is `json`.
 */
export const resultSchema = {
  type: 'object',
  required: ['title', 'tableCount', 'returned', 'truncatedTables', 'tables'],
  properties: {
    title: { type: ['string', 'null'] },
    tableCount: { type: 'integer' },
    returned: { type: 'integer' },
    truncatedTables: { type: 'boolean' },
    // Present only when a value was cut at its cap (see the README).
    truncatedFields: { const: true },
    tables: {
      type: 'array',
      items: {
        type: 'object',
        required: ['index', 'caption', 'columns', 'rowCount', 'ragged', 'truncated'],
        properties: {
          index: { type: 'integer' },
          caption: { type: ['string', 'null'] },
          columns: { type: 'array', items: { type: 'string' } },
          rowCount: { type: 'integer' },
          ragged: { type: 'boolean' },
          truncated: { type: 'boolean' },
          rows: {
            type: 'array',
            items: { type: 'object', additionalProperties: { type: 'string' } },
          },
          csv: { type: 'string' },
        },
      },
    },
  },
} as const satisfies JsonSchema;

/** The signed `text` is the RFC 8785 JSON of the whole `data`. */
export const receiptRule = { kind: 'canonical-json' } as const satisfies ReceiptRule;
