import { canonicalize } from '@storefront/core';
import { makeDocument, scalingRatio } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import {
  HEADERS_GRADE_CUTOFFS,
  HEADERS_RUBRIC,
  HEADERS_RUBRIC_CHECKS,
  type HeadersData,
  inspectHeaders,
} from '../src/index.js';

function grade(headers: Record<string, string>, url = 'https://a.example/'): HeadersData {
  const result = inspectHeaders(makeDocument('', { url, headers, contentType: null }));
  if (!result.ok) throw new Error(`expected ok, got ${result.error}`);
  return result.data;
}

function check(data: HeadersData, label: string) {
  const found = data.checks.find((c) => c.label.startsWith(label));
  if (found === undefined) throw new Error(`no check ${label}`);
  return found;
}

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'HEADERS_GRADE_CUTOFFS',
      'HEADERS_MAX_NOTE_CHARS',
      'HEADERS_MAX_VALUE_CHARS',
      'HEADERS_RUBRIC',
      'HEADERS_RUBRIC_CHECKS',
      'inspectHeaders',
      'receiptRule',
      'resultSchema',
    ]);
  });

  it('has a versioned rubric whose weights sum to 100', () => {
    expect(HEADERS_RUBRIC).toBe('headers-rubric/1');
    expect(HEADERS_RUBRIC_CHECKS.reduce((sum, row) => sum + row.weight, 0)).toBe(100);
    expect(new Set(HEADERS_RUBRIC_CHECKS.map((row) => row.id)).size).toBe(
      HEADERS_RUBRIC_CHECKS.length,
    );
    expect(HEADERS_GRADE_CUTOFFS.map(([g]) => g)).toStrictEqual(['A', 'B', 'C', 'D', 'E']);
  });
});

describe('error codes', () => {
  it('reports invalid_url when the document URL is not http(s)', () => {
    const result = inspectHeaders(makeDocument('', { url: 'file:///etc/passwd' }));
    expect(result).toMatchObject({ ok: false, error: 'invalid_url' });
    expect(inspectHeaders(makeDocument('', { url: 'not a url' }))).toMatchObject({
      ok: false,
      error: 'invalid_url',
    });
  });
});

