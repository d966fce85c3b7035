import htmlEncodingSniffer from 'html-encoding-sniffer';
import * as whatwgEncoding from 'whatwg-encoding';

/** How the character encoding of a body was decided. */
export type EncodingSource =
  | 'bom'
  | 'content-type'
  | 'meta'
  | 'xml-declaration'
  | 'utf-8-valid'
  | 'default';

/** A body decoded to text. */
export interface DecodedText {
  readonly text: string;
  /** The WHATWG encoding name used, e.g. `UTF-8`, `windows-1252`, `Shift_JIS`. */
  readonly encoding: string;
  readonly source: EncodingSource;
}

/** Options of {@link decodeBytes}. */
export interface DecodeOptions {
  /** The `Content-Type` header verbatim; its `charset` parameter is the transport label. */
  readonly contentType?: string | null;
  /**
   * Which in-document declaration to look for when there is no BOM and no usable
   * transport charset: an HTML `<meta>` (prescan of the first 1024 bytes), an XML
   * declaration, or none. Default: chosen from the content type (`html` for HTML and
   * unknown types, `xml` for XML types, `none` otherwise).
   */
  readonly sniff?: 'html' | 'xml' | 'none';
}

/** A parsed `Content-Type`: its lower-cased essence and charset parameter. */
export interface ContentType {
  readonly mediaType: string;
  readonly charset: string | null;
}

const utf8 = new TextDecoder('utf-8');
const utf8Strict = new TextDecoder('utf-8', { fatal: true });

/**
 * Decode a body to text, following the WHATWG encoding-sniffing order: a byte order
 * mark, then the `Content-Type` charset, then the document's own declaration (`<meta
 * charset>` or `http-equiv`, or `<?xml encoding?>`), then UTF-8 when the bytes are
 * valid UTF-8, else windows-1252. Labels are resolved with the WHATWG Encoding
 * Standard's table, so `iso-8859-1` and `latin1` decode as windows-1252 as browsers do.
 * Invalid sequences become U+FFFD; this function never throws for any bytes.
 *
 * @example
 *   decodeBytes(bytes, { contentType: 'text/html; charset=Shift_JIS' }).text
 */
export function decodeBytes(bytes: Uint8Array, options: DecodeOptions = {}): DecodedText {
  const { chunks, encoding, source } = decodeChunks(bytes, options, Number.POSITIVE_INFINITY);
  return { text: chunks.length === 1 ? (chunks[0] as string) : chunks.join(''), encoding, source };
}

/** A body decoded to text in pieces: {@link decodeChunks}. */
export interface DecodedChunks {
  /** The text, in order; joined, exactly what {@link decodeBytes} returns. */
  readonly chunks: readonly string[];
  /** The WHATWG encoding name used, e.g. `UTF-8`, `windows-1252`, `Shift_JIS`. */
  readonly encoding: string;
  readonly source: EncodingSource;
}

/**
 * Bytes of UTF-8 decoded into one piece of text. A string of more than about 64 KB goes
 * to V8's large-object space, which maps fresh memory for each one: decoding a 200 KB
 * page whole took ten times as long as decoding it in pieces of this size.
 */
export const DECODE_CHUNK_BYTES = 32 * 1024;

/**
 * {@link decodeBytes} in pieces: the same encoding decision and the same text, as a list
 * of strings that each come from `chunkBytes` bytes of the body (a character the cut
 * splits goes whole to the next piece; UTF-8 bodies only, a body in any other encoding
 * is one piece). A parser that reads text in pieces never needs the whole
 * page as one string.
 *
 * @example
 *   decodeChunks(bytes, { contentType: 'text/html' }).chunks.join('') // the page's text
 */
export function decodeChunks(
  bytes: Uint8Array,
  options: DecodeOptions = {},
  chunkBytes = DECODE_CHUNK_BYTES,
): DecodedChunks {
  const bom = whatwgEncoding.getBOMEncoding(bytes);
  if (bom !== null) return decodedAs(bytes, bom, 'bom', chunkBytes);

  const contentType = options.contentType ?? null;
  const parsed = contentType === null ? null : parseContentType(contentType);
  if (parsed?.charset) {
    const name = usableName(whatwgEncoding.labelToName(parsed.charset));
    if (name !== null) return decodedAs(bytes, name, 'content-type', chunkBytes);
  }

  const sniff = options.sniff ?? sniffKind(parsed?.mediaType ?? null);
  if (sniff === 'html') {
    const found = htmlEncodingSniffer(bytes, { defaultEncoding: '' });
    // HTML §13.2.3.2: a declared UTF-16 means UTF-8, x-user-defined means windows-1252.
    const name = found === '' ? null : htmlDeclared(found);
    if (name !== null) return decodedAs(bytes, name, 'meta', chunkBytes);
  } else if (sniff === 'xml') {
    const name = usableName(xmlDeclaredLabel(bytes));
    if (name !== null) return decodedAs(bytes, name, 'xml-declaration', chunkBytes);
  }

  try {
    return {
      chunks: utf8Chunks(bytes, true, chunkBytes),
      encoding: 'UTF-8',
      source: 'utf-8-valid',
    };
  } catch {
    return decodedAs(bytes, 'windows-1252', 'default', chunkBytes);
  }
}

