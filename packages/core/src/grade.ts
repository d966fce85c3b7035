/**
 * The summary a graded audit (headers, seo, dns, tls) puts at the top of its `data`:
 * pass/fail checks of fixed weights give a score, a percentage and a letter grade.
 * One implementation, so the four rubrics grade alike and publish one schema.
 */

/** A letter grade, from `A` (best) to `F`. */
export type Grade = 'A' | 'B' | 'C' | 'D' | 'E' | 'F';

/** The lowest percentage that earns each grade, best first; below the last one is `F`. */
export type GradeCutoffs = readonly (readonly [Grade, number])[];

/**
 * The cut-offs every rubric uses today: `A` ≥ 90, `B` ≥ 75, `C` ≥ 60, `D` ≥ 45,
 * `E` ≥ 30, else `F`. A rubric publishes them under its own name (`HEADERS_GRADE_CUTOFFS`),
 * so a later version of one rubric can move its cut-offs without moving the others.
 */
export const GRADE_CUTOFFS: GradeCutoffs = Object.freeze(
  (
    [
      ['A', 90],
      ['B', 75],
      ['C', 60],
      ['D', 45],
      ['E', 30],
    ] as const
  ).map((row) => Object.freeze(row)),
);

/** One graded check: whether it passed, and the points it is worth. */
export interface GradedCheck {
  readonly pass: boolean;
  readonly weight: number;
}

/** The grade and the points it came from, in the order results list them. */
export interface GradeSummary {
  readonly grade: Grade;
  /** Sum of the weights of the passing checks. */
  readonly score: number;
  /** Sum of all weights. */
  readonly maxScore: number;
  /** `floor(score * 100 / maxScore)`; 0 when there are no points to earn. */
  readonly percentage: number;
  /** Number of passing checks. */
  readonly passed: number;
  /** Number of failing checks. */
  readonly failed: number;
}

/** Options of {@link gradeSummary}. */
export interface GradeOptions {
  /** The rubric's cut-offs; {@link GRADE_CUTOFFS} by default. */
  readonly cutoffs?: GradeCutoffs;
  /**
   * A check the rubric calls critical failed, so the grade is `F` whatever the score
   * (`tls-rubric/1`: an untrusted chain, a name mismatch, an expired certificate).
   */
  readonly criticalFailed?: boolean;
}

/**
 * Grade a rubric's checks: the score is the sum of the passing weights, the percentage
 * `floor(score * 100 / maxScore)` (integer arithmetic, so no rounding differs between
 * machines), and the grade the first cut-off the percentage reaches. Keys come in the
 * order results list them, so spreading the summary into `data` keeps its JSON bytes.
 *
 * @example
 *   gradeSummary([{ pass: true, weight: 60 }, { pass: false, weight: 40 }])
 *   // { grade: 'C', score: 60, maxScore: 100, percentage: 60, passed: 1, failed: 1 }
 */
export function gradeSummary(
  checks: readonly GradedCheck[],
  options: GradeOptions = {},
): GradeSummary {
  let score = 0;
  let maxScore = 0;
  let passed = 0;
  for (const check of checks) {
    maxScore += check.weight;
    if (check.pass) {
      score += check.weight;
      passed++;
    }
  }
  const percentage = maxScore === 0 ? 0 : Math.floor((score * 100) / maxScore);
  return {
    grade:
      options.criticalFailed === true ? 'F' : gradeOf(percentage, options.cutoffs ?? GRADE_CUTOFFS),
    score,
    maxScore,
    percentage,
    passed,
    failed: checks.length - passed,
  };
}

function gradeOf(percentage: number, cutoffs: GradeCutoffs): Grade {
  for (const [grade, minimum] of cutoffs) if (percentage >= minimum) return grade;
  return 'F';
}

const COUNT = { type: 'integer', minimum: 0 } as const;

/**
 * The JSON Schema of a {@link GradeSummary}. A graded audit's result schema spreads its
 * `properties` and `required` into its own. The bounds follow from the code: weights are
 * positive, so every count is at least 0 and the percentage at most 100.
 */
export const GRADE_SUMMARY_SCHEMA = {
  type: 'object',
  required: ['grade', 'score', 'maxScore', 'percentage', 'passed', 'failed'],
  properties: {
    grade: { enum: ['A', 'B', 'C', 'D', 'E', 'F'] },
    score: COUNT,
    maxScore: COUNT,
    percentage: { type: 'integer', minimum: 0, maximum: 100 },
    passed: COUNT,
    failed: COUNT,
  },
} as const;