describe('grading', () => {
  it('gives each grade by the documented cut-offs', () => {
    // Drive the percentage through the rubric: full marks minus chosen checks.
    const full: Record<string, string> = {
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'content-security-policy': "default-src 'none'; script-src 'self'; frame-ancestors 'self'",
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'permissions-policy': 'camera=()',
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-site',
    };
    expect(grade(full)).toMatchObject({ grade: 'A', score: 100, percentage: 100, failed: 0 });
    const { 'referrer-policy': _r, 'permissions-policy': _p, ...ninety } = full;
    expect(grade(ninety)).toMatchObject({ grade: 'A', percentage: 90 });
    const { 'cross-origin-opener-policy': _c, ...eightyFive } = ninety;
    expect(grade(eightyFive)).toMatchObject({ grade: 'B', percentage: 85 });
    expect(grade({ ...full, server: 'nginx/1.0', 'x-powered-by': 'PHP/8' })).toMatchObject({
      grade: 'A',
      percentage: 95,
    });

    const base = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' };
    const isolation = {
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
    };
    expect(grade({})).toMatchObject({ grade: 'F', percentage: 15 });
    expect(grade({ ...base })).toMatchObject({ grade: 'E', percentage: 35 });
    expect(grade({ ...base, 'referrer-policy': 'no-referrer' })).toMatchObject({
      grade: 'E',
      percentage: 40,
    });
    expect(
      grade({ ...base, 'referrer-policy': 'no-referrer', 'permissions-policy': 'camera=()' }),
    ).toMatchObject({ grade: 'D', percentage: 45 });
    expect(
      grade({ ...base, ...isolation, 'strict-transport-security': 'max-age=31536000' }),
    ).toMatchObject({ grade: 'C', percentage: 60 });
    expect(
      grade({
        ...base,
        ...isolation,
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'referrer-policy': 'no-referrer',
      }),
    ).toMatchObject({ grade: 'C', percentage: 70 });
    expect(
      grade({
        ...base,
        ...isolation,
        'strict-transport-security': 'max-age=31536000; includeSubDomains',
        'referrer-policy': 'no-referrer',
        'permissions-policy': 'camera=()',
      }),
    ).toMatchObject({ grade: 'B', percentage: 75 });
  });

  it('scores exactly the weights of the passing checks', () => {
    const data = grade({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY' });
    const sum = data.checks.filter((c) => c.pass).reduce((s, c) => s + c.weight, 0);
    expect(data.score).toBe(sum);
    expect(data.score).toBe(10 + 10 + 10 + 3 + 2);
    expect(data.findings).toHaveLength(data.failed);
  });

  it('gives plain HTTP pages no HSTS credit even when the header is sent', () => {
    const hsts = { 'strict-transport-security': 'max-age=63072000; includeSubDomains' };
    expect(grade(hsts, 'https://a.example/').score - grade(hsts, 'http://a.example/').score).toBe(
      20,
    );
    const http = grade(hsts, 'http://a.example/');
    expect(check(http, 'HSTS max-age')).toMatchObject({ present: true, pass: false });
    expect(http.findings[0]).toMatchObject({
      header: 'strict-transport-security',
      severity: 'high',
    });
    expect(http.findings[0]?.remediate).toContain('Serve the page over HTTPS');
  });

  it('gives Report-Only policies no credit and says how to fix it', () => {
    const data = grade({ 'content-security-policy-report-only': "default-src 'self'" });
    expect(check(data, 'CSP restricts')).toMatchObject({ present: false, pass: false });
    expect(data.findings.find((f) => f.header === 'content-security-policy')?.remediate).toContain(
      'instead of `Content-Security-Policy-Report-Only`',
    );
  });

  it('accepts any one of the rubric’s safe referrer policies', () => {
    for (const policy of [
      'no-referrer',
      'same-origin',
      'strict-origin',
      'strict-origin-when-cross-origin',
    ]) {
      expect(check(grade({ 'referrer-policy': policy }), 'Referrer').pass).toBe(true);
    }
    for (const policy of [
      'unsafe-url',
      'origin',
      'no-referrer-when-downgrade',
      'origin-when-cross-origin',
    ]) {
      expect(check(grade({ 'referrer-policy': policy }), 'Referrer').pass).toBe(false);
    }
  });

  it('finds version numbers in banners and leaves plain names alone', () => {
    for (const banner of [
      'nginx/1.25.3',
      'Apache/2.4.58 (Debian)',
      'Microsoft-IIS/10.0',
      'Jetty(9.4.z)',
    ]) {
      expect(check(grade({ server: banner }), 'Server banner').pass, banner).toBe(false);
    }
    for (const banner of ['nginx', 'cloudflare', 'AmazonS3', 'gws']) {
      expect(check(grade({ server: banner }), 'Server banner').pass, banner).toBe(true);
    }
  });
});

describe('edge cases', () => {
  it('never publishes cookie values', () => {
    const result = inspectHeaders(
      makeDocument('', { headers: { 'set-cookie': 'sid=TOPSECRET; Secure\nother=ALSOSECRET' } }),
    );
    expect(result.ok && result.text).not.toMatch(/SECRET/);
  });

  it('ignores non-string header values and empty names', () => {
    const doc = {
      ...makeDocument('', { contentType: null }),
      headers: { server: 42, '': 'x', ' Server ': 'nginx' } as unknown as Record<string, string>,
    };
    const result = inspectHeaders(doc);
    expect(result.ok && result.data.serverBanner).toBe('nginx');
  });

  it('treats an empty Server header as no banner', () => {
    expect(grade({ server: '   ' }).serverBanner).toBeNull();
  });

  it('keeps text equal to the canonical JSON of data', () => {
    const result = inspectHeaders(makeDocument('', { headers: { server: 'x\ud800' } }));
    expect(result.ok).toBe(true);
    if (result.ok) {
      expect(result.text).toBe(canonicalize(result.data));
      expect(result.data.serverBanner).toBe('x\ufffd');
    }
  });

  it('handles megabyte header values in linear time', () => {
    // Half a megabyte of values at scale 1: twice the size takes about twice the time.
    const headersAt = (scale: number) => ({
      'content-security-policy': `script-src ${"'self' ".repeat(75_000 * scale)}`,
      'set-cookie': 'a=1; Secure\n'.repeat(25_000 * scale),
      'strict-transport-security': `max-age=${'9'.repeat(50_000 * scale)}`,
      'referrer-policy': `a${' '.repeat(100_000 * scale)}b${' , '.repeat(50_000 * scale)}`,
      server: `nginx${' '.repeat(100_000 * scale)}x`,
    });
    const inputs = { 1: headersAt(1), 2: headersAt(2) };
    expect(scalingRatio((scale) => grade(inputs[scale]))).toBeLessThan(3);
    expect(check(grade(inputs[2]), 'HSTS max-age').pass).toBe(true);
  });
});
