import { StorefrontError, UPSTREAM_ERROR_CODES, URL_MAX_CHARS } from '@storefront/core';
import { describe, expect, it } from 'vitest';
import {
  AUDIT_DOMAIN_MAX_LENGTH,
  AUDIT_PATH_MAX_LENGTH,
  auditRobots,
  parseAuditOrigin,
  parseAuditPath,
} from '../src/index.js';

/** A `domain` of exactly `length` characters: a URL whose path pads it. */
function domainOf(length: number): string {
  const base = 'https://example.com/';
  return `${base}${'a'.repeat(length - base.length)}`;
}

describe('parameter limits', () => {
  it('bounds `domain` by core URL_MAX_CHARS: the limit passes, one more is refused', () => {
    expect(AUDIT_DOMAIN_MAX_LENGTH).toBe(URL_MAX_CHARS);
    expect(domainOf(AUDIT_DOMAIN_MAX_LENGTH)).toHaveLength(AUDIT_DOMAIN_MAX_LENGTH);
    expect(parseAuditOrigin(domainOf(AUDIT_DOMAIN_MAX_LENGTH))).toStrictEqual({
      ok: true,
      origin: 'https://example.com',
      host: 'example.com',
    });
    expect(parseAuditOrigin(domainOf(AUDIT_DOMAIN_MAX_LENGTH + 1))).toStrictEqual({
      ok: false,
      message: `Expected \`domain\` to have at most ${AUDIT_DOMAIN_MAX_LENGTH} characters, got ${AUDIT_DOMAIN_MAX_LENGTH + 1}`,
    });
  });

  it('bounds `path` by AUDIT_PATH_MAX_LENGTH: the limit passes, one more is refused', () => {
    expect(AUDIT_PATH_MAX_LENGTH).toBe(1024);
    const path = `/${'a'.repeat(AUDIT_PATH_MAX_LENGTH - 1)}`;
    expect(parseAuditPath(path)).toStrictEqual({ ok: true, path });
    expect(parseAuditPath(`${path}a`)).toStrictEqual({
      ok: false,
      message: `Expected \`path\` to have at most ${AUDIT_PATH_MAX_LENGTH} characters, got ${AUDIT_PATH_MAX_LENGTH + 1}`,
    });
  });
});

describe('fetch error codes', () => {
  const robotsTxt = { ok: true, doc: { status: 404, bytes: new Uint8Array() } } as const;
  const fetchCodes = [
    ...UPSTREAM_ERROR_CODES.filter((code) => code !== 'upstream_http_error'),
    'internal_error' as const,
  ];

  it.each(fetchCodes)('takes a file that failed with core upstream code %s', (error) => {
    expect(() =>
      auditRobots({ origin: 'example.com', robotsTxt, llmsTxt: { ok: false, error } }),
    ).not.toThrow();
  });

  it('refuses upstream_http_error: an error status is a response', () => {
    expect(() =>
      auditRobots({
        origin: 'example.com',
        robotsTxt,
        llmsTxt: { ok: false, error: 'upstream_http_error' as never },
      }),
    ).toThrow(StorefrontError);
  });
});
