import { RECEIPT_RULE_KINDS } from '@storefront/core';
import { readGoldenResults } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import { receiptRule, resultSchema } from '../src/index.js';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'PDFJS_VERSION',
      'PDF_MAX_FIELD_CHARS',
      'PDF_MAX_OUTLINE_DEPTH',
      'PDF_MAX_OUTLINE_ITEMS',
      'PDF_MAX_PAGES',
      'PDF_MAX_PAGES_PARAM_CHARS',
      'PDF_MAX_TEXT_CHARS',
      'extractPdf',
      'loadPdfjs',
      'parsePages',
      'receiptRule',
      'resultSchema',
    ]);
  });

  it('signs the canonical JSON of data, and its schema is closed', () => {
    expect(receiptRule).toStrictEqual({ kind: 'canonical-json' });
    expect(RECEIPT_RULE_KINDS).toContain(receiptRule.kind);
    expect(resultSchema.additionalProperties).toBe(false);
  });
});

describe('failures', () => {
  it('has a golden case for every failure the README lists, and no other', () => {
    // The README's failure table, one row per (error, reason).
    const documented = [
      'unsupported_content_type not_pdf',
      'unsupported_content_type encrypted',
      'unsupported_content_type no_text',
      'parse_error malformed',
      'body_too_large truncated',
      'not_found no_such_page',
    ];
    const seen = new Set(
      readGoldenResults(new URL('./fixtures', import.meta.url).pathname)
        .filter(({ result }) => result.ok === false)
        .map(({ result }) => `${result.error} ${result.reason}`),
    );
    expect([...seen].sort()).toStrictEqual([...documented].sort());
  });
});
