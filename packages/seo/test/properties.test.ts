import { canonicalize } from '@storefront/core';
import { htmlArbitrary, makeDocument } from '@storefront/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { auditSeo, SEO_GRADE_CUTOFFS, SEO_RUBRIC_CHECKS } from '../src/index.js';

/** Markup that exercises every rule, mixed into random HTML. */
const SEO_PARTS = fc.constantFrom(
  '<title>A title of a sensible length</title>',
  '<title></title>',
  '<meta name="description" content="A description long enough to pass the rubric of the audit, easily.">',
  '<meta name="robots" content="noindex">',
  '<meta name="googlebot" content="nofollow">',
  '<link rel="canonical" href="/c">',
  '<link rel="canonical" href="https://example.com/page">',
  '<link rel="alternate" hreflang="en" href="https://example.com/page">',
  '<link rel="alternate" hreflang="xx-yy-zz" href="/x">',
  '<link rel="stylesheet" href="http://cdn.example/a.css">',
  '<img src="/a.png">',
  '<img src="http://cdn.example/b.png" alt="b">',
  '<h1>Top</h1>',
  '<h4>Deep</h4>',
  '<script type="application/ld+json">{"@type":"Thing"}</script>',
  '<script type="application/ld+json">{oops</script>',
  '<div itemscope></div>',
  '<meta property="og:title" content="T">',
  '<meta name="twitter:card" content="summary">',
  '<a href="/internal">in</a>',
  '<a href="https://other.example/">out</a>',
);

const PAGE = fc
  .array(fc.oneof(htmlArbitrary, SEO_PARTS), { maxLength: 12 })
  .map((parts) => parts.join(''));
const URL_ARB = fc.constantFrom(
  'https://example.com/page',
  'http://example.com/',
  'HTTPS://EXAMPLE.COM',
  'ftp://example.com/',
  'not a url',
);
const HEADERS = fc.option(
  fc.constantFrom('noindex', 'googlebot: noindex', 'max-snippet: 5, nofollow', '', '\ud800'),
  { nil: undefined },
);

function doc(html: string, url: string, robots: string | undefined) {
  return makeDocument(html, {
    url,
    headers: robots === undefined ? {} : { 'x-robots-tag': robots },
  });
}

describe('auditSeo properties', () => {
  it('is total and keeps text the canonical JSON of data', () => {
    fc.assert(
      fc.property(PAGE, URL_ARB, HEADERS, (html, url, robots) => {
        const result = auditSeo(doc(html, url, robots));
        if (result.ok) {
          expect(result.text).toBe(canonicalize(result.data));
          expect(JSON.parse(result.text)).toStrictEqual(result.data);
          expect(result.text.isWellFormed()).toBe(true);
        } else {
          // A body with NUL bytes is sniffed as binary, not HTML.
          expect(['invalid_url', 'unsupported_content_type']).toContain(result.error);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('gives the same bytes for the same input, on a fresh document each time', () => {
    fc.assert(
      fc.property(PAGE, HEADERS, (html, robots) => {
        const a = auditSeo(doc(html, 'https://example.com/page', robots));
        const b = auditSeo(doc(html, 'https://example.com/page', robots));
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      }),
      { numRuns: 200 },
    );
  });

  it('keeps score, percentage, grade and findings consistent', () => {
    fc.assert(
      fc.property(PAGE, HEADERS, (html, robots) => {
        const result = auditSeo(doc(html, 'https://example.com/page', robots));
        if (!result.ok) return;
        const d = result.data;
        expect(d.checks.map((c) => c.id)).toStrictEqual(SEO_RUBRIC_CHECKS.map((r) => r.id));
        expect(d.maxScore).toBe(100);
        expect(d.score).toBe(d.checks.filter((c) => c.pass).reduce((s, c) => s + c.weight, 0));
        expect(d.percentage).toBe(Math.floor((d.score * 100) / d.maxScore));
        expect(d.passed + d.failed).toBe(d.checks.length);
        expect(d.findings.map((f) => f.id)).toStrictEqual(
          d.checks.filter((c) => !c.pass).map((c) => c.id),
        );
        for (const finding of d.findings) expect(finding.remediate).not.toBe('');
        const expected = SEO_GRADE_CUTOFFS.find(([, min]) => d.percentage >= min)?.[0] ?? 'F';
        expect(d.grade).toBe(expected);
        expect(d.counts.imagesWithAlt).toBeLessThanOrEqual(d.counts.images);
        expect(d.counts.h1).toBeLessThanOrEqual(d.counts.headings);
      }),
      { numRuns: 300 },
    );
  });
});
