import {
  extractPdf,
  loadPdfjs,
  PDF_MAX_PAGES,
  PDF_MAX_PAGES_PARAM_CHARS,
  type PdfFormat,
  type PdfResult,
  parsePages,
  receiptRule,
  resultSchema,
} from '@storefront/pdf';
import {
  checked,
  enumParam,
  INTEGER,
  ISO_TIME,
  NULLABLE_STRING,
  paramsSchema,
  responseSchema,
  STRING,
  URL_PARAM,
  urlProblem,
} from '../shared.js';
import type { PageSource, ParamProblem, PriceTier, RouteDefinition } from '../types.js';
import { example } from './example.js';

/** Params of `/buy/pdf`. */
export interface PdfParams {
  readonly url: string;
  readonly format: PdfFormat;
  /** The page selection as given, or undefined for every page. */
  readonly pages: string | undefined;
}

const PRICE: PriceTier = {
  tier: 'pdf',
  amount: 10_000,
  includes: 'per-page text or markdown of a PDF with its metadata and outline, plus signed receipt',
};

/** The media types the read asks for: a PDF first, anything else rather than nothing. */
const ACCEPT_PDF = 'application/pdf, */*;q=0.1';

/**
 * `/buy/pdf`: a PDF's text, page by page, as text or markdown, with its metadata and
 * outline. Reads the body whatever its `Content-Type` (a PDF is recognised by its
 * `%PDF-` header), asking the server for `application/pdf` first. pdf.js runs on a
 * product thread, under the same deadline and heap bound as HTML products.
 */
export const pdfRoute: RouteDefinition<PdfParams, PageSource, PdfResult> = {
  name: 'pdf',
  example,
  receiptRule,
  path: '/buy/pdf',
  title: 'PDF to text',
  description:
    'The text of a PDF page by page, as plain text or markdown (headings from font sizes), with its metadata (title, author, producer, dates, page count) and outline. Same bytes, same text. Encrypted and scanned (image-only) PDFs are an honest ok:false with a reason, not charged.',
  params: paramsSchema(
    {
      url: URL_PARAM,
      format: enumParam(
        ['text', 'markdown'],
        'How page text is written: plain lines, or markdown with headings.',
        'text',
      ),
      pages: {
        type: 'string',
        minLength: 1,
        maxLength: PDF_MAX_PAGES_PARAM_CHARS,
        description: `Pages to read, 1-based numbers and ranges such as \`1-3,7\` (at most ${PDF_MAX_PAGES} pages); every page up to ${PDF_MAX_PAGES} when absent.`,
      },
    },
    ['url'],
  ),
  prices: [PRICE],
  chargeRule: 'free-on-failure',
  closedResponse: false,
  notFound: 'a page past the last page of the document',
  response: responseSchema(
    {
      status: INTEGER,
      text: STRING,
      contentType: NULLABLE_STRING,
      fetchedAt: ISO_TIME,
      reason: {
        enum: ['not_pdf', 'encrypted', 'no_text', 'malformed', 'truncated', 'no_such_page'],
        description: 'Present only when ok is false: why the PDF could not be read.',
      },
      data: resultSchema,
    },
    false,
  ),
  check(query) {
    const format = (query.format ?? 'text') as PdfFormat;
    const pages = query.pages;
    let pagesProblem: ParamProblem | null = null;
    if (pages !== undefined) {
      const parsed = parsePages(pages);
      if (typeof parsed === 'string') pagesProblem = { param: 'pages', message: parsed };
    }
    return checked([urlProblem('url', query.url ?? ''), pagesProblem], () => ({
      url: query.url as string,
      format,
      pages,
    }));
  },
  priceFor: () => PRICE,
  reads: { kind: 'page', url: (params) => params.url, accept: ACCEPT_PDF },
  // pdf.js is 3 MB of code: product threads load it ahead of their first call.
  warm: async () => {
    await loadPdfjs();
  },
  compute: ({ source, params }) =>
    extractPdf(source.doc, {
      format: params.format,
      ...(params.pages === undefined ? {} : { pages: params.pages }),
    }),
  shape(result, { source: { doc } }) {
    if (!result.ok) {
      return {
        ok: false,
        error: result.error,
        message: result.message,
        fields: { contentType: doc.contentType, reason: result.reason },
      };
    }
    return {
      ok: true,
      text: result.text,
      body: {
        ok: true,
        url: doc.url,
        status: doc.status,
        text: result.text,
        contentType: doc.contentType,
        fetchedAt: doc.fetchedAt,
        data: result.data,
      },
    };
  },
};
