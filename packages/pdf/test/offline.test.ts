import { buildPdf, makeDocument } from '@storefront/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { extractPdf, loadPdfjs } from '../src/index.js';

describe('pdf.js runs offline', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('reads a PDF with standard fonts and an outline without calling fetch', async () => {
    await loadPdfjs();
    const calls: string[] = [];
    vi.stubGlobal('fetch', (input: unknown) => {
      calls.push(String(input));
      return Promise.reject(new Error('no network in this test'));
    });
    const bytes = buildPdf({
      pages: [
        {
          lines: [
            { text: 'Regular', y: 700 },
            { text: 'Bold', y: 680, bold: true, size: 18 },
          ],
        },
      ],
      outline: [{ title: 'Start', page: 0 }],
    });
    const result = await extractPdf(makeDocument(bytes), { format: 'markdown' });
    expect(calls).toStrictEqual([]);
    expect(result).toMatchObject({ ok: true });
    if (result.ok) expect(result.data.pages[0]?.text).toBe('Regular\n\n# Bold');
  });
});
