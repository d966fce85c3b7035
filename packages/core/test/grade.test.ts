import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import {
  GRADE_CUTOFFS,
  GRADE_SUMMARY_SCHEMA,
  type GradedCheck,
  gradeSummary,
} from '../src/index.js';

/** Checks worth `weights`, the first `passing` of them passed. */
function checks(weights: readonly number[], passing: number): GradedCheck[] {
  return weights.map((weight, i) => ({ pass: i < passing, weight }));
}

describe('gradeSummary', () => {
  it('sums the passing weights and lists the keys in result order', () => {
    const summary = gradeSummary(checks([60, 25, 15], 2));
    expect(summary).toStrictEqual({
      grade: 'B',
      score: 85,
      maxScore: 100,
      percentage: 85,
      passed: 2,
      failed: 1,
    });
    expect(Object.keys(summary)).toStrictEqual(GRADE_SUMMARY_SCHEMA.required);
  });

  it.each([
    [100, 'A'],
    [90, 'A'],
    [89, 'B'],
    [75, 'B'],
    [74, 'C'],
    [60, 'C'],
    [59, 'D'],
    [45, 'D'],
    [44, 'E'],
    [30, 'E'],
    [29, 'F'],
    [0, 'F'],
  ])('grades %i%% as %s under the default cut-offs', (points, grade) => {
    expect(gradeSummary(checks([points, 100 - points], 1)).grade).toBe(grade);
  });

  it('rounds the percentage down, never up', () => {
    // 2 of 3 points is 66.67%: 66.
    expect(gradeSummary(checks([1, 1, 1], 2)).percentage).toBe(66);
    // 89.99…% stays a B.
    expect(gradeSummary(checks([8999, 1001], 1))).toMatchObject({ percentage: 89, grade: 'B' });
  });

  it('gives 0% and F when there are no points to earn', () => {
    expect(gradeSummary([])).toStrictEqual({
      grade: 'F',
      score: 0,
      maxScore: 0,
      percentage: 0,
      passed: 0,
      failed: 0,
    });
  });

  it('grades F after a critical failure whatever the score', () => {
    const all = checks([50, 50], 2);
    expect(gradeSummary(all).grade).toBe('A');
    expect(gradeSummary(all, { criticalFailed: true })).toMatchObject({
      grade: 'F',
      score: 100,
      percentage: 100,
    });
    expect(gradeSummary(all, { criticalFailed: false }).grade).toBe('A');
  });

  it('takes a rubric’s own cut-offs', () => {
    const strict = [['A', 99]] as const;
    expect(gradeSummary(checks([98, 2], 1), { cutoffs: strict }).grade).toBe('F');
    expect(gradeSummary(checks([99, 1], 1), { cutoffs: strict }).grade).toBe('A');
  });

  it('publishes frozen default cut-offs, best first', () => {
    expect(GRADE_CUTOFFS).toStrictEqual([
      ['A', 90],
      ['B', 75],
      ['C', 60],
      ['D', 45],
      ['E', 30],
    ]);
    expect(Object.isFrozen(GRADE_CUTOFFS)).toBe(true);
    expect(GRADE_CUTOFFS.every((row) => Object.isFrozen(row))).toBe(true);
  });

  test.prop([fc.array(fc.record({ pass: fc.boolean(), weight: fc.integer({ min: 1, max: 50 }) }))])(
    'stays within the schema’s bounds for any positive weights',
    (rows) => {
      const summary = gradeSummary(rows);
      expect(summary.score).toBeLessThanOrEqual(summary.maxScore);
      expect(summary.percentage).toBeGreaterThanOrEqual(0);
      expect(summary.percentage).toBeLessThanOrEqual(100);
      expect(summary.passed + summary.failed).toBe(rows.length);
    },
  );
});
