/**
 * The encoding of every x402 header: standard base64 (RFC 4648 §4, not base64url) of
 * the UTF-8 bytes of a JSON text, as the official clients write and read it
 * (`safeBase64Encode`/`safeBase64Decode` in `@x402/core`; x402.md §2).
 */

/** Encode `value` as an x402 header value. */
export function encodeBase64Json(value: unknown): string {
  return Buffer.from(JSON.stringify(value), 'utf8').toString('base64');
}

/** What decoding a header value gave: the JSON value, or what was wrong with it. */
export type Base64JsonResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly problem: string };

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Decode an x402 header value. Only canonical standard base64 is read (padding may be
 * left off); base64url, whitespace, stray characters and bytes that are not UTF-8 are
 * refused rather than skipped, as `Buffer.from(…, 'base64')` alone would do.
 */
export function decodeBase64Json(text: string): Base64JsonResult {
  if (text === '') return { ok: false, problem: 'it is empty' };
  if (!BASE64.test(text)) {
    return { ok: false, problem: 'it is not standard base64 (A-Z, a-z, 0-9, +, / and = padding)' };
  }
  const padded = text.padEnd(Math.ceil(text.length / 4) * 4, '=');
  const bytes = Buffer.from(padded, 'base64');
  if (bytes.toString('base64') !== padded) {
    return { ok: false, problem: 'it is not well-formed base64' };
  }
  let json: string;
  try {
    json = utf8.decode(bytes);
  } catch {
    return { ok: false, problem: 'its decoded bytes are not UTF-8' };
  }
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch {
    return { ok: false, problem: 'its decoded text is not JSON' };
  }
}
