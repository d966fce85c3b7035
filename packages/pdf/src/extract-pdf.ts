import {
  canonicalize,
  capString,
  type FetchedDocument,
  readOptions,
  StorefrontError,
  typeName,
} from '@storefront/core';
import { pdfDate } from './dates.js';
import { openPdf, type PdfDocument } from './engine.js';
import { bodySize, type Line, linesOf, renderPage, type TextPiece } from './layout.js';
import {
  PDF_MAX_FIELD_CHARS,
  PDF_MAX_OUTLINE_DEPTH,
  PDF_MAX_OUTLINE_ITEMS,
  PDF_MAX_PAGES,
  PDF_MAX_TEXT_CHARS,
} from './limits.js';
import { type PageRanges, parsePages, selectedPages } from './pages.js';
import type {
  PdfData,
  PdfErrorCode,
  PdfFailure,
  PdfFailureReason,
  PdfFormat,
  PdfMetadata,
  PdfOptions,
  PdfOutlineEntry,
  PdfPageText,
  PdfResult,
} from './types.js';

/** How far into the body the `%PDF-` header may start (ISO 32000-2 readers look in the first 1,024 bytes). */
const HEADER_WINDOW = 1024;

/**
 * The text of a PDF, page by page, as plain text or markdown, with its metadata
 * (title, author, producer, dates, page count, version) and outline (`/buy/pdf`). The
 * same bytes and options give the same `text`, the canonical JSON of `data`. An
 * encrypted PDF, one without a text layer (scanned or drawn), a body that is not a PDF
 * and a malformed one are `ok:false` with a `reason`; the promise never rejects for
 * content. pdf.js runs in the calling thread without network access (see the README).
 *
 * @example
 *   const result = await extractPdf(doc, { format: 'markdown', pages: '1-2' });
 *   if (result.ok) console.log(result.data.metadata.title, result.data.pages[0]?.text);
 */
export async function extractPdf(
  doc: FetchedDocument,
  options?: Readonly<PdfOptions> | null,
): Promise<PdfResult> {
  const { format, ranges } = checkOptions(options);
  if (doc.truncated) {
    return failure(
      'body_too_large',
      'truncated',
      `The PDF was cut at ${doc.bytes.length} bytes; a PDF cannot be read in part`,
    );
  }
  if (!hasPdfHeader(doc.bytes)) {
    const type = doc.contentType === null ? 'no content type' : `\`${doc.contentType}\``;
    return failure(
      'unsupported_content_type',
      'not_pdf',
      `Expected a PDF (a body starting with \`%PDF-\`), got ${type}`,
    );
  }

  const task = await openPdf(doc.bytes);
  try {
    let pdf: PdfDocument;
    try {
      pdf = await task.promise;
    } catch (error) {
      return openFailure(error);
    }
    return await read(pdf, format, ranges);
  } catch (error) {
    return failure('parse_error', 'malformed', `The PDF could not be read: ${messageOf(error)}`);
  } finally {
    await task.destroy();
  }
}

async function read(
  pdf: PdfDocument,
  format: PdfFormat,
  ranges: PageRanges | null,
): Promise<PdfResult> {
  const pageCount = pdf.numPages;
  let numbers: number[];
  let truncated = false;
  if (ranges === null) {
    numbers = Array.from({ length: Math.min(pageCount, PDF_MAX_PAGES) }, (_, i) => i + 1);
    truncated = pageCount > PDF_MAX_PAGES;
  } else {
    numbers = selectedPages(ranges);
    const missing = numbers.find((page) => page > pageCount);
    if (missing !== undefined) {
      return failure(
        'not_found',
        'no_such_page',
        `Page ${missing} was requested; the document has ${pageCount} ${pageCount === 1 ? 'page' : 'pages'}`,
      );
    }
  }

  const lines: Line[][] = [];
  for (const number of numbers) {
    const page = await pdf.getPage(number);
    const content = await page.getTextContent();
    lines.push(
      linesOf(content.items.filter((item): item is TextPiece & typeof item => 'str' in item)),
    );
    page.cleanup();
  }
  if (lines.every((pageLines) => pageLines.length === 0)) {
    const which = ranges === null ? 'No page' : 'None of the selected pages';
    return failure(
      'unsupported_content_type',
      'no_text',
      `${which} has a text layer: the PDF is scanned or drawn as images, and reading it needs OCR`,
    );
  }

  const body = bodySize(lines.flat());
  const pages: PdfPageText[] = [];
  let budget = PDF_MAX_TEXT_CHARS;
  let chars = 0;
  for (const [index, pageLines] of lines.entries()) {
    if (budget <= 0) {
      truncated = true;
      break;
    }
    let text = renderPage(pageLines, format, body);
    if (text.length > budget) {
      text = capString(text, budget);
      truncated = true;
    }
    budget -= text.length;
    const count = codePoints(text);
    chars += count;
    pages.push({ page: numbers[index] as number, text, chars: count });
  }

  const state = { truncated, items: 0 };
  const metadata = await readMetadata(pdf, state);
  const outline = await readOutline(pdf, state);
  const data: PdfData = {
    format,
    pageCount,
    pages,
    metadata,
    outline,
    chars,
    truncated: state.truncated,
  };
  return { ok: true, text: canonicalize(data), data };
}

