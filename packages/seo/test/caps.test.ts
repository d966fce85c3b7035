import { CUT_MARK } from '@storefront/core';
import { makeDocument, scalingRatio, schemaCheck } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  auditSeo,
  resultSchema,
  SEO_MAX_NOTE_CHARS,
  SEO_MAX_VALUE_CHARS,
  SEO_RUBRIC_CHECKS,
} from '../src/index.js';

const huge = 'T😀'.repeat(20_000);

function hostile(n: number): string {
  const parts = [
    `<title>${huge}</title>`,
    `<meta name="description" content="${huge}">`,
    `<link rel="canonical" href="https://example.com/${huge}">`,
  ];
  for (let i = 0; i < n; i++) {
    parts.push(
      `<h1>${'H'.repeat(300)}${i}</h1><h6>x</h6>`,
      `<img src="/i/${'p'.repeat(300)}${i}.png">`,
      `<script src="http://cdn.example/${'s'.repeat(300)}${i}.js"></script>`,
      `<link rel="alternate" hreflang="bad${i}" href="/l/${i}">`,
      `<a href="/a/${i}">a</a>`,
    );
  }
  return parts.join('');
}

describe('caps on hostile pages', () => {
  const result = auditSeo(
    makeDocument(hostile(2_000), { headers: { 'x-robots-tag': `noindex, ${huge}` } }),
  );
  if (!result.ok) throw new Error(result.error);
  const { data } = result;

  it('cuts values and notes with the mark, and says so', () => {
    for (const check of data.checks) {
      expect(check.value?.length ?? 0).toBeLessThanOrEqual(SEO_MAX_VALUE_CHARS);
      expect(check.value?.isWellFormed() ?? true).toBe(true);
      expect(check.note.length).toBeLessThanOrEqual(SEO_MAX_NOTE_CHARS);
    }
    const title = data.checks.find((check) => check.id === 'title');
    expect(title?.value?.endsWith(CUT_MARK)).toBe(true);
    expect(data.truncatedFields).toBe(true);
    expect(data.counts.h1).toBe(2_000);
  });

  it('still fits the published result schema, cut fields and all', () => {
    expect(schemaCheck(resultSchema)(data)).toStrictEqual([]);
  });

  it('keeps the whole result under the documented bound', () => {
    const bytes = Buffer.byteLength(result.text);
    const bound = SEO_RUBRIC_CHECKS.length * (SEO_MAX_VALUE_CHARS + 2 * SEO_MAX_NOTE_CHARS) * 4;
    expect(bytes).toBeLessThan(bound);
  });

  it('adds no flag to ordinary pages', () => {
    const plain = auditSeo(makeDocument('<title>Fine</title>'));
    if (!plain.ok) throw new Error(plain.error);
    expect(plain.data).not.toHaveProperty('truncatedFields');
  });

  it('takes time linear in the page size', () => {
    const pages = { 1: hostile(1_000), 2: hostile(2_000) };
    // A fresh document each run: the parse is cached on the document object.
    const ratio = scalingRatio((scale) => auditSeo(makeDocument(pages[scale])));
    expect(ratio).toBeLessThan(3.2);
  });
});
