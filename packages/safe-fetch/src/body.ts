import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream';
import {
  type BrotliDecompress,
  constants,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
  type Gunzip,
  type Inflate,
  type InflateRaw,
} from 'node:zlib';
import { clip } from './url-policy.js';

/** The default cap on the decoded body: 10 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

/** A content-coding this package decodes. */
export type ContentCoding = 'identity' | 'gzip' | 'deflate' | 'br';

/** The outcome of {@link parseContentEncoding}. */
export type CodingCheck =
  | { readonly ok: true; readonly coding: ContentCoding }
  | { readonly ok: false; readonly message: string };

/**
 * How many decoded bytes a decoder hands over at a time (zlib's `chunkSize`; its
 * default is 16 KiB). Each piece is one round trip between the event loop and libuv's
 * thread pool, so the piece size sets how many round trips a body costs: 10 MiB took
 * 640 at 16 KiB, which on a busy 2-core machine, where every round trip waits for a
 * core, stretched a bomb's stop at the cap past a second. At 256 KiB it is 40, and the
 * decoder runs at most one piece past the cap before it is destroyed.
 */
export const DECODE_CHUNK_BYTES = 256 * 1024;

/** The decoded body, cut at the cap. */
export interface BodyBytes {
  readonly bytes: Uint8Array;
  readonly truncated: boolean;
  /** Bytes read from the source (decoded ones when there is a coding), past the cap included. */
  readonly decoded: number;
  /** How many pieces they came in. */
  readonly pieces: number;
}

const CODINGS: Readonly<Record<string, ContentCoding>> = {
  identity: 'identity',
  gzip: 'gzip',
  'x-gzip': 'gzip',
  deflate: 'deflate',
  br: 'br',
};

function noop(): void {}

/**
 * Read the `Content-Encoding` header (RFC 9110 §8.4). At most one coding is accepted:
 * a chain (`gzip, gzip`) multiplies the decoding work an attacker gets for free, and no
 * ordinary server sends one.
 */
export function parseContentEncoding(header: string | undefined): CodingCheck {
  if (header === undefined) return { ok: true, coding: 'identity' };
  const codings = header
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '');
  if (codings.length === 0) return { ok: true, coding: 'identity' };
  if (codings.length > 1) {
    return {
      ok: false,
      message: `Unsupported content-coding \`${clip(header)}\`: at most one coding is decoded`,
    };
  }
  const coding = CODINGS[codings[0] as string];
  if (coding === undefined) {
    return {
      ok: false,
      message: `Unsupported content-coding \`${clip(header)}\` (expected gzip, deflate, br or identity)`,
    };
  }
  return { ok: true, coding };
}

/**
 * Discard a body we will not read. undici's body crashes the process if it is destroyed
 * while nobody listens for `'error'`, so a listener always goes on first.
 */
export function discardBody(body: Readable): void {
  body.on('error', noop);
  if (!body.destroyed) body.destroy();
}

/**
 * How much of a body nobody reads is drained so that its connection can serve the next
 * request (undici's own default for `dump`). A longer body costs its connection instead.
 */
export const DRAIN_LIMIT_BYTES = 128 * 1024;

/** An undici response body: a stream that can also drain itself. */
export interface DrainableBody extends Readable {
  dump(options?: { limit?: number }): Promise<unknown>;
}

/**
 * Drop a body the caller does not read without closing its connection: the body is
 * read and thrown away in the background, at most {@link DRAIN_LIMIT_BYTES} (a body
 * declared or found longer closes the connection). `done` runs once the body has
 * ended or been destroyed; it never throws.
 */
export function drainBody(body: DrainableBody, done: () => void): void {
  body.on('error', noop);
  body.dump({ limit: DRAIN_LIMIT_BYTES }).then(done, done);
}

/**
 * Read a response body, removing its content-coding, and stop at `maxBytes` decoded
 * bytes. Decoded bytes are what is counted, so a decompression bomb stops at the cap
 * after decoding only that much, and streaming keeps memory near one chunk.
 * Rejects with the stream's or the decoder's error; the caller maps it.
 */
