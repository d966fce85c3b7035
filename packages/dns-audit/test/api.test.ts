import { GRADE_CUTOFFS, RECEIPT_RULE_KINDS } from '@storefront/core';
import { describe, expect, it } from 'vitest';
import * as api from '../src/index.js';
import {
  auditDns,
  DNS_GRADE_CUTOFFS,
  DNS_RECORD_TYPES,
  DNS_RUBRIC,
  DNS_RUBRIC_CHECKS,
  type DnsFacts,
  receiptRule,
  resultSchema,
} from '../src/index.js';

/** The apex answers of `domain`, each type answered with `rcode` and no records. */
function apexAnswering(domain: string, rcode: (type: string) => string): DnsFacts {
  return {
    domain,
    capped: false,
    answers: DNS_RECORD_TYPES.map((type) => ({
      name: domain,
      type,
      rcode: rcode(type),
      ad: false,
      records: [],
    })),
  };
}

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'DNS_GRADE_CUTOFFS',
      'DNS_MAX_NAME_CHARS',
      'DNS_MAX_QUERIES',
      'DNS_MAX_RECORDS',
      'DNS_MAX_RECORD_CHARS',
      'DNS_MAX_SPF_DEPTH',
      'DNS_RECORD_TYPES',
      'DNS_RUBRIC',
      'DNS_RUBRIC_CHECKS',
      'POLICY_PREFIXES',
      'SPF_LOOKUP_LIMIT',
      'auditDns',
      'checkDnsDomain',
      'gatherDns',
      'isSpfRecord',
      'normalizeName',
      'parseSpf',
      'receiptRule',
      'reportDmarc',
      'reportMtaSts',
      'reportSpf',
      'reportTlsRpt',
      'resultSchema',
    ]);
  });

  it('has a versioned rubric whose weights sum to 100, graded by the shared cut-offs', () => {
    expect(DNS_RUBRIC).toBe('dns-rubric/1');
    expect(DNS_RUBRIC_CHECKS.reduce((sum, row) => sum + row.weight, 0)).toBe(100);
    expect(new Set(DNS_RUBRIC_CHECKS.map((row) => row.id)).size).toBe(DNS_RUBRIC_CHECKS.length);
    expect(DNS_GRADE_CUTOFFS).toBe(GRADE_CUTOFFS);
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
  it('reports dns_failure for a domain that does not exist', () => {
    const facts = apexAnswering('gone.example', (type) => (type === 'A' ? 'NXDOMAIN' : 'NOERROR'));
    expect(auditDns(facts)).toStrictEqual({
      ok: false,
      error: 'dns_failure',
      message: 'The domain `gone.example` does not exist (NXDOMAIN)',
    });
  });

  it('reports dns_failure when the resolver answered no apex query', () => {
    const facts = apexAnswering('broken.example', (type) =>
      type === 'MX' ? 'TIMEOUT' : 'SERVFAIL',
    );
    expect(auditDns(facts)).toStrictEqual({
      ok: false,
      error: 'dns_failure',
      message: 'The resolver answered no query for `broken.example` (SERVFAIL, TIMEOUT)',
    });
  });

  it('reports timeout when every apex query timed out', () => {
    expect(auditDns(apexAnswering('slow.example', () => 'TIMEOUT'))).toMatchObject({
      ok: false,
      error: 'timeout',
    });
  });

  it('grades a domain that answered at least one apex query', () => {
    const result = auditDns(apexAnswering('quiet.example', () => 'NOERROR'));
    expect(result).toMatchObject({ ok: true, data: { domain: 'quiet.example', grade: 'F' } });
  });
});
