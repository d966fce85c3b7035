import {
  finishMap,
  MAP_MAX_FETCHES,
  MAP_MAX_URLS,
  type MapState,
  mapReceiptRule,
  mapResultSchema,
  startMap,
  stepMap,
} from '@storefront/crawl';
import {
  checked,
  ISO_TIME,
  paramsSchema,
  responseSchema,
  STRING,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import type { ParamProblem, RouteDefinition, Shaped, WalkSource } from '../types.js';
import { limitParam, readLimitParam, walkShape } from '../walk-route.js';
import { example } from './example.js';

interface MapParams {
  readonly url: string;
  readonly limit: number;
}

/** `/buy/map`: a site's URLs from robots.txt, sitemaps, feeds and its start page, without crawling. */
export const mapRoute: RouteDefinition<MapParams, WalkSource, ReturnType<typeof finishMap>> = {
  name: 'map',
  example,
  receiptRule: mapReceiptRule,
  path: '/buy/map',
  title: 'Site map',
  description: `The site's URLs without crawling it: robots.txt \`Sitemap:\` lines, sitemap indexes and urlsets (gzip too), RSS/Atom sitemaps and the start page's links; same-site only, normalised, de-duplicated, sorted, \`lastmod\` kept; at most ${MAP_MAX_URLS} URLs and ${MAP_MAX_FETCHES} fetches per call, with the sources read and what was cut.`,
  params: paramsSchema(
    {
      url: URL_PARAM,
      limit: limitParam(MAP_MAX_URLS, 'URLs listed'),
    },
    ['url'],
  ),
  prices: [{ tier: 'map', amount: 10_000, includes: 'site URL map plus signed receipt' }],
  chargeRule: 'free-on-failure',
  closedResponse: true,
  response: responseSchema(
    {
      status: { type: ['integer', 'null'] },
      text: STRING,
      fetchedAt: ISO_TIME,
      data: mapResultSchema,
    },
    true,
  ),
  check(query) {
    const limit = readLimitParam(query.limit, MAP_MAX_URLS);
    return checked(
      [
        urlProblem('url', query.url ?? ''),
        typeof limit === 'number' ? null : ({ param: 'limit', message: limit } as ParamProblem),
      ],
      () => ({ url: query.url as string, limit: limit as number }),
    );
  },
  priceFor: () => mapRoute.prices[0] as (typeof mapRoute.prices)[0],
  reads: {
    kind: 'walk',
    url: (params) => params.url,
    maxFetches: () => MAP_MAX_FETCHES,
    start: (params) => startMap(params.url, { limit: params.limit }),
    step: ({ state, results }) => stepMap(state as MapState, results),
  },
  compute: ({ source }) => finishMap(source.state as MapState, source.stop),
  shape: (result, { params, source }): Shaped => walkShape(result, params.url, source),
};