export async function readBody(
  body: Readable,
  coding: ContentCoding,
  maxBytes: number,
  declaredLength: number | null,
): Promise<BodyBytes> {
  body.on('error', noop);
  let decoder: Gunzip | Inflate | InflateRaw | BrotliDecompress | null = null;
  try {
    let source: Readable = body;
    if (coding !== 'identity') {
      const first = await firstChunk(body);
      // An empty body with a coding header is common (HEAD-like answers, 204s); there is
      // nothing to decode, and a decoder would call the empty input corrupt.
      if (first === null)
        return { bytes: new Uint8Array(0), truncated: false, decoded: 0, pieces: 0 };
      decoder = createDecoder(coding, first);
      decoder.on('error', noop);
      source = decoder;
      decoder.write(first);
      // Errors reach the reader through the decoder, which pipeline destroys with them.
      pipeline(body, decoder, noop);
    }
    // With no coding, a declared length above the cap already says the body is longer.
    const longerThanCap =
      coding === 'identity' && declaredLength !== null && declaredLength > maxBytes;
    return await collect(source, maxBytes, longerThanCap);
  } finally {
    decoder?.destroy();
    discardBody(body);
  }
}

async function collect(
  source: Readable,
  maxBytes: number,
  longerThanCap: boolean,
): Promise<BodyBytes> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let truncated = false;
  let decoded = 0;
  let pieces = 0;
  for await (const chunk of source as AsyncIterable<Uint8Array>) {
    if (chunk.length === 0) continue;
    decoded += chunk.length;
    pieces++;
    const room = maxBytes - total;
    if (chunk.length > room) {
      if (room > 0) chunks.push(chunk.subarray(0, room));
      total += room;
      truncated = true;
      break;
    }
    chunks.push(chunk);
    total += chunk.length;
    if (total === maxBytes && longerThanCap) {
      truncated = true;
      break;
    }
  }
  // Copy into a buffer of our own: small Node buffers are views into a shared pool.
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return { bytes, truncated, decoded, pieces };
}

function createDecoder(
  coding: Exclude<ContentCoding, 'identity'>,
  first: Uint8Array,
): Gunzip | Inflate | InflateRaw | BrotliDecompress {
  switch (coding) {
    case 'gzip':
      // The stream must end as it says it does: a body cut short (no final block, no
      // trailer) fails with `Z_BUF_ERROR`, like corrupt data, rather than passing for a
      // complete page of whatever decoded.
      return createGunzip({ flush: constants.Z_SYNC_FLUSH, chunkSize: DECODE_CHUNK_BYTES });
    case 'deflate': {
      // `deflate` means the zlib format (RFC 9110 §8.4.1.2), but some servers send raw
      // deflate; a zlib stream starts with compression method 8 in the low nibble.
      const zlibWrapped = ((first[0] ?? 0) & 0x0f) === 0x08;
      const options = { flush: constants.Z_SYNC_FLUSH, chunkSize: DECODE_CHUNK_BYTES };
      return zlibWrapped ? createInflate(options) : createInflateRaw(options);
    }
    case 'br':
      return createBrotliDecompress({
        flush: constants.BROTLI_OPERATION_FLUSH,
        chunkSize: DECODE_CHUNK_BYTES,
      });
  }
}

/** Read the first chunk of a stream, leaving the rest unread; null when it is empty. */
function firstChunk(stream: Readable): Promise<Uint8Array | null> {
  return new Promise((resolve, reject) => {
    // A stream that already finished emits nothing more; answer from its state.
    if (stream.errored) return reject(stream.errored);
    if (stream.readableEnded) return resolve(null);
    if (stream.destroyed) return reject(prematureClose());
    const cleanup = () => {
      stream.off('readable', onReadable);
      stream.off('end', onEnd);
      stream.off('error', onError);
      stream.off('close', onClose);
    };
    const onReadable = () => {
      const chunk = stream.read() as Uint8Array | null;
      if (chunk !== null) {
        cleanup();
        resolve(chunk);
      }
    };
    const onEnd = () => {
      cleanup();
      resolve(null);
    };
    const onError = (error: unknown) => {
      cleanup();
      reject(error);
    };
    const onClose = () => {
      cleanup();
      reject(prematureClose());
    };
    stream.on('readable', onReadable);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.on('close', onClose);
  });
}

function prematureClose(): Error {
  return Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' });
}
