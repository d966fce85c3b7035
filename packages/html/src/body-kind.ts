import { type FetchedDocument, parseContentType } from '@storefront/core';
import type { BodyKind } from './types.js';

const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
const TEXT_TYPES = new Set(['text/plain']);
/** Types that say nothing about the body; the bytes decide. */
const GENERIC_TYPES = new Set([
  'application/octet-stream',
  'binary/octet-stream',
  'unknown/unknown',
]);

/** Magic numbers of binary formats that are sometimes served with a wrong or missing type. */
const SIGNATURES: readonly (readonly [string, readonly number[]])[] = [
  ['PDF', [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ['PNG', [0x89, 0x50, 0x4e, 0x47]],
  ['JPEG', [0xff, 0xd8, 0xff]],
  ['GIF', [0x47, 0x49, 0x46, 0x38]],
  ['WebP/RIFF', [0x52, 0x49, 0x46, 0x46]],
  ['ZIP', [0x50, 0x4b, 0x03, 0x04]],
  ['gzip', [0x1f, 0x8b]],
  ['WebAssembly', [0x00, 0x61, 0x73, 0x6d]],
  ['ELF', [0x7f, 0x45, 0x4c, 0x46]],
];

/**
 * Decide whether a document is HTML, plain text, or something no HTML product can read,
 * from its `Content-Type` and, when the type is missing or generic, from its bytes
 * (a reduced form of the WHATWG MIME Sniffing algorithm). A body labelled HTML that
 * starts with a binary signature or carries NUL bytes early is refused too: decoding
 * it would produce garbage.
 *
 * @returns the kind and, for `unsupported`, a reason naming what was found.
 */
export function bodyKind(doc: FetchedDocument): { kind: BodyKind; reason: string } {
  const parsed = doc.contentType === null ? null : parseContentType(doc.contentType);
  const type = parsed?.mediaType ?? null;
  const binary = binarySignature(doc.bytes);
  if (type !== null && !GENERIC_TYPES.has(type)) {
    if (HTML_TYPES.has(type) || TEXT_TYPES.has(type)) {
      if (binary !== null) return { kind: 'unsupported', reason: `${type} body is ${binary} data` };
      return { kind: HTML_TYPES.has(type) ? 'html' : 'text', reason: type };
    }
    return { kind: 'unsupported', reason: `content type \`${type}\` is not HTML` };
  }
  if (binary !== null) return { kind: 'unsupported', reason: `body is ${binary} data` };
  if (looksLikeJson(doc.bytes)) return { kind: 'unsupported', reason: 'body is JSON, not HTML' };
  return { kind: 'html', reason: type ?? 'sniffed' };
}

function binarySignature(bytes: Uint8Array): string | null {
  for (const [name, signature] of SIGNATURES) {
    if (signature.every((byte, i) => bytes[i] === byte)) return name;
  }
  // UTF-16 text legitimately carries NULs; a BOM says so.
  const utf16 =
    (bytes[0] === 0xfe && bytes[1] === 0xff) || (bytes[0] === 0xff && bytes[1] === 0xfe);
  if (!utf16) {
    const end = Math.min(bytes.length, 1024);
    for (let i = 0; i < end; i++) if (bytes[i] === 0) return 'binary';
  }
  return null;
}

function looksLikeJson(bytes: Uint8Array): boolean {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (
    i < bytes.length &&
    (bytes[i] === 0x20 || bytes[i] === 0x0a || bytes[i] === 0x0d || bytes[i] === 0x09)
  )
    i++;
  const first = bytes[i];
  if (first !== 0x7b && first !== 0x5b) return false;
  // `{` or `[` then, after space, a quote, brace, bracket, digit or `]`/`}`: JSON, not text.
  let j = i + 1;
  while (
    j < bytes.length &&
    (bytes[j] === 0x20 || bytes[j] === 0x0a || bytes[j] === 0x0d || bytes[j] === 0x09)
  )
    j++;
  const next = bytes[j];
  return (
    next === undefined ||
    next === 0x22 ||
    next === 0x7b ||
    next === 0x5b ||
    next === 0x5d ||
    next === 0x7d ||
    (next >= 0x30 && next <= 0x39) ||
    next === 0x2d
  );
}
