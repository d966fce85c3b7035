export { loadPdfjs, PDFJS_VERSION } from './engine.js';
export { extractPdf } from './extract-pdf.js';
export {
  PDF_MAX_FIELD_CHARS,
  PDF_MAX_OUTLINE_DEPTH,
  PDF_MAX_OUTLINE_ITEMS,
  PDF_MAX_PAGES,
  PDF_MAX_PAGES_PARAM_CHARS,
  PDF_MAX_TEXT_CHARS,
} from './limits.js';
export { parsePages } from './pages.js';
export { receiptRule, resultSchema } from './product.js';
export type {
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
  PdfSuccess,
} from './types.js';
