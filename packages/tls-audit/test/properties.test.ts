import { readdirSync } from 'node:fs';
import { canonicalize } from '@storefront/core';
import { readJsonFile } from '@storefront/test-utils';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  auditTls,
  parseCertTime,
  parseIsoTime,
  TLS_GRADE_CUTOFFS,
  TLS_RUBRIC_CHECKS,
  type TlsFacts,
} from '../src/index.js';

interface Input {
  readonly at: string;
  readonly facts: TlsFacts;
}
const dir = new URL('./fixtures', import.meta.url).pathname;
const INPUTS: Input[] = readdirSync(dir)
  .sort()
  .map((name) => readJsonFile<Input>(`${dir}/${name}`));
const HANDSHAKES = INPUTS.filter((input) => input.facts.ok);

const TEXT = fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('\ud800', 'TLSv1.3', ''));
const EDIT = fc.record({
  protocol: fc.option(fc.constantFrom('TLSv1.3', 'TLSv1.2', 'TLSv1.1', 'TLSv1', 'SSLv3'), {
    nil: null,
  }),
  authorized: fc.boolean(),
  authorizationError: fc.option(TEXT, { nil: null }),
  ocspStapled: fc.boolean(),
  hsts: fc.record({
    status: fc.option(fc.integer({ min: 100, max: 599 }), { nil: null }),
    values: fc.array(
      fc.oneof(
        TEXT,
        fc.constantFrom('max-age=31536000', 'max-age="99999999999"; preload', 'max-age=0'),
      ),
      { maxLength: 3 },
    ),
    error: fc.option(fc.constantFrom('timeout', 'protocol_error'), { nil: null }),
  }),
  /** Days after the fixture's time. */
  days: fc.integer({ min: -4000, max: 4000 }),
});

/** The fixture's time moved by `days`. */
function shifted(at: string, days: number): string {
  const base = parseIsoTime(at);
  if (base === null) throw new Error(at);
  const ms = base.ms + days * 86_400_000;
  // Back to ISO without Date: the same digits as parseIsoTime reads.
  const date = new Date(ms);
  return date.toISOString();
}

describe('auditTls properties', () => {
  it('gives the same bytes for the same facts and time, never throwing on any handshake', () => {
    fc.assert(
      fc.property(fc.constantFrom(...HANDSHAKES), EDIT, (input, edit) => {
        const { days, ...changes } = edit;
        const facts = { ...input.facts, ...changes } as TlsFacts;
        const at = shifted(input.at, days);
        const first = auditTls(facts, { at });
        const second = auditTls(structuredClone(facts), { at });
        expect(JSON.stringify(second)).toBe(JSON.stringify(first));
        if (!first.ok) return;
        expect(first.text).toBe(canonicalize(first.data));
        const { score, maxScore, percentage, grade, checks } = first.data;
        expect(maxScore).toBe(100);
        expect(checks.map((c) => c.id)).toStrictEqual(TLS_RUBRIC_CHECKS.map((r) => r.id));
        expect(score).toBe(checks.reduce((s, c) => s + (c.pass ? c.weight : 0), 0));
        const critical = TLS_RUBRIC_CHECKS.some(
          (row, i) => row.critical && checks[i]?.pass === false,
        );
        const byScore = TLS_GRADE_CUTOFFS.find(([, min]) => percentage >= min)?.[0] ?? 'F';
        expect(grade).toBe(critical ? 'F' : byScore);
      }),
    );
  });

  it('counts days left from the audit time, one per day', () => {
    const input = HANDSHAKES[0] as Input;
    const today = auditTls(input.facts, { at: input.at });
    const later = auditTls(input.facts, { at: shifted(input.at, 10) });
    if (!today.ok || !later.ok) throw new Error('no audit');
    expect((today.data.chain[0]?.daysLeft ?? 0) - (later.data.chain[0]?.daysLeft ?? 0)).toBe(10);
  });

  it('reads certificate times as Date does', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1950-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }),
        (date) => {
          const whole = new Date(Math.floor(date.getTime() / 1000) * 1000);
          const months = [
            'Jan',
            'Feb',
            'Mar',
            'Apr',
            'May',
            'Jun',
            'Jul',
            'Aug',
            'Sep',
            'Oct',
            'Nov',
            'Dec',
          ];
          const pad = (n: number) => String(n).padStart(2, '0');
          const text = `${months[whole.getUTCMonth()]} ${String(whole.getUTCDate()).padStart(2, ' ')} ${pad(whole.getUTCHours())}:${pad(whole.getUTCMinutes())}:${pad(whole.getUTCSeconds())} ${whole.getUTCFullYear()} GMT`;
          expect(parseCertTime(text)).toStrictEqual({
            ms: whole.getTime(),
            iso: whole.toISOString().replace('.000Z', 'Z'),
          });
        },
      ),
    );
  });
});
