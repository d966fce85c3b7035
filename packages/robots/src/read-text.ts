import { decodeBytes } from '@storefront/core';

/** Text read from a body under a parse limit. */
export interface ClippedText {
  readonly text: string;
  /** UTF-8 (or source) bytes the text came from. */
  readonly bytes: number;
  /** True when input beyond the limit was ignored. */
  readonly truncated: boolean;
}

function isLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d;
}

/**
 * Decode at most `maxBytes` of a body to text. When the body is longer, the bytes after
 * the limit are ignored and so is the line the limit cuts through, so a rule is never
 * read half-written (`Disallow: /private` cut to `Disallow: /pri` would block more).
 * Decoding follows core's `decodeBytes` without document sniffing: a byte order mark,
 * then the `Content-Type` charset, then UTF-8, else windows-1252 (RFC 9309 §2.3 asks for
 * UTF-8; the fallbacks bridge files that are not, as the RFC allows). A BOM is dropped.
 */
export function readBody(
  bytes: Uint8Array,
  maxBytes: number,
  contentType: string | null = null,
): ClippedText {
  let body = bytes;
  let truncated = false;
  if (body.length > maxBytes) {
    truncated = true;
    let end = maxBytes;
    // Keep the line break itself; drop the partial line after it.
    while (end > 0 && !isLineBreak(body[end - 1] as number)) end--;
    body = body.subarray(0, end);
  }
  const text = decodeBytes(body, { contentType, sniff: 'none' }).text;
  return { text: stripBom(text), bytes: body.length, truncated };
}

/**
 * Keep the prefix of `text` whose UTF-8 encoding fits in `maxBytes`, cut back to the last
 * line break as {@link readBody} does. A leading BOM is dropped.
 */
export function clipText(input: string, maxBytes: number): ClippedText {
  const text = stripBom(input);
  let bytes = 0;
  let lastBreakEnd = 0;
  let lastBreakBytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let width: number;
    if (code < 0x80) width = 1;
    else if (code < 0x800) width = 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        if (bytes + 4 > maxBytes)
          return { text: text.slice(0, lastBreakEnd), bytes: lastBreakBytes, truncated: true };
        bytes += 4;
        i++;
        continue;
      }
      width = 3; // a lone surrogate is written as U+FFFD
    } else width = 3;
    if (bytes + width > maxBytes) {
      return { text: text.slice(0, lastBreakEnd), bytes: lastBreakBytes, truncated: true };
    }
    bytes += width;
    if (isLineBreak(code)) {
      lastBreakEnd = i + 1;
      lastBreakBytes = bytes;
    }
  }
  return { text, bytes, truncated: false };
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Whether a body looks like an HTML page (a server answering every path with its front
 * page) rather than a plain-text policy file: an HTML content type, or text that starts
 * with `<` after whitespace.
 */
export function looksLikeHtml(text: string, contentType: string | null): boolean {
  const essence = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (essence === 'text/html' || essence === 'application/xhtml+xml') return true;
  return /^\s*</.test(text.slice(0, 1024));
}
