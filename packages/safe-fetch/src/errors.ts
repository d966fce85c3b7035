import {
  UPSTREAM_ERROR_CODES as CORE_UPSTREAM_ERROR_CODES,
  type UpstreamErrorCode as CoreUpstreamErrorCode,
} from '@storefront/core';
import type { UpstreamErrorCode } from './types.js';

/**
 * Core's upstream codes the fetcher never produces: an error status is a document (a
 * product reports `upstream_http_error`), and an over-long body is a truncated document
 * (a product that needs it whole reports `body_too_large`).
 */
export const NOT_FETCH_FAILURES = Object.freeze([
  'body_too_large',
  'upstream_http_error',
] as const satisfies readonly CoreUpstreamErrorCode[]);

/**
 * Every code a fetch can fail with, in the order the README documents them: core's
 * upstream codes but {@link NOT_FETCH_FAILURES}, then `internal_error` for a fault of
 * our own (an error with no code at all).
 */
export const UPSTREAM_ERROR_CODES: readonly UpstreamErrorCode[] = Object.freeze([
  ...CORE_UPSTREAM_ERROR_CODES.filter(isFetchFailure),
  'internal_error',
]);

function isFetchFailure(
  code: CoreUpstreamErrorCode,
): code is Exclude<UpstreamErrorCode, 'internal_error'> {
  return !(NOT_FETCH_FAILURES as readonly string[]).includes(code);
}

/** The code of the guard's own refusal, raised inside the connector. */
export const BLOCKED = 'ERR_SAFE_FETCH_BLOCKED';
/** The code of the wall-clock deadline, used as the abort reason. */
export const DEADLINE = 'ERR_SAFE_FETCH_DEADLINE';

/** An error raised by the guard itself, carrying one of the codes above. */
export class GuardError extends Error {
  override readonly name = 'GuardError';
  readonly code: string;

  constructor(code: string, message: string) {
    super(message);
    this.code = code;
  }
}

/** What a mapped error says: our code and a message that is safe to show a client. */
export interface MappedError {
  readonly error: UpstreamErrorCode;
  readonly message: string;
}

/** What a message may mention: the URL being fetched (never its resolved address) and the deadline. */
export interface ErrorContext {
  readonly url?: URL | undefined;
  readonly timeoutMs: number;
}

interface ErrorRow {
  /** An exact code, or a prefix ending in `*`. */
  readonly code: string;
  readonly error: UpstreamErrorCode;
  readonly message: (context: ErrorContext, error: ErrorLike) => string;
}

interface ErrorLike {
  readonly code: string;
  readonly message: string;
}

const deadline = (c: ErrorContext) => `No complete answer within ${c.timeoutMs} ms`;
const noConnect = (c: ErrorContext) => `Could not connect to ${target(c)} within ${c.timeoutMs} ms`;
const refused = (c: ErrorContext) => `Connection refused by ${target(c)}`;
const unreachable = (c: ErrorContext) => `No route to ${target(c)}`;
const reset = (c: ErrorContext) =>
  `Connection to ${target(c)} was reset before the answer was complete`;
const closed = (c: ErrorContext) =>
  `Connection to ${target(c)} closed before the answer was complete`;
const dns = (c: ErrorContext, e: ErrorLike) => `Host ${host(c)} did not resolve (${e.code})`;
// Node's TLS messages name the certificate problem, never the peer address.
const tls = (c: ErrorContext, e: ErrorLike) =>
  `TLS handshake with ${host(c)} failed: ${tlsReason(e.message)} (${e.code})`;
const malformed = (c: ErrorContext, e: ErrorLike) =>
  `${target(c)} sent a malformed HTTP response (${e.code})`;
const cutShort = (c: ErrorContext, e: ErrorLike) =>
  `The compressed body from ${target(c)} ends before its compressed stream does: it was cut short (${e.code})`;
const corrupt = (_: ErrorContext, e: ErrorLike) =>
  `The compressed body is corrupt and cannot be decoded (${e.code})`;

/**
 * The one mapping from undici and Node error codes to ours (checked top to bottom; a
 * code ending in `*` is a prefix). Messages are written here rather than passed through,
 * because Node's network messages contain the resolved IP, which clients must not see.
 */
