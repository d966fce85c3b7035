/// <reference path="./pdfjs.d.ts" />
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

type Pdfjs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

/** The pdf.js package folder on disk: fonts and CMaps are read from here, never fetched. */
const PDFJS_ROOT = dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));

/** The version of pdf.js this package runs (from its package.json). */
export const PDFJS_VERSION: string = (
  createRequire(import.meta.url)('pdfjs-dist/package.json') as { version: string }
).version;

let loading: Promise<Pdfjs> | null = null;

/**
 * pdf.js, loaded on first use (or ahead of it: the service's product threads call this
 * once they are ready): a process that never reads a PDF never loads its 3 MB of
 * code. pdf.js runs its parser in a worker of its own, or in
 * the calling thread when it finds the worker module on `globalThis.pdfjsWorker`;
 * handing it over keeps the parser in this thread (the service's product thread, with
 * its deadline and heap bound) and means pdf.js never loads a file by a path it
 * computes itself.
 */
export function loadPdfjs(): Promise<Pdfjs> {
  loading ??= (async () => {
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  })();
  return loading;
}

/**
 * Open `bytes` with pdf.js for text extraction only: no network (the data is given, and
 * the standard fonts and CMaps are files of the installed package), no `eval` of font
 * programs, no system fonts, no font faces, no XFA, messages only for errors. `bytes`
 * is copied, since pdf.js takes the buffer it is given.
 */
export async function openPdf(bytes: Uint8Array) {
  const { getDocument } = await loadPdfjs();
  return getDocument({
    data: new Uint8Array(bytes),
    standardFontDataUrl: `${join(PDFJS_ROOT, 'standard_fonts')}/`,
    cMapUrl: `${join(PDFJS_ROOT, 'cmaps')}/`,
    cMapPacked: true,
    useSystemFonts: false,
    useWorkerFetch: false,
    disableFontFace: true,
    isEvalSupported: false,
    isOffscreenCanvasSupported: false,
    isImageDecoderSupported: false,
    enableXfa: false,
    disableRange: true,
    disableStream: true,
    disableAutoFetch: true,
    stopAtErrors: false,
    verbosity: 0,
  });
}

/** What {@link openPdf} resolves to: the loading task. */
export type PdfLoadingTask = Awaited<ReturnType<typeof openPdf>>;
/** An open document. */
export type PdfDocument = Awaited<PdfLoadingTask['promise']>;
