import { CUT_MARK } from '@storefront/core';
import { hostilePage, makeDocument, schemaCheck } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  HEADERS_MAX_NOTE_CHARS,
  HEADERS_MAX_VALUE_CHARS,
  HEADERS_RUBRIC_CHECKS,
  inspectHeaders,
  resultSchema,
} from '../src/index.js';

/** Characters of string content the caps allow (README, Limits), plus 1 KiB of fixed text per check. */
const WORST_CASE_CHARS =
  HEADERS_RUBRIC_CHECKS.length * (HEADERS_MAX_VALUE_CHARS + 2 * HEADERS_MAX_NOTE_CHARS + 1024) +
  HEADERS_MAX_VALUE_CHARS;

const huge = 'A😀'.repeat(70_000);
const sources = Array.from({ length: 20_000 }, (_, i) => `https://s${i}.example`).join(' ');
const cookies = Array.from({ length: 2_000 }, (_, i) => `c${'n'.repeat(200)}${i}=v`).join('\n');

describe('caps on hostile headers', () => {
  const result = inspectHeaders(
    makeDocument(hostilePage(), {
      headers: {
        server: `nginx/1.0 ${huge}`,
        'content-security-policy': `default-src 'self'; frame-ancestors ${sources}; script-src ${huge}`,
        'strict-transport-security': `max-age=${'9'.repeat(100_000)}`,
        'x-frame-options': huge,
        'referrer-policy': `${'x'.repeat(100_000)}, no-referrer`,
        'permissions-policy': `camera=(), ${huge}`,
        'set-cookie': cookies,
        'cross-origin-opener-policy': huge,
        'x-content-type-options': huge,
      },
    }),
  );
  if (!result.ok) throw new Error(result.error);
  const { data } = result;

  it('cuts values, notes and the server banner with the mark, and says so', () => {
    expect(data.serverBanner?.length).toBe(HEADERS_MAX_VALUE_CHARS);
    expect(data.serverBanner?.endsWith(CUT_MARK)).toBe(true);
    for (const check of data.checks) {
      expect(check.value?.length ?? 0).toBeLessThanOrEqual(HEADERS_MAX_VALUE_CHARS);
      expect(check.value?.isWellFormed() ?? true).toBe(true);
      expect(check.note.length).toBeLessThanOrEqual(HEADERS_MAX_NOTE_CHARS);
    }
    const csp = data.checks.find((check) => check.header === 'content-security-policy');
    expect(csp?.value?.endsWith(CUT_MARK)).toBe(true);
    const framing = data.checks.find((check) => check.header === 'x-frame-options');
    expect(framing?.note.endsWith(CUT_MARK)).toBe(true);
    expect(data.truncatedFields).toBe(true);
  });

  it('still fits the published result schema, cut fields and all', () => {
    expect(schemaCheck(resultSchema)(data)).toStrictEqual([]);
  });

  it('keeps the whole result under the documented bound', () => {
    const bytes = Buffer.byteLength(JSON.stringify(result));
    expect(bytes).toBeLessThan(13 * WORST_CASE_CHARS);
    expect(bytes).toBeLessThan(500_000);
  });

  it('adds no flag to ordinary headers', () => {
    const plain = inspectHeaders(makeDocument('', { headers: { server: 'nginx' } }));
    if (!plain.ok) throw new Error(plain.error);
    expect(plain.data).not.toHaveProperty('truncatedFields');
  });
});