export const ERROR_TABLE: readonly ErrorRow[] = Object.freeze([
  // The guard's own refusal: its message is already written for the client.
  { code: BLOCKED, error: 'blocked_ssrf', message: (_, e) => e.message },
  // Deadlines. undici's own timers are idle timers; ours is the wall clock.
  { code: DEADLINE, error: 'timeout', message: deadline },
  { code: 'UND_ERR_CONNECT_TIMEOUT', error: 'timeout', message: noConnect },
  {
    code: 'UND_ERR_HEADERS_TIMEOUT',
    error: 'timeout',
    message: (c) => `No response headers from ${target(c)} within ${c.timeoutMs} ms`,
  },
  {
    code: 'UND_ERR_BODY_TIMEOUT',
    error: 'timeout',
    message: (c) => `The body from ${target(c)} stalled for ${c.timeoutMs} ms`,
  },
  { code: 'ETIMEDOUT', error: 'timeout', message: noConnect },
  // Nobody accepted the connection.
  { code: 'ECONNREFUSED', error: 'connection_refused', message: refused },
  { code: 'EHOSTUNREACH', error: 'connection_refused', message: unreachable },
  { code: 'ENETUNREACH', error: 'connection_refused', message: unreachable },
  // The connection broke after it was made.
  { code: 'ECONNRESET', error: 'connection_reset', message: reset },
  { code: 'EPIPE', error: 'connection_reset', message: reset },
  { code: 'UND_ERR_SOCKET', error: 'connection_reset', message: closed },
  { code: 'UND_ERR_CLOSED', error: 'connection_reset', message: closed },
  { code: 'UND_ERR_DESTROYED', error: 'connection_reset', message: closed },
  { code: 'UND_ERR_ABORTED', error: 'connection_reset', message: closed },
  { code: 'ERR_STREAM_PREMATURE_CLOSE', error: 'connection_reset', message: closed },
  { code: 'UND_ERR_INFO', error: 'connection_reset', message: closed },
  // The name did not resolve.
  { code: 'ENOTFOUND', error: 'dns_failure', message: dns },
  { code: 'EAI_AGAIN', error: 'dns_failure', message: dns },
  { code: 'EAI_NONAME', error: 'dns_failure', message: dns },
  { code: 'EAI_FAIL', error: 'dns_failure', message: dns },
  { code: 'ENODATA', error: 'dns_failure', message: dns },
  // TLS: certificate, protocol and cipher failures.
  { code: 'CERT_*', error: 'tls_error', message: tls },
  { code: 'ERR_TLS_*', error: 'tls_error', message: tls },
  { code: 'ERR_SSL_*', error: 'tls_error', message: tls },
  { code: 'UNABLE_TO_*', error: 'tls_error', message: tls },
  { code: 'DEPTH_ZERO_SELF_SIGNED_CERT', error: 'tls_error', message: tls },
  { code: 'SELF_SIGNED_CERT_IN_CHAIN', error: 'tls_error', message: tls },
  { code: 'HOSTNAME_MISMATCH', error: 'tls_error', message: tls },
  // Not usable HTTP.
  {
    code: 'UND_ERR_HEADERS_OVERFLOW',
    error: 'protocol_error',
    message: (c) => `${target(c)} sent response headers larger than 16384 bytes`,
  },
  { code: 'HPE_*', error: 'protocol_error', message: malformed },
  // undici 7 leaves `code` undefined on its parser error, so its class name stands in.
  { code: 'HTTPParserError', error: 'protocol_error', message: malformed },
  { code: 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH', error: 'protocol_error', message: malformed },
  // Content-coding: zlib (gzip, deflate) and brotli decoder failures. A compressed
  // stream that stops before its end is a body cut short in transit, not a short page.
  { code: 'Z_BUF_ERROR', error: 'protocol_error', message: cutShort },
  { code: 'Z_*', error: 'protocol_error', message: corrupt },
  { code: 'ERR__ERROR_*', error: 'protocol_error', message: corrupt },
  // Misuse of undici by this package is a bug, not a network fault.
  {
    code: 'UND_ERR_INVALID_ARG',
    error: 'internal_error',
    message: (_, e) => `Internal error: ${e.message}`,
  },
]);

/**
 * Map anything a fetch threw to our code and a client-safe message, by {@link ERROR_TABLE}.
 * An unknown code (a system error nobody listed) is treated as a broken connection,
 * `connection_reset`; an error with no code at all is our own bug, `internal_error`.
 */
export function mapError(error: unknown, context: ErrorContext): MappedError {
  const found = findCode(error);
  if (found === null) {
    const message = error instanceof Error ? error.message : String(error);
    return { error: 'internal_error', message: `Internal error: ${message}` };
  }
  for (const row of ERROR_TABLE) {
    const matches = row.code.endsWith('*')
      ? found.code.startsWith(row.code.slice(0, -1))
      : found.code === row.code;
    if (matches) return { error: row.error, message: row.message(context, found) };
  }
  return {
    error: 'connection_reset',
    message: `Connection to ${target(context)} failed (${found.code})`,
  };
}

/** The first error code on the error, its causes, or an AggregateError's members. */
function findCode(error: unknown, depth = 0): ErrorLike | null {
  if (error === null || typeof error !== 'object' || depth > 4) return null;
  const record = error as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  const message = typeof record.message === 'string' ? record.message : '';
  if (typeof record.code === 'string' && record.code !== '') return { code: record.code, message };
  if (record.name === 'HTTPParserError') return { code: record.name, message };
  if (Array.isArray(record.errors)) {
    for (const member of record.errors) {
      const found = findCode(member, depth + 1);
      if (found !== null) return found;
    }
  }
  return findCode(record.cause, depth + 1);
}

/** The reason of an OpenSSL message (`…:error:0A00010B:SSL routines:func:reason:file:line:`). */
function tlsReason(message: string): string {
  const line = message.split('\n')[0] ?? '';
  if (/^[0-9A-F]+:error:/.test(line)) return line.split(':')[5] ?? 'handshake error';
  return line === '' ? 'handshake error' : line;
}

function host(context: ErrorContext): string {
  return context.url === undefined ? 'the host' : `\`${context.url.hostname}\``;
}

function target(context: ErrorContext): string {
  if (context.url === undefined) return 'the host';
  const { hostname, port, protocol } = context.url;
  return `\`${hostname}:${port === '' ? (protocol === 'https:' ? '443' : '80') : port}\``;
}
