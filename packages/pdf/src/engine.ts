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
  loading ??= keepingBuiltins(async () => {
    const worker = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    (globalThis as { pdfjsWorker?: unknown }).pdfjsWorker ??= worker;
    return import('pdfjs-dist/legacy/build/pdf.mjs');
  });
  return loading;
}

/**
 * Run `load` and put back every built-in method it replaced; what it added stays.
 *
 * pdf.js's legacy build (the one that runs on Node 20) bundles core-js, and loading it
 * replaces built-ins the whole thread shares with JavaScript versions:
 * `Array.prototype.push` (for arrays longer than 2^32 - 1), `JSON.parse` (for a reviver
 * that reads its source text) and `Function.prototype.toString` (so the others look
 * native). pdf.js meets none of those cases, and every other product on the thread paid
 * for them: once pdf.js was loaded, `push` ran 7.7x slower and markdown of the docs
 * corpus 1.31x (docs/decisions.md, "pdf.js must not replace the thread's built-ins").
 * What it adds (`Promise.withResolvers`, the new `Set` methods, iterator helpers) is
 * what Node 20 lacks, and adding a property slows nothing that was there.
 */
export async function keepingBuiltins<T>(load: () => Promise<T>): Promise<T> {
  const before = builtinDescriptors();
  try {
    return await load();
  } finally {
    for (const [owner, properties] of before) {
      for (const [key, was] of properties) {
        const now = Object.getOwnPropertyDescriptor(owner, key);
        if (now === undefined || !sameDescriptor(was, now)) Object.defineProperty(owner, key, was);
      }
    }
  }
}

/**
 * The own methods and accessors of `globalThis`, of the objects and constructors it
 * holds, and of their prototypes.
 */
function builtinDescriptors(): Map<object, Map<PropertyKey, PropertyDescriptor>> {
  const owners = new Set<object>([globalThis]);
  for (const key of Reflect.ownKeys(globalThis)) {
    // Only plain values: reading an accessor would load what Node defines lazily.
    const value = Object.getOwnPropertyDescriptor(globalThis, key)?.value as unknown;
    if (value === null || (typeof value !== 'object' && typeof value !== 'function')) continue;
    owners.add(value);
    const prototype = Object.getOwnPropertyDescriptor(value, 'prototype')?.value as unknown;
    // `Function.prototype` is itself a function.
    if (prototype !== null && (typeof prototype === 'object' || typeof prototype === 'function')) {
      owners.add(prototype);
    }
  }
  const typedArray = Object.getPrototypeOf(Uint8Array) as { prototype: object };
  owners.add(typedArray).add(typedArray.prototype);
  const descriptors = new Map<object, Map<PropertyKey, PropertyDescriptor>>();
  for (const owner of owners) {
    const properties = new Map<PropertyKey, PropertyDescriptor>();
    for (const key of Reflect.ownKeys(owner)) {
      const descriptor = Object.getOwnPropertyDescriptor(owner, key);
      if (descriptor === undefined || !(descriptor.configurable || descriptor.writable)) continue;
      // Methods and accessors only: other code on the thread may change a value while the
      // load runs (a listener count on `process`, a global it sets), and keeps it.
      if (typeof descriptor.value !== 'function' && descriptor.get === undefined) continue;
      properties.set(key, descriptor);
    }
    descriptors.set(owner, properties);
  }
  return descriptors;
}

function sameDescriptor(a: PropertyDescriptor, b: PropertyDescriptor): boolean {
  return Object.is(a.value, b.value) && a.get === b.get && a.set === b.set;
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
