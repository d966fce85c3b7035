import {
  CRAWL_MAX_PAGES,
  type CrawlState,
  crawlReceiptRule,
  crawlResultSchema,
  finishCrawl,
  startCrawl,
  stepCrawl,
} from '@storefront/crawl';
import { DEFAULT_USER_AGENT } from '@storefront/safe-fetch';
import {
  checked,
  enumParam,
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

interface CrawlParams {
  readonly url: string;
  readonly limit: number;
  readonly format: 'text' | 'markdown';
}

const FORMATS = ['text', 'markdown'] as const;

/** `/buy/crawl`: a bounded breadth-first same-site crawl under robots.txt. */
export const crawlRoute: RouteDefinition<
  CrawlParams,
  WalkSource,
  ReturnType<typeof finishCrawl>
> = {
  name: 'crawl',
  example,
  receiptRule: crawlReceiptRule,
  path: '/buy/crawl',
  title: 'Bounded site crawl',
  description: `A bounded same-site crawl: breadth-first from \`url\`, at most ${CRAWL_MAX_PAGES} pages (\`limit\`), robots.txt obeyed for our user agent, each page's text or markdown, title, status and links; the receipt signs one \`hash<TAB>url\` row per page, so any single page can be re-verified against the signed list.`,
  params: paramsSchema(
    {
      url: URL_PARAM,
      limit: limitParam(CRAWL_MAX_PAGES, 'pages read'),
      format: enumParam(FORMATS, 'Each page as `text` or `markdown`.', 'text'),
    },
    ['url'],
  ),
  prices: [
    { tier: 'crawl', amount: 30_000, includes: 'up to 10 pages read plus signed page list' },
  ],
  chargeRule: 'free-on-failure',
  closedResponse: true,
  response: responseSchema(
    {
      status: { type: ['integer', 'null'] },
      text: STRING,
      fetchedAt: ISO_TIME,
      data: crawlResultSchema,
    },
    true,
  ),
  check(query) {
    const limit = readLimitParam(query.limit, CRAWL_MAX_PAGES);
    const format = query.format ?? 'text';
    return checked(
      [
        urlProblem('url', query.url ?? ''),
        typeof limit === 'number' ? null : ({ param: 'limit', message: limit } as ParamProblem),
        (FORMATS as readonly string[]).includes(format)
          ? null
          : { param: 'format', message: 'Expected `format` to be text or markdown' },
      ],
      () => ({
        url: query.url as string,
        limit: limit as number,
        format: format as CrawlParams['format'],
      }),
    );
  },
  priceFor: () => crawlRoute.prices[0] as (typeof crawlRoute.prices)[0],
  reads: {
    kind: 'walk',
    url: (params) => params.url,
    // Two robots.txt (the start's origin, and the one it may redirect to) and the pages.
    maxFetches: (params) => params.limit + 2,
    start: (params) =>
      startCrawl(params.url, {
        limit: params.limit,
        format: params.format,
        userAgent: DEFAULT_USER_AGENT,
      }),
    step: ({ state, results }) => stepCrawl(state as CrawlState, results),
  },
  compute: ({ source }) => finishCrawl(source.state as CrawlState, source.stop),
  shape: (result, { params, source }): Shaped => walkShape(result, params.url, source),
};
