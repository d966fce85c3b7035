import type { FetchedDocument } from '@storefront/core';
import { buildPdf, makeDocument, type PdfSpec } from '@storefront/test-utils';
import type { PdfOptions } from '../src/index.js';

/** A golden case: the document (built here, byte for byte the same every run) and the options. */
export interface PdfCase {
  readonly doc: () => FetchedDocument;
  readonly options?: PdfOptions;
}

const PDF = 'application/pdf';

function pdf(spec: PdfSpec, init: Parameters<typeof makeDocument>[1] = {}): () => FetchedDocument {
  return () =>
    makeDocument(buildPdf(spec), {
      url: 'https://files.example/report.pdf',
      contentType: PDF,
      ...init,
    });
}

/** A two-page report: a title, headings, paragraphs, full metadata and a nested outline. */
const REPORT: PdfSpec = {
  pages: [
    {
      lines: [
        { text: 'Quarterly Report', y: 720, size: 24, bold: true },
        { text: 'Prepared for the board (draft).', y: 690 },
        { text: 'Summary', y: 650, size: 16, bold: true },
        { text: 'Revenue grew in every region this quarter,', y: 625 },
        { text: 'led by the north, where sales rose by a fifth.', y: 611 },
        { text: 'Costs stayed flat.', y: 580 },
      ],
    },
    {
      lines: [
        { text: 'Outlook', y: 720, size: 16, bold: true },
        { text: 'We expect growth to slow next quarter.', y: 695 },
        { text: '* Hiring: two engineers', y: 665 },
        { text: '- Risks: supply of parts', y: 651 },
      ],
    },
  ],
  info: {
    Title: 'Quarterly Report (Q3)',
    Author: 'Finance Team',
    Subject: 'Results',
    Keywords: 'revenue, costs',
    Creator: 'Writer',
    Producer: 'Hand-made PDF 1.0',
    CreationDate: "D:20250930120000+02'00'",
    ModDate: 'D:20251001080000Z',
  },
  outline: [
    { title: 'Summary', page: 0 },
    { title: 'Outlook', page: 1, children: [{ title: 'Risks', page: 1 }] },
  ],
};

export const CASES: Readonly<Record<string, PdfCase>> = {
  'report-text': { doc: pdf(REPORT) },
  'report-markdown': { doc: pdf(REPORT), options: { format: 'markdown' } },
  'report-second-page-first': { doc: pdf(REPORT), options: { pages: '2,1' } },
  'report-page-out-of-range': { doc: pdf(REPORT), options: { pages: '1-3' } },
  'served-as-octet-stream': {
    doc: pdf(
      { pages: [{ lines: [{ text: 'Served without a PDF type.', y: 700 }] }] },
      {
        contentType: 'application/octet-stream',
      },
    ),
  },
  'encrypted-needs-password': {
    doc: pdf({ pages: [{ lines: [{ text: 'Secret', y: 700 }] }], encrypted: true }),
  },
  'scanned-image-only': { doc: pdf({ pages: [{ image: true }, { image: true }] }) },
  'scanned-selected-pages-only': {
    doc: pdf({ pages: [{ lines: [{ text: 'Cover', y: 700 }] }, { image: true }] }),
    options: { pages: '2' },
  },
  'mixed-text-and-image-pages': {
    doc: pdf({
      pages: [
        { lines: [{ text: 'Before the scan.', y: 700 }] },
        { image: true },
        { lines: [{ text: 'After the scan.', y: 700 }] },
      ],
    }),
  },
  'markdown-escapes': {
    doc: pdf({
      pages: [
        {
          lines: [
            { text: '# not a heading', y: 700 },
            { text: '1. not a list', y: 686 },
            { text: '- not a bullet', y: 672 },
            { text: 'under_scores and [brackets] and `ticks` | pipes <tags>', y: 658 },
            { text: '+', y: 644 },
          ],
        },
      ],
    }),
    options: { format: 'markdown' },
  },
  'columns-and-latin1': {
    doc: pdf({
      pages: [
        {
          lines: [
            { text: 'Left column top, café crème.', y: 700, x: 72 },
            { text: 'Left column bottom.', y: 686, x: 72 },
            { text: 'Right column top: naïve façade.', y: 700, x: 320 },
            { text: 'Right column bottom: 50 °C, 3 × 4 ¼.', y: 686, x: 320 },
          ],
        },
      ],
    }),
  },
  'metadata-odd-values': {
    doc: pdf({
      pages: [{ lines: [{ text: 'Body', y: 700 }] }],
      info: {
        Title: '   ',
        Author: 'Zoë (editor) \\ and team',
        CreationDate: 'yesterday',
        ModDate: 'D:20230229',
        Producer: 'x'.repeat(1_200),
      },
    }),
  },
  'no-metadata-no-outline': { doc: pdf({ pages: [{ lines: [{ text: 'Plain.', y: 700 }] }] }) },
  'outline-to-missing-page': {
    doc: pdf({
      pages: [{ lines: [{ text: 'Only page', y: 700 }] }],
      outline: [
        { title: 'Here', page: 0 },
        { title: 'Nowhere', page: 5 },
      ],
    }),
  },
  'not-a-pdf': {
    doc: () =>
      makeDocument('<!doctype html><title>Report</title>', {
        url: 'https://files.example/report.pdf',
      }),
  },
  'malformed-after-header': {
    doc: () =>
      makeDocument('%PDF-1.7\nthis is not the rest of a PDF\n', {
        url: 'https://files.example/broken.pdf',
        contentType: PDF,
      }),
  },
  'cut-at-the-fetch-cap': {
    doc: pdf({ pages: [{ lines: [{ text: 'Cut', y: 700 }] }] }, { truncated: true }),
  },
};
