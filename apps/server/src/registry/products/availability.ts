import { classifyAvailability } from '@storefront/availability';
import type { UrlParams } from '../document-route.js';
import {
  BOOLEAN,
  checked,
  failedAnswer,
  ISO_TIME,
  paramsSchema,
  responseSchema,
  STRING,
  signedAnswer,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import type { RouteEntry } from '../types.js';

const NULLABLE_INTEGER = { type: ['integer', 'null'] } as const;

/** `/buy/availability`: an uptime and status probe. */
export const availabilityRoute: RouteEntry<UrlParams> = {
  name: 'availability',
  path: '/buy/availability',
  title: 'Availability probe',
  description:
    'Probe a URL once: whether the host answered, the HTTP status and its class, and a reason for a failure (DNS, timeout, refused, TLS, redirect loop, …). A down host is still a delivered result.',
  params: paramsSchema({ url: URL_PARAM }, ['url']),
  prices: [{ tier: 'availability', amount: 5000, includes: 'signed availability verdict' }],
  chargeRule: 'always-delivered',
  closedResponse: false,
  response: responseSchema(
    {
      status: NULLABLE_INTEGER,
      text: STRING,
      fetchedAt: ISO_TIME,
      data: {
        type: 'object',
        required: [
          'up',
          'reachable',
          'httpStatus',
          'responseClass',
          'reason',
          'rubric',
          'responseMs',
        ],
        additionalProperties: false,
        properties: {
          up: BOOLEAN,
          reachable: BOOLEAN,
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
          reason: STRING,
          rubric: STRING,
          responseMs: NULLABLE_INTEGER,
        },
      },
    },
    false,
  ),
  check: (query) =>
    checked([urlProblem('url', query.url ?? '')], () => ({ url: query.url as string })),
  priceFor: () => availabilityRoute.prices[0] as (typeof availabilityRoute.prices)[0],
  async run(params, context) {
    const fetchedAt = context.clock().toISOString();
    const outcome = await context.fetcher.fetch(params.url);
    const result = classifyAvailability(outcome);
    const url = outcome.ok ? outcome.doc.url : (outcome.url ?? params.url);
    const status = outcome.ok ? outcome.doc.status : (outcome.status ?? null);
    if (!result.ok) {
      return failedAnswer(url, status, fetchedAt, result.error, result.message);
    }
    const body = { ok: true, url, status, text: result.text, fetchedAt, data: result.data };
    return signedAnswer(body, { text: result.text, url, status, fetchedAt });
  },
};
