import { GRADE_CUTOFFS, type GradeCutoffs } from '@storefront/core';
import type { TlsSeverity } from './types.js';

/** The version of the grading rubric; it changes whenever a weight, a rule or a cut-off does. */
export const TLS_RUBRIC = 'tls-rubric/1';

/** One row of the rubric, without the rule that grades it. */
export interface TlsRubricRow {
  readonly id: string;
  readonly label: string;
  readonly weight: number;
  readonly severity: TlsSeverity;
  /** A failed critical check makes the grade `F` whatever the score. */
  readonly critical: boolean;
}

/** The rows of {@link TLS_RUBRIC}, in the order results list them; weights sum to 100. */
export const TLS_RUBRIC_CHECKS: readonly TlsRubricRow[] = Object.freeze(
  (
    [
      ['trusted', 'The chain verifies against the trusted roots', 25, 'high', true],
      ['name', 'The certificate is valid for the domain', 20, 'high', true],
      ['valid-now', 'The certificate is within its validity period', 20, 'high', true],
      ['days-left', 'At least 14 days before the certificate expires', 5, 'medium', false],
      ['protocol', 'TLS 1.2 or 1.3 was negotiated', 10, 'high', false],
      ['key', 'Strong key (RSA ≥ 2048 bits, EC ≥ 256 bits, or EdDSA)', 5, 'medium', false],
      ['signature', 'The leaf is signed with SHA-256 or stronger', 5, 'medium', false],
      ['cipher', 'Forward-secret AEAD cipher', 5, 'low', false],
      ['ocsp-stapling', 'OCSP response stapled', 2, 'low', false],
      ['hsts', 'HSTS max-age of at least one year', 3, 'low', false],
    ] as const
  ).map(([id, label, weight, severity, critical]) =>
    Object.freeze({ id, label, weight, severity, critical }),
  ),
);

/**
 * The lowest percentage that earns each grade, best first; below the last one is `F`.
 * The cut-offs every graded audit shares (`GRADE_CUTOFFS` of `@storefront/core`),
 * published under this rubric's name: the rubric version covers them too.
 */
export const TLS_GRADE_CUTOFFS: GradeCutoffs = GRADE_CUTOFFS;
