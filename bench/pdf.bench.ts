import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { extractPdf, loadPdfjs, PDFJS_VERSION } from '@storefront/pdf';
import { buildPdf, makeDocument, type PdfPage } from '@storefront/test-utils';
import { Bench } from 'tinybench';
import { type Measured, machine, measured, printTable } from './lib/report.js';

const STANDARD_FONTS = `${join(dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json')), 'standard_fonts')}/`;

const SENTENCE =
  'Revenue grew in every region this quarter, led by the north, where sales rose by a fifth.';

/** A text page: a heading and `lines` lines of body text in short paragraphs. */
function textPage(n: number, lines: number): PdfPage {
  return {
    lines: [
      { text: `Section ${n}`, y: 740, size: 18, bold: true },
      ...Array.from({ length: lines }, (_, i) => ({
        text: `${i + 1}. ${SENTENCE}`,
        y: 712 - i * 14 - Math.floor(i / 5) * 6,
        size: 10,
      })),
    ],
  };
}

/** The documents: the same bytes for both sides. */
function documents(): readonly (readonly [string, Uint8Array])[] {
  const pages = (count: number) => Array.from({ length: count }, (_, i) => textPage(i + 1, 40));
  return [
    ['2 pages', buildPdf({ pages: pages(2), info: { Title: 'Small' } })],
    ['20 pages', buildPdf({ pages: pages(20), info: { Title: 'Medium' } })],
    ['100 pages', buildPdf({ pages: pages(100), info: { Title: 'Large' } })],
  ];
}

/**
 * What a user would write with pdf.js alone: open the bytes, `getTextContent` on every
 * page, the runs joined (a line break where pdf.js marks one), pages joined by a blank
 * line. pdf.js comes from `loadPdfjs`, the same module, loaded only when this benchmark
 * runs and without the built-ins it would replace for every other benchmark of the run
 * (docs/decisions.md, "pdf.js must not replace the thread's built-ins").
 */
async function pdfjsDirect(bytes: Uint8Array): Promise<string> {
  const { getDocument } = await loadPdfjs();
  const task = getDocument({ data: new Uint8Array(bytes), standardFontDataUrl: STANDARD_FONTS });
  const pdf = await task.promise;
  const pages: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const content = await page.getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : ''))
        .join(''),
    );
  }
  await task.destroy();
  return pages.join('\n\n');
}

/**
 * PDF to text: the `/buy/pdf` product (`extractPdf`, which the route's compute calls:
 * pdf.js opened for text only, layout into lines and paragraphs, metadata, outline, the
 * canonical text) next to pdf.js used directly (above), on the same generated PDFs, in
 * one run, two interleaved rounds. Both run pdf.js in this thread. No target.
 */
export async function pdfBenchmark(options: {
  time: number;
}): Promise<{ ratios: Record<string, number>; rows: Measured[] }> {
  await loadPdfjs();
  const bench = new Bench({ time: options.time, warmupTime: 300 });
  const docs = documents();
  for (const [label, bytes] of docs) {
    const doc = makeDocument(bytes, { contentType: 'application/pdf' });
    // Both sides must read the same words before they are timed.
    const ours = await extractPdf(doc);
    const theirs = await pdfjsDirect(bytes);
    if (!ours.ok) throw new Error(`${label}: ${ours.message}`);
    const words = (text: string) => text.split(/\s+/).filter(Boolean).length;
    const ourWords = ours.data.pages.reduce((sum, page) => sum + words(page.text), 0);
    if (ourWords !== words(theirs))
      throw new Error(`${label}: ${ourWords} ≠ ${words(theirs)} words`);
    for (let round = 1; round <= 2; round++) {
      bench.add(`pdfjs-dist getTextContent, joined (${label}) #${round}`, async () => {
        await pdfjsDirect(bytes);
      });
      bench.add(`storefront extractPdf (${label}) #${round}`, async () => {
        await extractPdf(doc);
      });
    }
  }
  await bench.run();
  const rows = measured(bench);
  const mean = (prefix: string) => {
    const hits = rows.filter((r) => r.name.startsWith(prefix));
    return hits.reduce((sum, r) => sum + r.meanMs, 0) / hits.length;
  };
  const ratios: Record<string, number> = {};
  for (const [label] of docs) {
    ratios[`${label}: storefront / pdfjs-dist`] =
      mean(`storefront extractPdf (${label})`) /
      mean(`pdfjs-dist getTextContent, joined (${label})`);
  }
  printTable(
    `PDF to text, bytes to result (pdfjs-dist ${PDFJS_VERSION}; ${machine()}, ${cpus().length} cores)`,
    rows,
  );
  for (const [label, ratio] of Object.entries(ratios)) {
    console.log(`${label} (mean latency): ${ratio.toFixed(2)}x`);
  }
  return { ratios, rows };
}
