import { auditRobots, parseAuditOrigin, parseAuditPath } from '@storefront/robots';
import {
  BOOLEAN,
  checked,
  failedAnswer,
  INTEGER,
  ISO_TIME,
  NULLABLE_STRING,
  paramsSchema,
  responseSchema,
  STRING,
  STRINGS,
  signedAnswer,
} from '../shared.js';
import type { RouteEntry } from '../types.js';

interface RobotsParams {
  readonly origin: string;
  readonly host: string;
  readonly path: string;
}

/** `/buy/robots`: which AI crawlers may read a path, from robots.txt, llms.txt and ai.txt. */
export const robotsRoute: RouteEntry<RobotsParams> = {
  name: 'robots',
  path: '/buy/robots',
  title: 'AI-crawler permission audit',
  description:
    'For a site and a path, the verdict (allowed or blocked) of 28 AI crawlers under its robots.txt (RFC 9309), with the deciding rule, plus the state of its llms.txt and ai.txt.',
  params: paramsSchema(
    {
      domain: {
        type: 'string',
        minLength: 1,
        maxLength: 2048,
        description: 'A domain or a URL; only its origin is audited.',
      },
      path: {
        type: 'string',
        maxLength: 1024,
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
      data: {
        type: 'object',
        required: ['version', 'host', 'origin', 'evaluatedPath', 'policies', 'verdicts', 'summary'],
        properties: {
          version: STRING,
          host: STRING,
          origin: STRING,
          evaluatedPath: STRING,
          policies: {
            type: 'object',
            required: ['robots.txt', 'llms.txt', 'ai.txt'],
            properties: {
              'robots.txt': { type: 'object' },
              'llms.txt': { type: 'object' },
              'ai.txt': { type: 'object' },
            },
          },
          verdicts: {
            type: 'array',
            items: {
              type: 'object',
              required: ['agent', 'vendor', 'purpose', 'verdict', 'reason', 'decidedBy', 'rule'],
              properties: {
                agent: STRING,
                vendor: STRING,
                purpose: STRING,
                verdict: { enum: ['allowed', 'blocked'] },
                reason: STRING,
                decidedBy: STRING,
                rule: NULLABLE_STRING,
              },
            },
          },
          summary: {
            type: 'object',
            required: [
              'allowed',
              'blocked',
              'blockedAgents',
              'sitemaps',
              'hasLlmsTxt',
              'hasAiTxt',
              'hasRobotsTxt',
            ],
            properties: {
              allowed: INTEGER,
              blocked: INTEGER,
              blockedAgents: STRINGS,
              sitemaps: STRINGS,
              hasLlmsTxt: BOOLEAN,
              hasAiTxt: BOOLEAN,
              hasRobotsTxt: BOOLEAN,
            },
          },
          // Present only when a value was cut at its cap (README of @storefront/robots).
          truncatedFields: { const: true },
        },
      },
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
  async run(params, context) {
    const fetchedAt = context.clock().toISOString();
    // The three files are read concurrently; each outcome is a safe-fetch result.
    const [robotsTxt, llmsTxt, aiTxt] = await Promise.all(
      auditFileUrls(params).map((url) => context.fetcher.fetch(url)),
    );
    const robots = robotsTxt as NonNullable<typeof robotsTxt>;
    const status = robots.ok ? robots.doc.status : (robots.status ?? null);
    const result = auditRobots(
      { origin: params.origin, robotsTxt: robots, llmsTxt: llmsTxt ?? null, aiTxt: aiTxt ?? null },
      { path: params.path },
    );
    if (!result.ok) {
      return failedAnswer(params.origin, status, fetchedAt, result.error, result.message);
    }
    const body = {
      ok: true,
      url: params.origin,
      ...(status === null ? {} : { status }),
      text: result.text,
      fetchedAt,
      data: result.data,
    };
    return signedAnswer(body, { text: result.text, url: params.origin, status, fetchedAt });
  },
};

/** The three files an audit reads, in the order `run` unpacks them. */
function auditFileUrls(params: RobotsParams): string[] {
  return ['robots.txt', 'llms.txt', 'ai.txt'].map((file) => `${params.origin}/${file}`);
}
