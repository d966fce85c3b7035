import type { JsonSchema, ReceiptRule } from '@storefront/core';
import {
  FEED_MAX_DATE_RAW_CHARS,
  FEED_MAX_ITEMS,
  FEED_MAX_LINK_CHARS,
  FEED_MAX_SUMMARY_CHARS,
  FEED_MAX_TITLE_CHARS,
} from './limits.js';

/**
 * The JSON Schema (draft 2020-12) of the `data` of a successful `parseFeed` result.
 * `maxLength` counts code points, as the caps do.
 */
export const resultSchema = {
  type: 'object',
  required: ['feedTitle', 'kind', 'count', 'items'],
  additionalProperties: false,
  properties: {
    feedTitle: { type: 'string', maxLength: FEED_MAX_TITLE_CHARS },
    kind: { enum: ['rss', 'atom'] },
    count: { type: 'integer', minimum: 0, maximum: FEED_MAX_ITEMS },
    items: {
      type: 'array',
      maxItems: FEED_MAX_ITEMS,
      items: {
        type: 'object',
        required: ['title', 'link', 'published', 'publishedRaw', 'summary'],
        additionalProperties: false,
        properties: {
          title: { type: 'string', maxLength: FEED_MAX_TITLE_CHARS },
          link: { type: 'string', maxLength: FEED_MAX_LINK_CHARS },
          published: { type: 'string' },
          publishedRaw: { type: 'string', maxLength: FEED_MAX_DATE_RAW_CHARS },
          summary: { type: 'string', maxLength: FEED_MAX_SUMMARY_CHARS },
        },
      },
    },
  },
} as const satisfies JsonSchema;

/** The signed `text` is the RFC 8785 JSON of the whole `data`. */
export const receiptRule = { kind: 'canonical-json' } as const satisfies ReceiptRule;
