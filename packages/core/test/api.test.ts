import { describe, expect, it } from 'vitest';
import * as core from '../src/index.js';
import {
  ERROR_CATALOGUE,
  ERROR_CODES,
  ERROR_STATUS,
  fail,
  httpStatusOf,
  isAnswerCode,
  isErrorCode,
  isSha256Hex,
  joinRows,
  ok,
  StorefrontError,
  sha256Hex,
  UPSTREAM_ERROR_CODES,
  URL_MAX_CHARS,
  utf8ByteLength,
} from '../src/index.js';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(core).sort()).toStrictEqual([
      'CUT_MARK',
      'DECODE_CHUNK_BYTES',
      'ERROR_CATALOGUE',
      'ERROR_CODES',
      'ERROR_STATUS',
      'GRADE_CUTOFFS',
      'GRADE_SUMMARY_SCHEMA',
      'MERKLE_TREE',
      'RECEIPT_RULE_KINDS',
      'StorefrontError',
      'UPSTREAM_ERROR_CODES',
      'URL_MAX_CHARS',
      'canonicalize',
      'capString',
      'codePointLength',
      'decodeBytes',
      'decodeChunks',
      'fail',
      'gradeSummary',
      'httpStatusOf',
      'isAnswerCode',
      'isErrorCode',
      'isSha256Hex',
      'joinRows',
      'markCut',
      'merkleRoot',
      'ok',
      'parseContentType',
      'readOptions',
      'sha256Hex',
      'sliceText',
      'typeName',
      'utf8ByteLength',
    ]);
  });
});

describe('readOptions', () => {
  it('treats null and undefined as no options', () => {
    expect(core.readOptions(undefined, ['a'], 'f')).toStrictEqual({});
    expect(core.readOptions(null, [], 'f')).toStrictEqual({});
  });

  it('returns a known option as given', () => {
    expect(core.readOptions({ a: 1 }, ['a', 'b'], 'f')).toStrictEqual({ a: 1 });
  });

  it.each([
    ['text', 'Expected the options of `f` to be an object, null or undefined, got `string`'],
    [[1], 'Expected the options of `f` to be an object, null or undefined, got `array`'],
    [{ z: 1, c: 2 }, 'Unknown option `c`: `f` takes `a`, `b`'],
  ])('throws invalid_params for %j', (options, message) => {
    expect(() => core.readOptions(options, ['a', 'b'], 'f')).toThrow(
      new core.StorefrontError('invalid_params', message),
    );
  });

  it('says when a function takes no options at all', () => {
    expect(() => core.readOptions({ x: 1 }, [], 'toMarkdown')).toThrow(
      'Unknown option `x`: `toMarkdown` takes no options',
    );
  });
});

describe('error catalogue', () => {
  it('documents every code exactly once, in the same order', () => {
    expect(ERROR_CATALOGUE.map((entry) => entry.code)).toStrictEqual([...ERROR_CODES]);
  });

  it('holds the DESIGN §7 upstream codes', () => {
    for (const code of [
      'invalid_url',
      'blocked_ssrf',
      'dns_failure',
      'timeout',
      'connection_refused',
      'connection_reset',
      'tls_error',
      'redirect_loop',
      'too_many_redirects',
      'body_too_large',
      'upstream_http_error',
      'unsupported_content_type',
      'parse_error',
    ]) {
      expect(isErrorCode(code)).toBe(true);
    }
    expect(isErrorCode('ssrf')).toBe(false);
    expect(isErrorCode(7)).toBe(false);
  });

  it('keeps the documented order of the codes', () => {
    expect([...ERROR_CODES]).toStrictEqual([
      'invalid_params',
      'invalid_key',
      'payment_required',
      'payment_invalid',
      'payment_mismatch',
      'payment_expired',
      'payment_replayed',
      'payment_rejected',
      'settlement_failed',
      'facilitator_unavailable',
      'draining',
      'sandbox_exhausted',
      'insufficient_credits',
      'rate_limited',
      'too_many_in_flight',
      'not_found',
      'method_not_allowed',
      'request_too_large',
      'invalid_url',
      'blocked_ssrf',
      'dns_failure',
      'timeout',
      'connection_refused',
      'connection_reset',
      'tls_error',
      'protocol_error',
      'redirect_loop',
      'too_many_redirects',
      'body_too_large',
      'upstream_http_error',
      'unsupported_content_type',
      'parse_error',
      'robots_disallowed',
      'not_content',
      'page_too_complex',
      'internal_error',
    ]);
  });

  it('lists as upstream codes exactly the catalogue entries emitted upstream, in order', () => {
    const upstream = ERROR_CATALOGUE.filter((entry) => entry.origin === 'upstream');
    expect(upstream.map((entry) => entry.code)).toStrictEqual([...UPSTREAM_ERROR_CODES]);
    expect(Object.isFrozen(UPSTREAM_ERROR_CODES)).toBe(true);
    expect(Object.isFrozen(ERROR_CODES)).toBe(true);
  });

  it('keeps codes snake_case', () => {
    for (const code of ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z0-9]+)*$/);
  });

  it('gives every code exactly one status: a fixed HTTP status, or delivery in a result', () => {
    expect(Object.keys(ERROR_STATUS).sort()).toStrictEqual([...ERROR_CODES].sort());
    for (const entry of ERROR_CATALOGUE) {
      expect(entry.status).toBe(ERROR_STATUS[entry.code]);
      const status = entry.status;
      if (status === 'result') {
        // Reported inside a result: the route's charge rule picks 200 or 503.
        expect(['upstream', 'product']).toContain(entry.origin);
        expect(isAnswerCode(entry.code)).toBe(false);
        expect(httpStatusOf(entry.code, false)).toBe(200);
        expect(httpStatusOf(entry.code, true)).toBe(503);
      } else {
        // Answered by the service itself: the same status on every route.
        expect(['request', 'door', 'service']).toContain(entry.origin);
        expect(isAnswerCode(entry.code)).toBe(true);
        expect(status).toBeGreaterThanOrEqual(400);
        expect(httpStatusOf(entry.code, false)).toBe(status);
        expect(httpStatusOf(entry.code, true)).toBe(status);
        expect(new StorefrontError(entry.code, 'x').status).toBe(status);
      }
    }
    expect(ERROR_STATUS).toMatchObject({
      not_found: 404,
      method_not_allowed: 405,
      request_too_large: 413,
      rate_limited: 429,
      too_many_in_flight: 429,
      page_too_complex: 503,
    });
  });

  it('carries code, status, details and cause on StorefrontError', () => {
    const cause = new Error('inner');
    const error = new StorefrontError('invalid_params', 'Expected `url`', {
      details: [{ path: '/url' }],
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('StorefrontError');
    expect(error.code).toBe('invalid_params');
    expect(error.status).toBe(400);
    expect(error.details).toStrictEqual([{ path: '/url' }]);
    expect(error.cause).toBe(cause);
  });
});

