import { errors } from 'undici';
import { describe, expect, it } from 'vitest';
import {
  BLOCKED,
  DEADLINE,
  ERROR_TABLE,
  GuardError,
  mapError,
  UPSTREAM_ERROR_CODES,
} from '../src/errors.js';
import type { UpstreamErrorCode } from '../src/index.js';

/** A Node system error as `net`, `dns` and `tls` raise it. */
function systemError(code: string, message = `${code.toLowerCase()} 10.1.2.3:443`): Error {
  return Object.assign(new Error(message), { code, syscall: 'connect', address: '10.1.2.3' });
}

const context = { url: new URL('https://shop.example:8443/p'), timeoutMs: 5000 };

// One scenario per code, as undici's test/errors.js tests its catalogue: the error as it
// is really raised, the code we answer, and the message a client sees.
const SCENARIOS: ReadonlyArray<
  readonly [name: string, error: unknown, code: UpstreamErrorCode, message: string | RegExp]
> = [
  [
    'guard refusal',
    new GuardError(BLOCKED, 'Refused to connect to `x`: it is a loopback address'),
    'blocked_ssrf',
    'Refused to connect to `x`: it is a loopback address',
  ],
  [
    'our deadline',
    new GuardError(DEADLINE, 'late'),
    'timeout',
    'No complete answer within 5000 ms',
  ],
  [
    'UND_ERR_CONNECT_TIMEOUT',
    new errors.ConnectTimeoutError(),
    'timeout',
    'Could not connect to `shop.example:8443` within 5000 ms',
  ],
  [
    'UND_ERR_HEADERS_TIMEOUT',
    new errors.HeadersTimeoutError(),
    'timeout',
    'No response headers from `shop.example:8443` within 5000 ms',
  ],
  [
    'UND_ERR_BODY_TIMEOUT',
    new errors.BodyTimeoutError(),
    'timeout',
    'The body from `shop.example:8443` stalled for 5000 ms',
  ],
  [
    'ETIMEDOUT',
    systemError('ETIMEDOUT'),
    'timeout',
    'Could not connect to `shop.example:8443` within 5000 ms',
  ],
  [
    'ECONNREFUSED',
    systemError('ECONNREFUSED'),
    'connection_refused',
    'Connection refused by `shop.example:8443`',
  ],
  [
    'EHOSTUNREACH',
    systemError('EHOSTUNREACH'),
    'connection_refused',
    'No route to `shop.example:8443`',
  ],
  [
    'ENETUNREACH',
    systemError('ENETUNREACH'),
    'connection_refused',
    'No route to `shop.example:8443`',
  ],
  [
    'ECONNRESET',
    systemError('ECONNRESET'),
    'connection_reset',
    'Connection to `shop.example:8443` was reset before the answer was complete',
  ],
  [
    'EPIPE',
    systemError('EPIPE'),
    'connection_reset',
    'Connection to `shop.example:8443` was reset before the answer was complete',
  ],
  [
    'UND_ERR_SOCKET',
    new errors.SocketError('other side closed'),
    'connection_reset',
    'Connection to `shop.example:8443` closed before the answer was complete',
  ],
  [
    'UND_ERR_CLOSED',
    new errors.ClientClosedError(),
    'connection_reset',
    /closed before the answer/,
  ],
  [
    'UND_ERR_DESTROYED',
    new errors.ClientDestroyedError(),
    'connection_reset',
    /closed before the answer/,
  ],
  [
    'UND_ERR_ABORTED',
    new errors.RequestAbortedError(),
    'connection_reset',
    /closed before the answer/,
  ],
  [
    'ERR_STREAM_PREMATURE_CLOSE',
    systemError('ERR_STREAM_PREMATURE_CLOSE', 'Premature close'),
    'connection_reset',
    /closed before the answer/,
  ],
  [
    'ENOTFOUND',
    systemError('ENOTFOUND', 'getaddrinfo ENOTFOUND shop.example'),
    'dns_failure',
    'Host `shop.example` did not resolve (ENOTFOUND)',
  ],
  [
    'EAI_AGAIN',
    systemError('EAI_AGAIN'),
    'dns_failure',
    'Host `shop.example` did not resolve (EAI_AGAIN)',
  ],
  [
    'EAI_NONAME',
    systemError('EAI_NONAME'),
    'dns_failure',
    'Host `shop.example` did not resolve (EAI_NONAME)',
  ],
  [
    'EAI_FAIL',
    systemError('EAI_FAIL'),
    'dns_failure',
    'Host `shop.example` did not resolve (EAI_FAIL)',
  ],
  [
    'ENODATA',
    systemError('ENODATA'),
    'dns_failure',
    'Host `shop.example` did not resolve (ENODATA)',
  ],
  [
    'CERT_HAS_EXPIRED',
    systemError('CERT_HAS_EXPIRED', 'certificate has expired'),
    'tls_error',
    'TLS handshake with `shop.example` failed: certificate has expired (CERT_HAS_EXPIRED)',
  ],
  [
    'ERR_TLS_CERT_ALTNAME_INVALID',
    systemError(
      'ERR_TLS_CERT_ALTNAME_INVALID',
      "Hostname/IP does not match certificate's altnames",
    ),
    'tls_error',
    /^TLS handshake with `shop\.example` failed: Hostname\/IP does not match/,
  ],
  [
    'ERR_SSL_WRONG_VERSION_NUMBER',
    systemError(
      'ERR_SSL_WRONG_VERSION_NUMBER',
      '80CC8DA09B7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n',
    ),
    'tls_error',
    'TLS handshake with `shop.example` failed: wrong version number (ERR_SSL_WRONG_VERSION_NUMBER)',
  ],
  [
    'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    systemError('UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'unable to verify the first certificate'),
    'tls_error',
    /unable to verify the first certificate/,
  ],
  [
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    systemError('DEPTH_ZERO_SELF_SIGNED_CERT', 'self-signed certificate'),
    'tls_error',
    /self-signed certificate/,
  ],
  [
    'SELF_SIGNED_CERT_IN_CHAIN',
    systemError('SELF_SIGNED_CERT_IN_CHAIN', 'self-signed certificate in certificate chain'),
    'tls_error',
    /in certificate chain/,
  ],
  [
    'HOSTNAME_MISMATCH',
    systemError('HOSTNAME_MISMATCH', 'hostname mismatch'),
    'tls_error',
    /hostname mismatch/,
  ],
  [
    'UND_ERR_HEADERS_OVERFLOW',
    new errors.HeadersOverflowError(),
    'protocol_error',
    '`shop.example:8443` sent response headers larger than 16384 bytes',
  ],
  [
    'HPE_INVALID_CONSTANT',
    Object.assign(new Error('Expected HTTP/'), { code: 'HPE_INVALID_CONSTANT' }),
    'protocol_error',
    '`shop.example:8443` sent a malformed HTTP response (HPE_INVALID_CONSTANT)',
  ],
  [
    'HTTPParserError without a code',
    new errors.HTTPParserError('Response does not match the HTTP/1.1 protocol'),
    'protocol_error',
    '`shop.example:8443` sent a malformed HTTP response (HTTPParserError)',
  ],
  [
    'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
    new errors.ResponseContentLengthMismatchError(),
    'protocol_error',
    /malformed HTTP response/,
  ],
  [
    'UND_ERR_INFO',
    new errors.InformationalError('reset'),
    'connection_reset',
    /closed before the answer/,
  ],
  [
    'Z_DATA_ERROR',
    systemError('Z_DATA_ERROR', 'incorrect header check'),
    'protocol_error',
    'The compressed body is corrupt and cannot be decoded (Z_DATA_ERROR)',
  ],
  [
    'Z_BUF_ERROR',
    systemError('Z_BUF_ERROR', 'unexpected end of file'),
    'protocol_error',
    /\(Z_BUF_ERROR\)$/,
  ],
  [
    'brotli format error',
    systemError('ERR__ERROR_FORMAT_PADDING_2', 'Decompression failed'),
    'protocol_error',
    /\(ERR__ERROR_FORMAT_PADDING_2\)$/,
  ],
  [
    'UND_ERR_INVALID_ARG',
    new errors.InvalidArgumentError('invalid method'),
    'internal_error',
    'Internal error: invalid method',
  ],
  [
    'an unknown system code',
    systemError('ENOBUFS'),
    'connection_reset',
    'Connection to `shop.example:8443` failed (ENOBUFS)',
  ],
  [
    'an error with no code',
    new TypeError('x is not a function'),
    'internal_error',
    'Internal error: x is not a function',
  ],
  ['a thrown string', 'boom', 'internal_error', 'Internal error: boom'],
  [
    'a code found on the cause',
    new Error('fetch failed', { cause: systemError('ECONNREFUSED') }),
    'connection_refused',
    'Connection refused by `shop.example:8443`',
  ],
  [
    'a code found in an AggregateError',
    new AggregateError([systemError('ECONNREFUSED'), systemError('ENETUNREACH')]),
    'connection_refused',
    'Connection refused by `shop.example:8443`',
  ],
];

