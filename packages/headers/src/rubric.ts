import { GRADE_CUTOFFS, type GradeCutoffs } from '@storefront/core';
import type { HeadersSeverity } from './types.js';

/** The version of the grading rubric; it changes whenever a weight, a rule or a cut-off does. */
export const HEADERS_RUBRIC = 'headers-rubric/1';

/** One row of the rubric, without the rule that grades it. */
export interface HeadersRubricRow {
  readonly id: string;
  readonly header: string;
  readonly label: string;
  readonly weight: number;
  /** The severity of the finding when the check fails. */
  readonly severity: HeadersSeverity;
}

/** The rows of {@link HEADERS_RUBRIC}, in the order results list them; weights sum to 100. */
export const HEADERS_RUBRIC_CHECKS: readonly HeadersRubricRow[] = Object.freeze(
  (
    [
      [
        'hsts-max-age',
        'strict-transport-security',
        'HSTS max-age of at least one year',
        15,
        'high',
      ],
      ['hsts-subdomains', 'strict-transport-security', 'HSTS covers subdomains', 5, 'low'],
      ['csp-scripts', 'content-security-policy', 'CSP restricts script sources', 15, 'high'],
      [
        'csp-unsafe',
        'content-security-policy',
        'CSP script sources forbid unsafe-inline, unsafe-eval and wildcards',
        10,
        'medium',
      ],
      ['nosniff', 'x-content-type-options', 'MIME sniffing disabled', 10, 'medium'],
      [
        'clickjacking',
        'x-frame-options',
        'Clickjacking protection (X-Frame-Options or CSP frame-ancestors)',
        10,
        'medium',
      ],
      ['referrer', 'referrer-policy', 'Referrer policy limits what leaks', 5, 'low'],
      ['permissions', 'permissions-policy', 'Permissions policy restricts features', 5, 'low'],
      ['coop', 'cross-origin-opener-policy', 'Cross-origin opener isolation', 5, 'low'],
      ['corp', 'cross-origin-resource-policy', 'Cross-origin resource policy', 5, 'low'],
      ['cookies', 'set-cookie', 'Every cookie is Secure, HttpOnly and SameSite', 10, 'medium'],
      ['server', 'server', 'Server banner without a version', 3, 'low'],
      ['powered-by', 'x-powered-by', 'X-Powered-By without a version', 2, 'low'],
    ] as const
  ).map(([id, header, label, weight, severity]) =>
    Object.freeze({ id, header, label, weight, severity }),
  ),
);

/**
 * The lowest percentage that earns each grade, best first; below the last one is `F`.
 * The cut-offs every graded audit shares (`GRADE_CUTOFFS` of `@storefront/core`),
 * published under this rubric's name: the rubric version covers them too.
 */
export const HEADERS_GRADE_CUTOFFS: GradeCutoffs = GRADE_CUTOFFS;