/** What the reading of metadata and outline shares: whether anything was cut, and outline entries so far. */
interface ReadState {
  truncated: boolean;
  items: number;
}

async function readMetadata(pdf: PdfDocument, state: ReadState): Promise<PdfMetadata> {
  const { info } = await pdf.getMetadata();
  const record = (info ?? {}) as Record<string, unknown>;
  const field = (key: string): string | null => {
    const value = record[key];
    if (typeof value !== 'string') return null;
    const clean = value
      .replace(/\u0000/g, '')
      .trim()
      .toWellFormed();
    if (clean === '') return null;
    const capped = capString(clean, PDF_MAX_FIELD_CHARS);
    if (capped !== clean) state.truncated = true;
    return capped;
  };
  const date = (key: string): string | null => {
    const value = record[key];
    return typeof value === 'string' ? pdfDate(value) : null;
  };
  return {
    title: field('Title'),
    author: field('Author'),
    subject: field('Subject'),
    keywords: field('Keywords'),
    creator: field('Creator'),
    producer: field('Producer'),
    created: date('CreationDate'),
    modified: date('ModDate'),
    pdfVersion: field('PDFFormatVersion'),
    language: field('Language'),
  };
}

interface OutlineNode {
  readonly title: string;
  readonly dest: string | readonly unknown[] | null;
  readonly items: readonly OutlineNode[];
}

async function readOutline(pdf: PdfDocument, state: ReadState): Promise<PdfOutlineEntry[]> {
  const root = (await pdf.getOutline()) as OutlineNode[] | null;
  if (root === null) return [];
  const walk = async (nodes: readonly OutlineNode[], depth: number): Promise<PdfOutlineEntry[]> => {
    const entries: PdfOutlineEntry[] = [];
    for (const node of nodes) {
      if (state.items >= PDF_MAX_OUTLINE_ITEMS || depth > PDF_MAX_OUTLINE_DEPTH) {
        state.truncated = true;
        break;
      }
      state.items++;
      const clean = String(node.title ?? '')
        .replace(/\u0000/g, '')
        .trim()
        .toWellFormed();
      const title = capString(clean, PDF_MAX_FIELD_CHARS);
      if (title !== clean) state.truncated = true;
      const page = await pageOf(pdf, node.dest);
      const items = await walk(node.items ?? [], depth + 1);
      entries.push({ title, page, items });
    }
    return entries;
  };
  return walk(root, 1);
}

/** The 1-based page an outline destination points at, or null. */
async function pageOf(
  pdf: PdfDocument,
  dest: string | readonly unknown[] | null,
): Promise<number | null> {
  try {
    const explicit = typeof dest === 'string' ? await pdf.getDestination(dest) : dest;
    if (!Array.isArray(explicit) || explicit.length === 0) return null;
    const target = explicit[0];
    if (Number.isInteger(target)) {
      const index = target as number;
      return index >= 0 && index < pdf.numPages ? index + 1 : null;
    }
    if (target !== null && typeof target === 'object' && 'num' in target && 'gen' in target) {
      return (await pdf.getPageIndex(target as { num: number; gen: number })) + 1;
    }
    return null;
  } catch {
    // A destination naming an object that is not a page.
    return null;
  }
}

function checkOptions(options: Readonly<PdfOptions> | null | undefined): {
  format: PdfFormat;
  ranges: PageRanges | null;
} {
  const { format = 'text', pages } = readOptions(options, ['format', 'pages'], 'extractPdf');
  if (format !== 'text' && format !== 'markdown') {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`format\` to be \`text\` or \`markdown\`, got \`${typeof format === 'string' ? format.slice(0, 40) : typeName(format)}\``,
    );
  }
  if (pages === undefined) return { format, ranges: null };
  if (typeof pages !== 'string') {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`pages\` to be a string, got \`${typeName(pages)}\``,
    );
  }
  const ranges = parsePages(pages);
  if (typeof ranges === 'string') {
    throw new StorefrontError('invalid_params', `Invalid \`pages\`: ${ranges}`);
  }
  return { format, ranges };
}

function hasPdfHeader(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, HEADER_WINDOW) - 5;
  for (let i = 0; i <= end; i++) {
    if (
      bytes[i] === 0x25 &&
      bytes[i + 1] === 0x50 &&
      bytes[i + 2] === 0x44 &&
      bytes[i + 3] === 0x46 &&
      bytes[i + 4] === 0x2d
    ) {
      return true;
    }
  }
  return false;
}

function openFailure(error: unknown): PdfFailure {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'PasswordException') {
    return failure(
      'unsupported_content_type',
      'encrypted',
      'The PDF is encrypted and needs a password to open; its text cannot be read',
    );
  }
  return failure('parse_error', 'malformed', `The PDF could not be opened: ${messageOf(error)}`);
}

function failure(
  error: PdfErrorCode,
  reason: PdfFailureReason | 'no_such_page',
  message: string,
): PdfFailure {
  return { ok: false, error, message, reason };
}

function messageOf(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return capString(text.toWellFormed(), 300);
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count++;
  return count;
}