describe('mapError', () => {
  it.each(SCENARIOS)('maps %s', (_name, error, code, message) => {
    const mapped = mapError(error, context);
    expect(mapped.error).toBe(code);
    if (typeof message === 'string') expect(mapped.message).toBe(message);
    else expect(mapped.message).toMatch(message);
  });

  it('never repeats the resolved address from a Node message', () => {
    for (const [, error] of SCENARIOS) {
      expect(mapError(error, context).message).not.toContain('10.1.2.3');
    }
  });

  it('words messages without a URL', () => {
    expect(mapError(systemError('ECONNREFUSED'), { timeoutMs: 1 }).message).toBe(
      'Connection refused by the host',
    );
  });

  it('has a scenario for every row of the table', () => {
    for (const row of ERROR_TABLE) {
      const hit = SCENARIOS.some(([name, error]) => {
        const code = (error as { code?: string }).code ?? (error as { name?: string }).name ?? name;
        return row.code.endsWith('*') ? code.startsWith(row.code.slice(0, -1)) : code === row.code;
      });
      expect(hit, `no scenario for ${row.code}`).toBe(true);
    }
  });

  it('only ever answers with a declared upstream code', () => {
    for (const row of ERROR_TABLE) expect(UPSTREAM_ERROR_CODES).toContain(row.error);
  });
});
