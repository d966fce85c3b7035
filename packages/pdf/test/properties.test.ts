import { canonicalize } from '@storefront/core';
import { buildPdf, makeDocument, type PdfLine, type PdfPage } from '@storefront/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { extractPdf } from '../src/index.js';

/** Printable ASCII and a few Latin-1 letters: what the builder's WinAnsi fonts can show. */
const TEXT = fc.string({
  unit: fc.constantFrom(...'abc XYZ 019 .,;:()[]\\*_#-+<>|`é ü ß £'.split('')),
  maxLength: 40,
});

const LINE: fc.Arbitrary<PdfLine> = fc.record({
  text: TEXT,
  y: fc.integer({ min: 40, max: 760 }),
  x: fc.integer({ min: 20, max: 500 }),
  size: fc.constantFrom(8, 10, 12, 14, 18, 24),
  bold: fc.boolean(),
});

const PAGE: fc.Arbitrary<PdfPage> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ lines: fc.array(LINE, { maxLength: 8 }) }) },
  { weight: 1, arbitrary: fc.constant({ image: true }) },
);

const SPEC = fc.record({
  pages: fc.array(PAGE, { minLength: 1, maxLength: 4 }),
  info: fc.oneof(
    fc.record({ Title: TEXT, Author: TEXT, CreationDate: fc.constantFrom('D:20240101', 'junk') }),
    fc.constant({}),
  ),
});

const FORMAT = fc.constantFrom('text', 'markdown') as fc.Arbitrary<'text' | 'markdown'>;

describe('extractPdf properties', () => {
  it('gives the same bytes for the same PDF, whatever was read before, and keeps text the canonical JSON of data', async () => {
    await fc.assert(
      fc.asyncProperty(SPEC, SPEC, FORMAT, async (spec, other, format) => {
        const bytes = buildPdf(spec);
        const first = await extractPdf(makeDocument(bytes, { contentType: 'application/pdf' }), {
          format,
        });
        await extractPdf(makeDocument(buildPdf(other)), { format });
        const again = await extractPdf(makeDocument(bytes.slice()), { format });
        expect(JSON.stringify(again)).toBe(JSON.stringify(first));
        if (first.ok) {
          expect(first.text).toBe(canonicalize(first.data));
          expect(first.data.pages).toHaveLength(spec.pages.length);
          expect(first.data.chars).toBe(
            first.data.pages.reduce((sum, page) => sum + page.chars, 0),
          );
          for (const page of first.data.pages) {
            expect(page.text.isWellFormed()).toBe(true);
            expect(page.text).not.toMatch(/\n{3}|^\s|\s$/);
          }
        } else {
          expect(first).toMatchObject({ error: 'unsupported_content_type', reason: 'no_text' });
        }
      }),
      { numRuns: 60 },
    );
  });

  it('never rejects on arbitrary bytes behind a PDF header', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 400 }), async (tail) => {
        const bytes = new Uint8Array([...new TextEncoder().encode('%PDF-1.4\n'), ...tail]);
        const result = await extractPdf(makeDocument(bytes));
        if (!result.ok) expect(['parse_error', 'unsupported_content_type']).toContain(result.error);
      }),
      { numRuns: 100 },
    );
  });
});