describe('parameter limits', () => {
  it("limits a URL to the spec's 2048 characters", () => {
    expect(URL_MAX_CHARS).toBe(2048);
  });
});

describe('result builders', () => {
  it('builds a success with and without extra', () => {
    expect(ok('t', { a: 1 })).toStrictEqual({ ok: true, text: 't', data: { a: 1 } });
    expect(ok('t', 1, { title: 'x' })).toStrictEqual({
      ok: true,
      text: 't',
      data: 1,
      extra: { title: 'x' },
    });
  });

  it('builds a failure with only the fields given', () => {
    expect(fail('parse_error')).toStrictEqual({ ok: false, error: 'parse_error' });
    expect(fail<{ a: number }>('timeout', 'slow', { a: 1 })).toStrictEqual({
      ok: false,
      error: 'timeout',
      message: 'slow',
      data: { a: 1 },
    });
  });
});

describe('hashes', () => {
  it('matches the FIPS 180-2 sha256 vectors', () => {
    expect(sha256Hex('abc')).toBe(
      '0xba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(sha256Hex('')).toBe(
      '0xe3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
    );
    expect(sha256Hex(new Uint8Array([0x61, 0x62, 0x63]))).toBe(sha256Hex('abc'));
  });

  it('hashes strings as UTF-8', () => {
    expect(sha256Hex('é')).toBe(sha256Hex(new Uint8Array([0xc3, 0xa9])));
    expect(utf8ByteLength('é€😀')).toBe(2 + 3 + 4);
  });

  it('recognises well-formed digests only', () => {
    expect(isSha256Hex(sha256Hex('x'))).toBe(true);
    expect(isSha256Hex(sha256Hex('x').toUpperCase())).toBe(false);
    expect(isSha256Hex('0x1234')).toBe(false);
  });
});

describe('joinRows', () => {
  it('joins rows with \\n and cells with \\t, without a trailing newline', () => {
    expect(joinRows([['Home', 'https://a.example/'], 'plain', ['', 'https://b.example/']])).toBe(
      'Home\thttps://a.example/\nplain\n\thttps://b.example/',
    );
    expect(joinRows([])).toBe('');
  });

  it.each([[[['a\tb', 'c']]], [[['a\nb']]], [['a\r']]])(
    'refuses cells that would make the text ambiguous: %j',
    (rows) => {
      expect(() => joinRows(rows)).toThrow(StorefrontError);
    },
  );

  it('allows tabs inside a plain string row', () => {
    expect(joinRows(['a\tb'])).toBe('a\tb');
  });
});

describe('README', () => {
  it('documents every error code in its table', async () => {
    const { readFileSync } = await import('node:fs');
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    for (const entry of ERROR_CATALOGUE) {
      const row = readme.split('\n').find((line) => line.startsWith(`| \`${entry.code}\` |`));
      expect(row, entry.code).toBeDefined();
      // The HTTP status column says what ERROR_STATUS says.
      const status = (row as string).split(' | ')[2];
      expect(status, entry.code).toBe(
        entry.status === 'result'
          ? '200 `ok:false` (503 where the route answers before charging)'
          : String(entry.status),
      );
    }
  });
});
