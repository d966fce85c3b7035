import { CUT_MARK, StorefrontError } from '@storefront/core';
import { buildPdf, makeDocument, type PdfOutlineItem } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  extractPdf,
  PDF_MAX_OUTLINE_ITEMS,
  PDF_MAX_PAGES,
  PDF_MAX_TEXT_CHARS,
  parsePages,
} from '../src/index.js';

const LINE = 'The quick brown fox jumps over the lazy dog while the band plays on. '.repeat(2);

describe('caps', () => {
  it(`reads at most ${PDF_MAX_PAGES} pages and says so`, async () => {
    const pages = Array.from({ length: PDF_MAX_PAGES + 5 }, (_, i) => ({
      lines: [{ text: `Page ${i + 1}`, y: 700 }],
    }));
    const result = await extractPdf(makeDocument(buildPdf({ pages })));
    if (!result.ok) throw new Error(result.message);
    expect(result.data.pageCount).toBe(PDF_MAX_PAGES + 5);
    expect(result.data.pages).toHaveLength(PDF_MAX_PAGES);
    expect(result.data.pages.at(-1)?.text).toBe(`Page ${PDF_MAX_PAGES}`);
    expect(result.data.truncated).toBe(true);
  });

  it(`cuts the text at ${PDF_MAX_TEXT_CHARS} characters with the mark`, async () => {
    const lines = Array.from({ length: 80 }, (_, i) => ({ text: LINE, y: 760 - i * 9, size: 8 }));
    // 100 pages of 80 lines of 137 characters: about 1,100,000 characters.
    const pages = Array.from({ length: 100 }, () => ({ lines }));
    const bytes = buildPdf({ pages });
    const result = await extractPdf(makeDocument(bytes));
    if (!result.ok) throw new Error(result.message);
    const total = result.data.pages.reduce((sum, page) => sum + page.text.length, 0);
    expect(total).toBe(PDF_MAX_TEXT_CHARS);
    expect(result.data.pages.length).toBeLessThan(100);
    expect(result.data.pages.at(-1)?.text.endsWith(CUT_MARK)).toBe(true);
    expect(result.data.truncated).toBe(true);
  }, 120_000);

  it(`keeps at most ${PDF_MAX_OUTLINE_ITEMS} outline entries`, async () => {
    const outline: PdfOutlineItem[] = Array.from({ length: 300 }, (_, i) => ({
      title: `Chapter ${i}`,
      page: 0,
      children: [{ title: `Section ${i}.1`, page: 0 }],
    }));
    const result = await extractPdf(
      makeDocument(buildPdf({ pages: [{ lines: [{ text: 'x', y: 700 }] }], outline })),
    );
    if (!result.ok) throw new Error(result.message);
    const count = (entries: readonly { items: readonly unknown[] }[]): number =>
      entries.reduce((sum, entry) => sum + 1 + count(entry.items as typeof entries), 0);
    expect(count(result.data.outline)).toBe(PDF_MAX_OUTLINE_ITEMS);
    expect(result.data.truncated).toBe(true);
  });

  it('refuses bad options as misuse', async () => {
    const doc = makeDocument(buildPdf({ pages: [{ lines: [{ text: 'x', y: 700 }] }] }));
    for (const options of [
      { format: 'html' },
      { pages: '0' },
      { pages: '3-1' },
      { pages: 'a' },
      { bogus: 1 },
    ]) {
      await expect(extractPdf(doc, options as never)).rejects.toBeInstanceOf(StorefrontError);
    }
  });

  it('parses page selections', () => {
    expect(parsePages('1-3, 7')).toStrictEqual([
      [1, 3],
      [7, 7],
    ]);
    expect(parsePages('1-101')).toMatch(/at most 100 pages/);
    expect(parsePages('1,'.repeat(40))).toMatch(/at most 64 characters/);
    expect(parsePages('')).toMatch(/Expected page numbers/);
  });
});
