import { canonicalize } from '@storefront/core';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AVAILABILITY_ERROR_REASONS,
  classifyAvailability,
  type ProbeOutcome,
} from '../src/index.js';

const NUMBER = fc.oneof(
  fc.integer({ min: -10, max: 1000 }),
  fc.double(),
  fc.constantFrom(200, 204, 301, 304, 404, 500, 599, 600, 99),
);
const TIMING = fc.option(fc.record({ headersMs: NUMBER, totalMs: NUMBER }, { requiredKeys: [] }), {
  nil: undefined,
});
const CODE = fc.oneof(fc.constantFrom(...Object.keys(AVAILABILITY_ERROR_REASONS)), fc.string());

const OUTCOME: fc.Arbitrary<ProbeOutcome> = fc.oneof(
  fc.record({
    ok: fc.constant(true as const),
    doc: fc.record({ url: fc.string(), status: NUMBER }),
    timing: TIMING,
  }),
  fc.record(
    {
      ok: fc.constant(false as const),
      error: CODE,
      status: NUMBER,
      url: fc.string(),
      timing: TIMING,
    },
    { requiredKeys: ['ok', 'error'] },
  ),
) as fc.Arbitrary<ProbeOutcome>;

describe('classifyAvailability properties', () => {
  it('is total and gives the six signed fields plus responseMs', () => {
    fc.assert(
      fc.property(OUTCOME, (outcome) => {
        const result = classifyAvailability(outcome);
        const data = result.data;
        expect(data).toBeDefined();
        expect(Object.keys(data ?? {}).sort()).toStrictEqual([
          'httpStatus',
          'reachable',
          'reason',
          'responseClass',
          'responseMs',
          'rubric',
          'up',
        ]);
        if (result.ok) {
          const { responseMs, ...signed } = result.data;
          expect(result.text).toBe(canonicalize(signed));
          expect(responseMs === null || Number.isInteger(responseMs)).toBe(true);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('is deterministic', () => {
    fc.assert(
      fc.property(OUTCOME, (outcome) => {
        expect(classifyAvailability(outcome)).toStrictEqual(classifyAvailability(outcome));
      }),
    );
  });

  it('keeps the verdict consistent: up implies reachable, ok implies up', () => {
    fc.assert(
      fc.property(OUTCOME, (outcome) => {
        const d = classifyAvailability(outcome).data;
        if (d === undefined) return;
        if (d.up) expect(d.reachable).toBe(true);
        if (d.reason === 'ok') expect(d.up).toBe(true);
        expect(d.responseClass === 'none').toBe(!d.reachable);
        if (d.httpStatus !== null) {
          expect(Number.isInteger(d.httpStatus)).toBe(true);
          expect(d.reachable).toBe(true);
        }
        expect(d.up).toBe(d.responseClass === '2xx-success' || d.responseClass === '3xx-redirect');
      }),
      { numRuns: 1000 },
    );
  });
});
