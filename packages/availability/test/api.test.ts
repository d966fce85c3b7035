import {
  UPSTREAM_ERROR_CODES as CORE_UPSTREAM_ERROR_CODES,
  ERROR_CODES,
  StorefrontError,
} from '@storefront/core';
import type { SafeFetchResult } from '@storefront/safe-fetch';
import { UPSTREAM_ERROR_CODES } from '@storefront/safe-fetch';
import { describe, expect, expectTypeOf, it } from 'vitest';
import * as api from '../src/index.js';
import {
  AVAILABILITY_ERROR_REASONS,
  AVAILABILITY_RUBRIC,
  type AvailabilityErrorCode,
  classifyAvailability,
  type ProbeOutcome,
} from '../src/index.js';

const URL_ = 'https://a.example/';

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'AVAILABILITY_ERROR_REASONS',
      'AVAILABILITY_RUBRIC',
      'classifyAvailability',
      'receiptRule',
      'resultSchema',
    ]);
    expect(AVAILABILITY_RUBRIC).toBe('availability-rubric/1');
  });

  it('accepts a safe-fetch result as it is', () => {
    expectTypeOf<SafeFetchResult>().toExtend<ProbeOutcome>();
  });

  it('classifies every safe-fetch error code', () => {
    for (const code of UPSTREAM_ERROR_CODES) {
      expect(Object.hasOwn(AVAILABILITY_ERROR_REASONS, code), code).toBe(true);
      const result = classifyAvailability({ ok: false, error: code });
      expect(result.data?.rubric, code).toBe(AVAILABILITY_RUBRIC);
    }
  });

  it('classifies every core upstream error code', () => {
    for (const code of CORE_UPSTREAM_ERROR_CODES) {
      expect(Object.hasOwn(AVAILABILITY_ERROR_REASONS, code), code).toBe(true);
    }
  });

  it('knows only catalogue codes', () => {
    for (const code of Object.keys(AVAILABILITY_ERROR_REASONS)) {
      expect((ERROR_CODES as readonly string[]).includes(code), code).toBe(true);
    }
  });
});

describe('error codes', () => {
  it.each<[AvailabilityErrorCode, ProbeOutcome]>([
    ['invalid_url', { ok: false, error: 'invalid_url' }],
    ['blocked_ssrf', { ok: false, error: 'blocked_ssrf' }],
    ['internal_error', { ok: false, error: 'internal_error' }],
    ['internal_error', { ok: false, error: 'payment_required' }],
  ])('reports %s when the probe could not be performed', (code, outcome) => {
    const result = classifyAvailability(outcome);
    expect(result).toMatchObject({ ok: false, error: code });
    expect(result.data).toMatchObject({ up: false, reachable: false, httpStatus: null });
  });

  it('throws on misuse only', () => {
    expect(() => classifyAvailability(null as unknown as ProbeOutcome)).toThrow(StorefrontError);
    expect(() =>
      classifyAvailability({ ok: true, doc: { url: URL_, status: 200 } }, {
        timing: 'bodyMs',
      } as never),
    ).toThrow(/`timing`/);
  });
});

describe('verdicts', () => {
  it('keeps a down host ok:true with the category in reason', () => {
    for (const error of [
      'dns_failure',
      'timeout',
      'connection_refused',
      'connection_reset',
      'tls_error',
    ]) {
      const result = classifyAvailability({ ok: false, error });
      expect(result.ok, error).toBe(true);
      expect(result.data).toMatchObject({ up: false, reachable: false, responseClass: 'none' });
      expect(result.data?.reason).toBe(error.replace('_failure', '-failure').replace('_', '-'));
    }
  });

  it('keeps 4xx and 5xx ok:true and not up', () => {
    for (const status of [400, 404, 429, 500, 503]) {
      const result = classifyAvailability({ ok: true, doc: { url: URL_, status } });
      expect(result).toMatchObject({
        ok: true,
        data: { up: false, reachable: true, httpStatus: status },
      });
    }
  });

  it('refuses a redirect to a refused target like a refused URL: not up, no verdict', () => {
    for (const [error, reason] of [
      ['blocked_ssrf', 'blocked-ssrf'],
      ['invalid_url', 'invalid-url'],
    ] as const) {
      for (const status of [301, 302, 303, 307, 308]) {
        const result = classifyAvailability({ ok: false, error, status });
        expect(result, `${error} after ${status}`).toMatchObject({
          ok: false,
          error,
          data: { up: false, reachable: false, httpStatus: null, reason },
        });
        expect(result.ok ? '' : result.message).toMatch(
          /^The URL a redirect led to cannot be probed/,
        );
      }
    }
  });

  it('leaves responseMs out of text', () => {
    const fast = classifyAvailability({
      ok: true,
      doc: { url: URL_, status: 200 },
      timing: { headersMs: 3 },
    });
    const slow = classifyAvailability({
      ok: true,
      doc: { url: URL_, status: 200 },
      timing: { headersMs: 4999.6 },
    });
    expect(fast.ok && slow.ok).toBe(true);
    if (fast.ok && slow.ok) {
      expect(fast.text).toBe(slow.text);
      expect(fast.text).not.toContain('responseMs');
      expect(slow.data.responseMs).toBe(5000);
    }
  });

  it('reports no responseMs for missing, negative or non-finite timings', () => {
    for (const timing of [
      undefined,
      {},
      { headersMs: -1 },
      { headersMs: Number.NaN },
      { headersMs: Infinity },
    ]) {
      const outcome = { ok: true, doc: { url: URL_, status: 200 }, timing } as ProbeOutcome;
      expect(classifyAvailability(outcome).data?.responseMs).toBeNull();
    }
  });

  it('treats a fractional status as unknown', () => {
    expect(
      classifyAvailability({ ok: true, doc: { url: URL_, status: 200.5 } }).data,
    ).toMatchObject({
      httpStatus: null,
      responseClass: 'unknown',
      reachable: true,
      up: false,
    });
  });
});
