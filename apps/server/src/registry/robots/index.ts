import {
  AUDIT_DOMAIN_MAX_LENGTH,
  AUDIT_PATH_MAX_LENGTH,
  auditRobots,
  parseAuditOrigin,
  parseAuditPath,
  receiptRule,
  resultSchema,
} from '@storefront/robots';
import { checked, INTEGER, ISO_TIME, paramsSchema, responseSchema, STRING } from '../shared.js';
import type { FetchesSource, RouteDefinition } from '../types.js';
import { example } from './example.js';

interface RobotsParams {
  readonly origin: string;
  readonly host: string;
  readonly path: string;
}

/** `/buy/robots`: which AI crawlers may read a path, from robots.txt, llms.txt and ai.txt. */
/** The audit, and the status robots.txt answered with. */
interface RobotsOutput {
  readonly result: ReturnType<typeof auditRobots>;
  readonly status: number | null;
}

export const robotsRoute: RouteDefinition<RobotsParams, FetchesSource, RobotsOutput> = {
  name: 'robots',
  example,
  receiptRule,
  path: '/buy/robots',
  title: 'AI-crawler permission audit',
  description:
    'For a site and a path, the verdict (allowed or blocked) of 28 AI crawlers under its robots.txt (RFC 9309), with the deciding rule, plus the state of its llms.txt and ai.txt.',
  params: paramsSchema(
    {
      domain: {
        type: 'string',
        minLength: 1,
        maxLength: AUDIT_DOMAIN_MAX_LENGTH,
        description: 'A domain or a URL; only its origin is audited.',
      },
      path: {
        type: 'string',
        maxLength: AUDIT_PATH_MAX_LENGTH,
        description: 'The path to evaluate; default `/`.',
        default: '/',
      },
    },
    ['domain'],
  ),
  prices: [
    { tier: 'robots', amount: 5000, includes: 'AI-crawler permission audit plus signed receipt' },
  ],
  chargeRule: 'free-on-failure',
  closedResponse: false,
  response: responseSchema(
    {
      status: INTEGER,
      text: STRING,
      fetchedAt: ISO_TIME,
      data: resultSchema,
    },
    false,
  ),
  check(query) {
    const target = parseAuditOrigin(query.domain ?? '');
    const path = parseAuditPath(query.path);
    return checked(
      [
        target.ok ? null : { param: 'domain', message: target.message },
        path.ok ? null : { param: 'path', message: path.message },
      ],
      () => ({
        origin: target.ok ? target.origin : '',
        host: target.ok ? target.host : '',
        path: path.ok ? path.path : '/',
      }),
    );
  },
  priceFor: () => robotsRoute.prices[0] as (typeof robotsRoute.prices)[0],
  // The three files are read concurrently; each outcome is a safe-fetch result.
  reads: { kind: 'fetches', urls: auditFileUrls },
  compute({ params, source: { results } }) {
    const [robots, llmsTxt, aiTxt] = results;
    if (robots === undefined) throw new Error('robots.txt was not read');
    const status = robots.ok ? robots.doc.status : (robots.status ?? null);
    const result = auditRobots(
      { origin: params.origin, robotsTxt: robots, llmsTxt: llmsTxt ?? null, aiTxt: aiTxt ?? null },
      { path: params.path },
    );
    return { result, status };
  },
  shape({ result, status }, { params, source: { at } }) {
    if (!result.ok) {
      return {
        ok: false,
        error: result.error,
        message: result.message,
        at: { url: params.origin, status },
        fields: { fetchedAt: at },
      };
    }
    return {
      ok: true,
      text: result.text,
      body: {
        ok: true,
        url: params.origin,
        ...(status === null ? {} : { status }),
        text: result.text,
        fetchedAt: at,
        data: result.data,
      },
      envelope: { url: params.origin, status, fetchedAt: at },
    };
  },
};

function auditFileUrls(params: RobotsParams): string[] {
  return ['robots.txt', 'llms.txt', 'ai.txt'].map((file) => `${params.origin}/${file}`);
}
