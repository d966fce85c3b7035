import { readdirSync } from 'node:fs';
import { canonicalize } from '@storefront/core';
import { readJsonFile } from '@storefront/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  auditDns,
  DNS_GRADE_CUTOFFS,
  DNS_RECORD_TYPES,
  DNS_RUBRIC_CHECKS,
  type DnsAnswer,
  type DnsFacts,
} from '../src/index.js';

const dir = new URL('./fixtures', import.meta.url).pathname;
const FACTS: DnsFacts[] = readdirSync(dir)
  .sort()
  .map((name) => readJsonFile<DnsFacts>(`${dir}/${name}`));

const RECORD = fc.oneof(
  fc.string({ maxLength: 60 }),
  fc.constantFrom(
    'v=spf1 include:a.example -all',
    'v=spf1 a mx ptr exists:x.example redirect=b.example',
    'v=spf1 +all',
    'v=DMARC1; p=reject; rua=mailto:a@b',
    'v=STSv1; id=1',
    'v=TLSRPTv1; rua=mailto:t@b',
    '10 mx.example',
    '0 issue "ca.example"',
    '192.0.2.1',
    '\ud800',
  ),
);
const RCODE = fc.constantFrom('NOERROR', 'NOERROR', 'NXDOMAIN', 'SERVFAIL', 'TIMEOUT', 'ERROR');
const NAME = fc.constantFrom('d.example', '_dmarc.d.example', '_mta-sts.d.example', 'a.example');

const FACTS_ARB: fc.Arbitrary<DnsFacts> = fc.record({
  domain: fc.constant('d.example'),
  capped: fc.boolean(),
  answers: fc.array(
    fc.record({
      name: NAME,
      type: fc.constantFrom(...DNS_RECORD_TYPES),
      rcode: RCODE,
      ad: fc.boolean(),
      records: fc.array(RECORD, { maxLength: 6 }),
    }),
    { maxLength: 16 },
  ),
});

function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed;
  for (let i = out.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

describe('auditDns properties', () => {
  it('gives the same bytes for the same facts, and never throws', () => {
    fc.assert(
      fc.property(FACTS_ARB, (facts) => {
        const first = auditDns(facts);
        const second = auditDns(structuredClone(facts));
        expect(JSON.stringify(second)).toBe(JSON.stringify(first));
        if (first.ok) expect(first.text).toBe(canonicalize(first.data));
      }),
    );
  });

  it('does not depend on the order of the records within an answer', () => {
    fc.assert(
      fc.property(fc.constantFrom(...FACTS), fc.nat(), (facts, seed) => {
        const answers: DnsAnswer[] = facts.answers.map((a, i) => ({
          ...a,
          records: shuffled(a.records, seed + i),
        }));
        expect(JSON.stringify(auditDns({ ...facts, answers }))).toBe(
          JSON.stringify(auditDns(facts)),
        );
      }),
    );
  });

  it('scores within the rubric and grades by its cut-offs', () => {
    fc.assert(
      fc.property(FACTS_ARB, (facts) => {
        const result = auditDns(facts);
        if (!result.ok) return;
        const { score, maxScore, percentage, grade, checks } = result.data;
        expect(maxScore).toBe(DNS_RUBRIC_CHECKS.reduce((s, r) => s + r.weight, 0));
        expect(maxScore).toBe(100);
        expect(checks.map((c) => c.id)).toStrictEqual(DNS_RUBRIC_CHECKS.map((r) => r.id));
        expect(score).toBe(checks.reduce((s, c) => s + (c.pass ? c.weight : 0), 0));
        const expected = DNS_GRADE_CUTOFFS.find(([, min]) => percentage >= min)?.[0] ?? 'F';
        expect(grade).toBe(expected);
      }),
    );
  });
});
