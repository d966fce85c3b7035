import { classifyAvailability, receiptRule, resultSchema } from '@storefront/availability';
import type { UrlParams } from '../document-route.js';
import {
  checked,
  ISO_TIME,
  paramsSchema,
  responseSchema,
  STRING,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import type { FetchesSource, RouteDefinition } from '../types.js';
import { example } from './example.js';

const NULLABLE_INTEGER = { type: ['integer', 'null'] } as const;

/** `/buy/availability`: an uptime and status probe. */
/** The verdict, and where the probe ended. */
interface AvailabilityOutput {
  readonly result: ReturnType<typeof classifyAvailability>;
  readonly url: string;
  readonly status: number | null;
}

export const availabilityRoute: RouteDefinition<UrlParams, FetchesSource, AvailabilityOutput> = {
  name: 'availability',
  example,
  receiptRule,
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
      data: resultSchema,
    },
    false,
  ),
  check: (query) =>
    checked([urlProblem('url', query.url ?? '')], () => ({ url: query.url as string })),
  priceFor: () => availabilityRoute.prices[0] as (typeof availabilityRoute.prices)[0],
  reads: { kind: 'fetches', urls: (params) => [params.url] },
  compute({ params, source: { results } }) {
    const [outcome] = results;
    if (outcome === undefined) throw new Error('the probe was not made');
    return {
      result: classifyAvailability(outcome),
      url: outcome.ok ? outcome.doc.url : (outcome.url ?? params.url),
      status: outcome.ok ? outcome.doc.status : (outcome.status ?? null),
    };
  },
  shape({ result, url, status }, { source: { at } }) {
    if (!result.ok) {
      return {
        ok: false,
        error: result.error,
        message: result.message,
        at: { url, status },
        fields: { fetchedAt: at },
      };
    }
    return {
      ok: true,
      text: result.text,
      body: { ok: true, url, status, text: result.text, fetchedAt: at, data: result.data },
      envelope: { url, status, fetchedAt: at },
    };
  },
};