function decodedAs(
  bytes: Uint8Array,
  name: string,
  source: EncodingSource,
  chunkBytes: number,
): DecodedChunks {
  const chunks = name === 'UTF-8' ? utf8Chunks(bytes, false, chunkBytes) : [decodeAs(bytes, name)];
  return { chunks, encoding: name, source };
}

/**
 * UTF-8 decoded piece by piece with one streaming decoder: a character whose bytes are
 * split between two pieces is decoded whole, in the second. A leading BOM is dropped
 * and, unless `fatal`, invalid sequences become U+FFFD, as with the whole body.
 */
function utf8Chunks(bytes: Uint8Array, fatal: boolean, chunkBytes: number): string[] {
  if (bytes.length <= chunkBytes) return [(fatal ? utf8Strict : utf8).decode(bytes)];
  const decoder = new TextDecoder('utf-8', { fatal });
  const chunks: string[] = [];
  for (let at = 0; at < bytes.length; at += chunkBytes) {
    const end = Math.min(at + chunkBytes, bytes.length);
    const text = decoder.decode(bytes.subarray(at, end), { stream: end < bytes.length });
    if (text !== '') chunks.push(text);
  }
  return chunks;
}

/**
 * Parse a `Content-Type` header value (RFC 9110 §8.3). Returns null when it has no
 * `type/subtype` essence.
 */
export function parseContentType(value: string): ContentType | null {
  const [essence = '', ...params] = value.split(';');
  const mediaType = essence.trim().toLowerCase();
  if (!/^[!#$%&'*+.^_`|~0-9a-z-]+\/[!#$%&'*+.^_`|~0-9a-z-]+$/.test(mediaType)) return null;
  let charset: string | null = null;
  for (const param of params) {
    const eq = param.indexOf('=');
    if (eq === -1) continue;
    if (param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    let raw = param.slice(eq + 1).trim();
    if (raw.startsWith('"'))
      raw = raw.slice(1, raw.indexOf('"', 1) === -1 ? undefined : raw.indexOf('"', 1));
    if (raw !== '' && charset === null) charset = raw;
  }
  return { mediaType, charset };
}

function sniffKind(mediaType: string | null): 'html' | 'xml' | 'none' {
  if (mediaType === null || mediaType === 'text/html' || mediaType === 'application/xhtml+xml') {
    return 'html';
  }
  if (mediaType.endsWith('/xml') || mediaType.endsWith('+xml')) return 'xml';
  return 'none';
}

function usableName(name: string | null): string | null {
  if (name === null || name === 'replacement') return null;
  return whatwgEncoding.isSupported(name) ? name : null;
}

function htmlDeclared(name: string): string | null {
  if (name === 'UTF-16LE' || name === 'UTF-16BE') return 'UTF-8';
  if (name === 'x-user-defined') return 'windows-1252';
  return usableName(name);
}

/** The `encoding` pseudo-attribute of an XML declaration in the first 1024 bytes. */
function xmlDeclaredLabel(bytes: Uint8Array): string | null {
  const head = String.fromCharCode(...bytes.subarray(0, Math.min(bytes.length, 1024)));
  const match = /^\s*<\?xml[^>]*?\sencoding\s*=\s*(["'])([A-Za-z0-9._:-]{1,40})\1/.exec(head);
  return match ? whatwgEncoding.labelToName(match[2] as string) : null;
}

function decodeAs(bytes: Uint8Array, name: string): string {
  if (name === 'UTF-8') return utf8.decode(bytes);
  const text = whatwgEncoding.decode(bytes, name);
  // iconv-lite passes unpaired UTF-16 surrogates through; the Encoding Standard turns
  // them into U+FFFD, and canonical JSON refuses them.
  return text.isWellFormed() ? text : text.toWellFormed();
}
