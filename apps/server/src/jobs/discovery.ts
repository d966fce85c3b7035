import { dollars } from '../doors/x402/terms.js';
import type { AnyRoute } from '../registry/types.js';
import { pageRouteOf } from './crawl.js';
import { CRAWL_JOB_SCHEMA, JOB_EVENTS, JOB_FORMATS, JOB_MAX_PAGES } from './params.js';

/**
 * What a crawl job's page costs in each format: the catalog price of the single-page
 * route that makes it (`/buy/markdown`, `/buy/fetch`), read from the registry, so the
 * catalog, OpenAPI, MCP and the 402 terms all show the one price.
 */
export function jobPagePrices(registry: readonly AnyRoute[]) {
  return JOB_FORMATS.map((format) => {
    const { route, price } = pageRouteOf(registry, format);
    return { format, route: route.name, amount: String(price), price: dollars(price) };
  });
}

/** The job API as `/catalog` lists it. */
export function jobsCatalog(registry: readonly AnyRoute[], base: string) {
  return {
    crawl: {
      method: 'POST',
      path: '/jobs/crawl',
      url: `${base}/jobs/crawl`,
      description:
        'A crawl of up to 10,000 pages as a durable job: status, pages with a signed receipt each (the same answer as the single-page route), a signed manifest over the Merkle root of the pages, Standard Webhooks events.',
      body: CRAWL_JOB_SCHEMA,
      maxPages: JOB_MAX_PAGES,
      pagePrices: jobPagePrices(registry),
      charge: {
        apiKey:
          'Reserves limit × page price at creation, charges each delivered page, gives back the rest when the job ends or is cancelled.',
        x402: {
          v2: 'upto: authorize limit × page price (Permit2); the job settles once, at the end, for the pages delivered.',
          v1: 'exact for limit × page price, settled at creation (x402 v1 has no upto).',
        },
      },
      status: { method: 'GET', path: '/jobs/{jobId}' },
      pages: { method: 'GET', path: '/jobs/{jobId}/pages?after=<cursor>' },
      cancel: { method: 'DELETE', path: '/jobs/{jobId}' },
      access:
        'The key that created the job, or `Authorization: Bearer <jobToken>` for a job paid with x402; anyone else gets 404.',
      webhookEvents: JOB_EVENTS.map((event) => `job.${event}`),
    },
  };
}

/** One sentence for agents (MCP `instructions`): the job API and its page prices. */
export function jobsInstructions(registry: readonly AnyRoute[], base: string): string {
  const prices = jobPagePrices(registry)
    .map((p) => `${p.format} ${p.price} a page`)
    .join(', ');
  return `For more than one page, POST ${base}/jobs/crawl starts a crawl job of up to ${JOB_MAX_PAGES} pages (${prices}; the key pays for delivered pages only), read with GET /jobs/{jobId} and /jobs/{jobId}/pages.`;
}

const JOB_VIEW = {
  type: 'object',
  properties: {
    ok: { const: true },
    jobId: { type: 'string' },
    status: { enum: ['queued', 'running', 'completed', 'failed', 'cancelled'] },
    total: { type: 'integer' },
    completed: { type: 'integer' },
    failed: { type: 'integer' },
    charged: { type: 'integer', description: 'USDC atomic units: delivered pages × page price' },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    manifest: { type: 'object', description: 'Once ended: the signed manifest' },
  },
  required: ['ok', 'jobId', 'status', 'total', 'completed', 'failed', 'charged'],
} as const;

const json = (description: string, schema: unknown) => ({
  description,
  content: { 'application/json': { schema } },
});

/** The job API's operations in OpenAPI 3.1. */
export function jobsOpenApi(registry: readonly AnyRoute[], payment: object) {
  const error = { $ref: '#/components/schemas/Error' };
  const idParam = { name: 'jobId', in: 'path', required: true, schema: { type: 'string' } };
  const notFound = json('No such job for this key or job token.', error);
  return {
    '/jobs/crawl': {
      post: {
        operationId: 'createCrawlJob',
        summary: 'Start a crawl job',
        tags: ['jobs'],
        security: [{}, { apiKey: [] }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: CRAWL_JOB_SCHEMA } },
        },
        responses: {
          '202': json('The job, queued; with `jobToken` when paid with x402.', {
            type: 'object',
          }),
          '400': json('Invalid body; nothing was charged.', error),
          '402': json('Payment terms: upto (v2) or exact for the limit (v1).', error),
        },
        'x-payment-info': {
          ...payment,
          pricingMode: 'upto',
          perPage: jobPagePrices(registry),
          maxPages: JOB_MAX_PAGES,
        },
      },
    },
    '/jobs/{jobId}': {
      get: {
        operationId: 'getJob',
        summary: 'A job’s status (and its manifest once ended)',
        tags: ['jobs'],
        parameters: [idParam],
        responses: { '200': json('The job.', JOB_VIEW), '404': notFound },
      },
      delete: {
        operationId: 'cancelJob',
        summary: 'Cancel a job: nothing more is charged',
        tags: ['jobs'],
        parameters: [idParam],
        responses: { '200': json('The job, cancelled.', JOB_VIEW), '404': notFound },
      },
    },
    '/jobs/{jobId}/pages': {
      get: {
        operationId: 'getJobPages',
        summary: 'A job’s pages in order, each with its receipt',
        tags: ['jobs'],
        parameters: [
          idParam,
          { name: 'after', in: 'query', schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 200 } },
        ],
        responses: {
          '200': json('Pages and the `next` cursor (null once all are read).', {
            type: 'object',
            properties: {
              pages: { type: 'array', items: { type: 'object' } },
              provenance: {
                type: 'array',
                description:
                  'The `response-provenance` claim of each page, in the same order as `pages` (null for a failed page): the claim its single-page call `GET /buy/<format>?url=<page>` carries.',
                items: { type: ['object', 'null'] },
              },
              next: { type: ['string', 'null'] },
            },
          }),
          '404': notFound,
        },
      },
    },
  };
}
