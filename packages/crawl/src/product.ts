import type { JsonSchema, ReceiptRule } from '@storefront/core';
import { CRAWL_MAX_PAGES, CRAWL_MAX_SKIPPED, MAP_MAX_FETCHES, MAP_MAX_URLS } from './limits.js';

const NULLABLE_STRING = { type: ['string', 'null'] } as const;
const NULLABLE_INTEGER = { type: ['integer', 'null'] } as const;
const STOP = { enum: ['done', 'deadline', 'fetch-cap'] } as const;

/** The JSON Schema (draft 2020-12) of the `data` of a successful `finishMap` result (`/buy/map`). */
export const mapResultSchema = {
  type: 'object',
  required: ['origin', 'count', 'urls', 'sources', 'cut', 'stop'],
  additionalProperties: false,
  properties: {
    origin: { type: 'string' },
    count: { type: 'integer' },
    urls: {
      type: 'array',
      maxItems: MAP_MAX_URLS,
      items: {
        type: 'object',
        required: ['url', 'lastmod'],
        additionalProperties: false,
        properties: { url: { type: 'string' }, lastmod: NULLABLE_STRING },
      },
    },
    sources: {
      type: 'array',
      maxItems: MAP_MAX_FETCHES,
      items: {
        type: 'object',
        required: ['url', 'kind', 'via', 'status', 'error', 'entries'],
        additionalProperties: false,
        properties: {
          url: { type: 'string' },
          kind: {
            enum: ['robots.txt', 'page', 'sitemap-index', 'urlset', 'feed', 'text', 'sitemap'],
          },
          via: NULLABLE_STRING,
          status: NULLABLE_INTEGER,
          error: NULLABLE_STRING,
          entries: { type: 'integer' },
        },
      },
    },
    cut: {
      type: 'object',
      required: ['beyondLimit', 'beyondCollect', 'offSite', 'unreadSources'],
      additionalProperties: false,
      properties: {
        beyondLimit: { type: 'integer' },
        beyondCollect: { type: 'integer' },
        offSite: { type: 'integer' },
        unreadSources: { type: 'integer' },
      },
    },
    stop: STOP,
  },
} as const satisfies JsonSchema;

/** A map's signed `text` is the RFC 8785 JSON of the whole `data`. */
export const mapReceiptRule = { kind: 'canonical-json' } as const satisfies ReceiptRule;

/** The JSON Schema (draft 2020-12) of the `data` of a successful `finishCrawl` result (`/buy/crawl`). */
export const crawlResultSchema = {
  type: 'object',
  required: ['origin', 'format', 'count', 'pages', 'skipped', 'skippedCount', 'robots', 'stop'],
  additionalProperties: false,
  properties: {
    origin: { type: 'string' },
    format: { enum: ['text', 'markdown'] },
    count: { type: 'integer' },
    pages: {
      type: 'array',
      maxItems: CRAWL_MAX_PAGES,
      items: {
        type: 'object',
        required: ['url', 'status', 'contentType', 'title', 'content', 'links', 'hash'],
        additionalProperties: false,
        properties: {
          url: { type: 'string' },
          status: { type: 'integer' },
          contentType: NULLABLE_STRING,
          title: NULLABLE_STRING,
          content: { type: 'string' },
          links: { type: 'array', items: { type: 'string' } },
          hash: { type: 'string', pattern: '^0x[0-9a-f]{64}$' },
        },
      },
    },
    skipped: {
      type: 'array',
      maxItems: CRAWL_MAX_SKIPPED,
      items: {
        type: 'object',
        required: ['url', 'reason'],
        additionalProperties: false,
        properties: { url: { type: 'string' }, reason: { type: 'string' } },
      },
    },
    skippedCount: { type: 'integer' },
    robots: {
      oneOf: [
        { type: 'null' },
        {
          type: 'object',
          required: ['url', 'status', 'mode'],
          additionalProperties: false,
          properties: {
            url: { type: 'string' },
            status: NULLABLE_INTEGER,
            mode: { enum: ['rules', 'allow-all', 'disallow-all'] },
          },
        },
      ],
    },
    stop: STOP,
  },
} as const satisfies JsonSchema;

/**
 * A crawl's signed `text` is one `hash<TAB>url` row per entry of `data.pages`, each hash
 * the sha256 of the page's RFC 8785 JSON without `hash`: any one page can be re-verified
 * against the signed list.
 */
export const crawlReceiptRule = { kind: 'page-rows' } as const satisfies ReceiptRule;
