import { GRADE_CUTOFFS, RECEIPT_RULE_KINDS } from '@storefront/core';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import {
  auditTls,
  receiptRule,
  resultSchema,
  TLS_GRADE_CUTOFFS,
  TLS_RUBRIC,
  TLS_RUBRIC_CHECKS,
  type TlsFacts,
} from '../src/index.js';

const AT = { at: '2026-11-27T12:00:00.000Z' };

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'TLS_GRADE_CUTOFFS',
      'TLS_MAX_CHAIN',
      'TLS_MAX_CHARS',
      'TLS_MAX_NAMES',
      'TLS_MIN_DAYS_LEFT',
      'TLS_RUBRIC',
      'TLS_RUBRIC_CHECKS',
      'auditTls',
      'parseCertTime',
      'parseIsoTime',
      'receiptRule',
      'resultSchema',
      'signatureAlgorithmOf',
    ]);
  });

  it('has a versioned rubric whose weights sum to 100, three checks critical', () => {
    expect(TLS_RUBRIC).toBe('tls-rubric/1');
    expect(TLS_RUBRIC_CHECKS.reduce((sum, row) => sum + row.weight, 0)).toBe(100);
    expect(new Set(TLS_RUBRIC_CHECKS.map((row) => row.id)).size).toBe(TLS_RUBRIC_CHECKS.length);
    expect(TLS_RUBRIC_CHECKS.filter((row) => row.critical).map((row) => row.id)).toStrictEqual([
      'trusted',
      'name',
      'valid-now',
    ]);
    expect(TLS_GRADE_CUTOFFS).toBe(GRADE_CUTOFFS);
  });

  it('signs the canonical JSON of data, and its schema requires every rubric field', () => {
    expect(receiptRule).toStrictEqual({ kind: 'canonical-json' });
    expect(RECEIPT_RULE_KINDS).toContain(receiptRule.kind);
    expect(resultSchema.required).toEqual(
      expect.arrayContaining(['grade', 'score', 'checks', 'findings', 'rubric']),
    );
  });
});

describe('error codes', () => {
  it.each([
    'invalid_url',
    'blocked_ssrf',
    'dns_failure',
    'timeout',
    'connection_refused',
    'connection_reset',
    'tls_error',
    'protocol_error',
  ])('passes the gatherer’s %s through when there was no handshake', (error) => {
    const facts: TlsFacts = {
      ok: false,
      domain: 'a.example',
      port: 443,
      error,
      message: `no: ${error}`,
    };
    expect(auditTls(facts, AT)).toStrictEqual({
      ok: false,
      error,
      message: `no: ${error}`,
    });
  });

  it('reports any other gatherer code as tls_error', () => {
    const facts: TlsFacts = {
      ok: false,
      domain: 'a.example',
      port: 443,
      error: 'EWEIRD',
      message: 'odd',
    };
    expect(auditTls(facts, AT)).toMatchObject({ ok: false, error: 'tls_error' });
  });

  it('reports tls_error when the server sent no certificate that parses', () => {
    const facts = {
      ok: true,
      domain: 'a.example',
      port: 443,
      chain: [Buffer.from('not a certificate').toString('base64')],
      protocol: 'TLSv1.3',
      cipher: null,
      authorized: false,
      authorizationError: null,
      ocspStapled: false,
      hsts: { status: null, values: [], error: null },
    } satisfies TlsFacts;
    expect(auditTls(facts, AT)).toStrictEqual({
      ok: false,
      error: 'tls_error',
      message: '`a.example` sent no certificate that could be read',
    });
  });

  it('throws on misuse: an audit time that is not ISO-8601 UTC', () => {
    const facts = { ok: true, domain: 'a.example', port: 443, chain: [] } as never;
    expect(() => auditTls(facts, { at: 'yesterday' })).toThrow(
      'Expected `at` to be an ISO-8601 UTC time, got `yesterday`',
    );
  });
});
