import { StorefrontError, sha256Hex } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import {
  checkNotarizeParams,
  NOTARIZE_MAX_CONTENT_BYTES,
  NOTARIZE_MAX_CONTENT_CHARS,
  type NotarizeErrorCode,
  type NotarizeInput,
  notarize,
  WELL_KNOWN_PATH,
} from '../src/index.js';

const AT = '2026-01-02T03:04:05.678Z';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'INLINE_SOURCE',
      'NOTARIZE_MAX_CONTENT_BYTES',
      'NOTARIZE_MAX_CONTENT_CHARS',
      'NOTARIZE_MAX_URL_CHARS',
      'NOTARIZE_STATEMENT_VERSION',
      'WELL_KNOWN_PATH',
      'checkNotarizeParams',
      'notarize',
      'receiptRule',
      'resultSchema',
    ]);
    expect(NOTARIZE_MAX_CONTENT_CHARS).toBe(262_144);
    expect(WELL_KNOWN_PATH).toBe('/.well-known/service-attestation');
  });
});

describe('error codes', () => {
  it.each<[NotarizeErrorCode, NotarizeInput]>([
    ['invalid_params', { content: 'x\udc00', witnessedAt: AT }],
    ['invalid_params', { content: 'a'.repeat(NOTARIZE_MAX_CONTENT_CHARS + 1), witnessedAt: AT }],
    ['invalid_url', { document: makeDocument('x', { url: 'ftp://a.example/' }) }],
    ['upstream_http_error', { document: makeDocument('x', { status: 500 }) }],
    ['upstream_http_error', { document: makeDocument('x', { status: 304 }) }],
    ['body_too_large', { document: makeDocument('x', { truncated: true }) }],
  ])('reports %s', (code, input) => {
    expect(notarize(input)).toMatchObject({ ok: false, error: code });
  });

  it('throws on misuse only', () => {
    expect(() => notarize({ content: 'x', witnessedAt: 'yesterday' })).toThrow(StorefrontError);
    expect(() => notarize({ content: 'x', witnessedAt: AT }, { baseUrl: 'ftp://x' })).toThrow(
      /baseUrl/,
    );
    expect(() => notarize(null as unknown as NotarizeInput)).toThrow(StorefrontError);
    expect(() =>
      notarize({ document: makeDocument('x'), text: 7 } as unknown as NotarizeInput),
    ).toThrow(/`text`/);
  });
});

describe('limits', () => {
  it('takes content up to 262144 UTF-8 bytes and refuses one more', () => {
    const fits = 'a'.repeat(NOTARIZE_MAX_CONTENT_BYTES - 3) + '€';
    expect(notarize({ content: fits, witnessedAt: AT })).toMatchObject({
      ok: true,
      data: { byteLength: NOTARIZE_MAX_CONTENT_BYTES },
    });
    const over = 'a'.repeat(NOTARIZE_MAX_CONTENT_BYTES - 2) + '€';
    expect(over.length).toBeLessThan(NOTARIZE_MAX_CONTENT_CHARS);
    expect(notarize({ content: over, witnessedAt: AT })).toMatchObject({
      ok: false,
      error: 'invalid_params',
      message: expect.stringContaining('UTF-8 bytes'),
    });
  });
});

describe('checkNotarizeParams', () => {
  it('wants exactly one of url and content', () => {
    expect(checkNotarizeParams({})).toMatchObject({ ok: false, error: 'invalid_params' });
    expect(checkNotarizeParams({ url: 'https://a.example/', content: 'x' })).toMatchObject({
      ok: false,
      details: [{ param: 'content', message: expect.stringContaining('got both') }],
    });
    expect(checkNotarizeParams({ url: 'https://a.example/' })).toStrictEqual({
      ok: true,
      kind: 'url',
    });
    expect(checkNotarizeParams({ content: '' })).toStrictEqual({ ok: true, kind: 'inline' });
  });

  it('refuses oversized, malformed and non-string values', () => {
    for (const params of [
      { url: 'https://a.example/'.padEnd(2049, 'x') },
      { url: 3 },
      { content: 'x'.repeat(NOTARIZE_MAX_CONTENT_CHARS + 1) },
      { content: '€'.repeat(NOTARIZE_MAX_CONTENT_CHARS / 2) },
      { content: '\ud800' },
      { content: null },
    ]) {
      expect(checkNotarizeParams(params).ok, JSON.stringify(params).slice(0, 40)).toBe(false);
    }
  });
});

describe('statements', () => {
  it('hashes the page text when given and the body bytes otherwise', () => {
    const document = makeDocument('<p>Body</p>');
    const withText = notarize({ document, text: 'Body' });
    const withBody = notarize({ document });
    expect(withText.ok && withText.data.contentHash).toBe(sha256Hex('Body'));
    expect(withBody.ok && withBody.data.contentHash).toBe(sha256Hex('<p>Body</p>'));
    expect(withText.ok && withText.text).toContain('\nsubject:page-text\n');
    expect(withBody.ok && withBody.text).toContain('\nsubject:page-body\n');
  });

  it('witnesses a page at its fetchedAt and names its final URL', () => {
    const document = makeDocument('x', {
      requestedUrl: 'http://a.example/',
      url: 'https://a.example/final',
      fetchedAt: AT,
    });
    expect(notarize({ document }).data).toMatchObject({
      source: 'https://a.example/final',
      sourceKind: 'url',
      witnessedAt: AT,
    });
  });
});
