import { GRADE_CUTOFFS, RECEIPT_RULE_KINDS } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it, vi } from 'vitest';
import * as api from '../src/index.js';
import {
  auditSeo,
  receiptRule,
  resultSchema,
  SEO_GRADE_CUTOFFS,
  SEO_RUBRIC,
  SEO_RUBRIC_CHECKS,
} from '../src/index.js';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'SEO_GRADE_CUTOFFS',
      'SEO_MAX_LISTED',
      'SEO_MAX_NOTE_CHARS',
      'SEO_MAX_VALUE_CHARS',
      'SEO_RUBRIC',
      'SEO_RUBRIC_CHECKS',
      'auditSeo',
      'receiptRule',
      'resultSchema',
    ]);
  });

  it('has a versioned rubric whose weights sum to 100, graded by the shared cut-offs', () => {
    expect(SEO_RUBRIC).toBe('seo-rubric/1');
    expect(SEO_RUBRIC_CHECKS.reduce((sum, row) => sum + row.weight, 0)).toBe(100);
    expect(new Set(SEO_RUBRIC_CHECKS.map((row) => row.id)).size).toBe(SEO_RUBRIC_CHECKS.length);
    expect(SEO_GRADE_CUTOFFS).toBe(GRADE_CUTOFFS);
  });

  it('signs the canonical JSON of data, and its schema requires every rubric field', () => {
    expect(receiptRule).toStrictEqual({ kind: 'canonical-json' });
    expect(RECEIPT_RULE_KINDS).toContain(receiptRule.kind);
    expect(resultSchema.required).toEqual(
      expect.arrayContaining(['grade', 'score', 'checks', 'findings', 'counts', 'rubric']),
    );
  });
});

describe('error codes', () => {
  it.each(['file:///etc/passwd', 'not a url'])(
    'reports invalid_url when the document URL is %s',
    (url) => {
      expect(auditSeo(makeDocument('<title>x</title>', { url }))).toMatchObject({
        ok: false,
        error: 'invalid_url',
      });
    },
  );

  it.each([
    ['application/json', '{"a": 1}'],
    ['image/png', '\u0089PNG\r\n\u001a\n'],
    ['text/plain', 'just text'],
  ])('refuses %s bodies with unsupported_content_type', (contentType, body) => {
    expect(auditSeo(makeDocument(body, { contentType }))).toMatchObject({
      ok: false,
      error: 'unsupported_content_type',
    });
  });

  it('passes a parse failure of the page through as parse_error', async () => {
    vi.resetModules();
    vi.doMock('@storefront/html', async (importOriginal) => ({
      ...(await importOriginal<typeof import('@storefront/html')>()),
      loadHtml: () => ({
        ok: false,
        error: 'parse_error',
        message: 'The page could not be parsed: limit.',
      }),
    }));
    try {
      const fresh = await import('../src/index.js');
      expect(fresh.auditSeo(makeDocument('<p>x</p>'))).toStrictEqual({
        ok: false,
        error: 'parse_error',
        message: 'The page could not be parsed: limit.',
      });
    } finally {
      vi.doUnmock('@storefront/html');
      vi.resetModules();
    }
  });
});
