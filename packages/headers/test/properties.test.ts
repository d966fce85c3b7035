import { canonicalize } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HEADERS_GRADE_CUTOFFS, HEADERS_RUBRIC_CHECKS, inspectHeaders } from '../src/index.js';

const NAMES = [
  'strict-transport-security',
  'content-security-policy',
  'content-security-policy-report-only',
  'x-content-type-options',
  'x-frame-options',
  'referrer-policy',
  'permissions-policy',
  'feature-policy',
  'cross-origin-opener-policy',
  'cross-origin-resource-policy',
  'set-cookie',
  'server',
  'x-powered-by',
];

const VALUE = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.constantFrom(
    'max-age=31536000; includeSubDomains',
    'max-age=0',
    'max-age="abc"',
    "default-src 'self'",
    "script-src 'unsafe-inline' 'nonce-x'",
    "frame-ancestors 'none'",
    'nosniff',
    'DENY, SAMEORIGIN',
    'strict-origin-when-cross-origin, unsafe-url',
    'camera=()',
    'same-origin',
    'a=1; Secure; HttpOnly; SameSite=Lax\nb=2',
    'nginx/1.2.3',
    ' , ; "unterminated',
    '\ud800',
  ),
);

const NAME = fc.oneof(
  fc.constantFrom(...NAMES),
  fc.constantFrom(...NAMES).map((n) => n.toUpperCase()),
  fc.string({ maxLength: 10 }),
);

const HEADERS = fc.dictionary(NAME, VALUE, { maxKeys: 12 });
const URL_ARB = fc.constantFrom(
  'https://a.example/',
  'http://a.example/x',
  'HTTPS://A.EXAMPLE',
  'ftp://a.example/',
  '',
  'not a url',
);

describe('inspectHeaders properties', () => {
  it('is total and keeps text the canonical JSON of data', () => {
    fc.assert(
      fc.property(HEADERS, URL_ARB, (headers, url) => {
        const result = inspectHeaders(makeDocument('', { url, headers, contentType: null }));
        if (result.ok) {
          expect(result.text).toBe(canonicalize(result.data));
          expect(JSON.parse(result.text)).toStrictEqual(result.data);
        } else {
          expect(result.error).toBe('invalid_url');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('is deterministic, whatever the order the header keys were inserted in', () => {
    fc.assert(
      fc.property(HEADERS, (headers) => {
        const reversed = Object.fromEntries(Object.entries(headers).reverse());
        const a = inspectHeaders(makeDocument('', { headers, contentType: null }));
        const b = inspectHeaders(makeDocument('', { headers: reversed, contentType: null }));
        const c = inspectHeaders(makeDocument('', { headers, contentType: null }));
        expect(a.ok && b.ok && c.ok).toBe(true);
        if (a.ok && b.ok && c.ok) {
          expect(b.text).toBe(a.text);
          expect(c.text).toBe(a.text);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('keeps score, percentage and grade consistent', () => {
    fc.assert(
      fc.property(HEADERS, URL_ARB, (headers, url) => {
        const result = inspectHeaders(makeDocument('', { url, headers, contentType: null }));
        if (!result.ok) return;
        const d = result.data;
        expect(d.checks).toHaveLength(HEADERS_RUBRIC_CHECKS.length);
        expect(d.maxScore).toBe(100);
        expect(d.score).toBeGreaterThanOrEqual(0);
        expect(d.score).toBeLessThanOrEqual(d.maxScore);
        expect(d.score).toBe(d.checks.filter((c) => c.pass).reduce((s, c) => s + c.weight, 0));
        expect(d.percentage).toBe(Math.floor((d.score * 100) / d.maxScore));
        expect(d.passed + d.failed).toBe(d.checks.length);
        expect(d.findings).toHaveLength(d.failed);
        const expected = HEADERS_GRADE_CUTOFFS.find(([, min]) => d.percentage >= min)?.[0] ?? 'F';
        expect(d.grade).toBe(expected);
        for (const value of [d.score, d.maxScore, d.percentage, d.passed, d.failed]) {
          expect(Number.isInteger(value)).toBe(true);
        }
      }),
      { numRuns: 500 },
    );
  });
});
