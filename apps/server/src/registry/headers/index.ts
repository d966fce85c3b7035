import { inspectHeaders } from '@storefront/headers';
import { documentRoute, type UrlParams } from '../document-route.js';
import {
  BOOLEAN,
  checked,
  GRADE_SUMMARY,
  INTEGER,
  NULLABLE_STRING,
  paramsSchema,
  STRING,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import { example } from './example.js';

/** `/buy/headers`: security-headers audit of the page's response. */
export const headersRoute = documentRoute<UrlParams, unknown>({
  name: 'headers',
  example,
  title: 'Security-headers audit',
  description:
    'Grade the response’s security headers (HSTS, CSP, framing, content-type options, referrer and permissions policies, cookies) A–F under a published rubric, with an exact fix per finding.',
  params: paramsSchema({ url: URL_PARAM }, ['url']),
  price: {
    tier: 'headers',
    amount: 5000,
    includes: 'graded security-headers audit plus signed receipt',
  },
  chargeRule: 'free-on-failure',
  closedResponse: false,
  anyStatus: true,
  headOnly: true,
  data: {
    type: 'object',
    required: [
      'grade',
      'score',
      'maxScore',
      'percentage',
      'passed',
      'failed',
      'checks',
      'findings',
      'serverBanner',
      'rubric',
    ],
    properties: {
      ...GRADE_SUMMARY,
      checks: {
        type: 'array',
        items: {
          type: 'object',
          required: ['header', 'label', 'present', 'pass', 'weight', 'value', 'note'],
          properties: {
            header: STRING,
            label: STRING,
            present: BOOLEAN,
            pass: BOOLEAN,
            weight: INTEGER,
            value: NULLABLE_STRING,
            note: STRING,
          },
        },
      },
      findings: {
        type: 'array',
        items: {
          type: 'object',
          required: ['header', 'severity', 'remediate'],
          properties: {
            header: STRING,
            severity: { enum: ['high', 'medium', 'low'] },
            remediate: STRING,
          },
        },
      },
      serverBanner: NULLABLE_STRING,
      rubric: STRING,
      // Present only when a value was cut at its cap (README of @storefront/headers).
      truncatedFields: { const: true },
    },
  },
  check: (query) =>
    checked([urlProblem('url', query.url ?? '')], () => ({ url: query.url as string })),
  product: (doc) => inspectHeaders(doc),
});
