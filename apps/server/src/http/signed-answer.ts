import type { IncomingMessage, ServerResponse } from 'node:http';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { RequestHandler } from 'express';
import { COMPRESS_FROM_BYTES } from '../middleware/prelude.js';
import {
  contentDigest,
  type HttpSignatureKey,
  paymentResponseOf,
  signAnswer,
} from './message-signature.js';

/** The content-codings a signed answer may be sent in, best first. */
type Coding = 'br' | 'gzip' | 'identity';

/**
 * The coding of an answer to a request with `accept` as its `Accept-Encoding`: br, then
 * gzip, as the prelude's `compression` prefers them, among those of the highest q-value;
 * identity when neither is acceptable.
 */
export function codingFor(accept: string | undefined): Coding {
  if (accept === undefined) return 'identity';
  const q = new Map<string, number>();
  for (const part of accept.split(',')) {
    const [name = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (name === '') continue;
    const weight = params.find((param) => param.startsWith('q='));
    const value = weight === undefined ? 1 : Number(weight.slice(2));
    q.set(name, Number.isFinite(value) ? value : 0);
  }
  const of = (name: string) => q.get(name) ?? q.get('*') ?? 0;
  const br = of('br');
  const gz = of('gzip');
  if (br <= 0 && gz <= 0) return 'identity';
  return br >= gz ? 'br' : 'gzip';
}

/** `body` in `coding`, on libuv's threads (brotli at quality 4, as the prelude's). */
function encode(body: Buffer, coding: 'br' | 'gzip'): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, result: Buffer) => (error ? reject(error) : resolve(result));
    if (coding === 'gzip') gzip(body, done);
    else brotliCompress(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }, done);
  });
}

/**
 * Write a JSON answer signed with RFC 9421 (docs/decisions.md, "Signed HTTP answers
 * (RFC 9421)"): the answer's own headers must be set already. A body of
 * `COMPRESS_FROM_BYTES` and more is encoded here when the request accepts br or gzip,
 * so that `Content-Digest` covers the bytes as sent; the prelude's compression then sees
 * an encoded answer and leaves it. Resolves once the answer is handed to `res.end`
 * (or the connection is gone). `target`: the request target signed (default `req.url`).
 * `ready`: the answer is built and signed at once, and handed to `res.end` once `ready`
 * has resolved (the key door's statement that counts the call off its calls in flight).
 */
export async function endSigned(
  req: IncomingMessage,
  res: ServerResponse,
  key: HttpSignatureKey,
  status: number,
  json: string,
  target: string = req.url ?? '/',
  ready?: Promise<void>,
): Promise<void> {
  let body: string | Buffer = json;
  const length = Buffer.byteLength(json, 'utf8');
  if (length >= COMPRESS_FROM_BYTES) {
    const coding = codingFor(headerOf(req, 'accept-encoding'));
    if (coding !== 'identity') {
      body = await encode(Buffer.from(json, 'utf8'), coding);
      if (res.destroyed || res.headersSent) return;
      res.setHeader('Content-Encoding', coding);
    }
    const vary = res.getHeader('Vary');
    if (vary === undefined) res.setHeader('Vary', 'Accept-Encoding');
    else if (!/accept-encoding/i.test(String(vary)))
      res.setHeader('Vary', `${vary}, Accept-Encoding`);
  }
  res.statusCode = status;
  const digest = contentDigest(body);
  const signature = signAnswer(key, {
    status,
    method: req.method ?? 'GET',
    target,
    digest,
    payment: paymentResponseOf((name) => res.getHeader(name)),
    provenance: provenanceHeaderOf(res),
  });
  res.setHeader('Content-Digest', digest);
  res.setHeader('Signature-Input', signature['signature-input']);
  res.setHeader('Signature', signature.signature);
  res.setHeader('Content-Length', typeof body === 'string' ? length : body.length);
  if (ready !== undefined) {
    await ready;
    if (res.destroyed) return;
  }
  if (typeof body === 'string') res.end(body, 'utf8');
  else res.end(body);
}

/** The answer's `Response-Provenance` header, when it has one. */
function provenanceHeaderOf(res: ServerResponse): string | undefined {
  const value = res.getHeader('response-provenance');
  return value === undefined ? undefined : String(value);
}

function headerOf(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Where `signedJson` keeps a response's signed writer. */
const SIGNED_END = Symbol('signedEnd');

type SignedEnd = (status: number, json: string) => void;

/** The signed writer `signedJson` gave `res`, if any (the error handler's 500 uses it). */
export function signedEndOf(res: ServerResponse): SignedEnd | undefined {
  return (res as ServerResponse & { [SIGNED_END]?: SignedEnd })[SIGNED_END];
}

/**
 * Express middleware: every `res.json` of the request after it (its handler's answer and
 * the error handler's refusal alike) goes out signed through `endSigned`, as JSON with
 * no ETag (an answer is not `304`-able without its signed body); so does the 500 of an
 * unexpected error (`signedEndOf`).
 */
export function signedJson(key: HttpSignatureKey): RequestHandler {
  return (req, res, next) => {
    const target = req.originalUrl;
    const end: SignedEnd = (status, json) => {
      endSigned(req, res, key, status, json, target).catch((error) => res.destroy(error as Error));
    };
    (res as typeof res & { [SIGNED_END]?: SignedEnd })[SIGNED_END] = end;
    res.json = (body: unknown) => {
      if (res.getHeader('Content-Type') === undefined) {
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
      }
      end(res.statusCode, JSON.stringify(body));
      return res;
    };
    next();
  };
}
