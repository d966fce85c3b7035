import { GRADE_CUTOFFS, type GradeCutoffs } from '@storefront/core';
import type { DnsSeverity } from './types.js';

/** The version of the grading rubric; it changes whenever a weight, a rule or a cut-off does. */
export const DNS_RUBRIC = 'dns-rubric/1';

/** One row of the rubric, without the rule that grades it. */
export interface DnsRubricRow {
  readonly id: string;
  readonly label: string;
  readonly weight: number;
  /** The severity of the finding when the check fails. */
  readonly severity: DnsSeverity;
}

/** The rows of {@link DNS_RUBRIC}, in the order results list them; weights sum to 100. */
export const DNS_RUBRIC_CHECKS: readonly DnsRubricRow[] = Object.freeze(
  (
    [
      ['resolves', 'The domain has an address (A, AAAA or CNAME)', 10, 'high'],
      ['ns-redundant', 'At least two name servers', 10, 'medium'],
      ['mx', 'Mail routing is stated (MX, or a null MX)', 5, 'low'],
      ['spf-present', 'Exactly one valid SPF record', 15, 'high'],
      ['spf-lookups', 'SPF needs at most 10 DNS lookups', 10, 'high'],
      ['spf-all', 'SPF ends in -all or ~all', 5, 'medium'],
      ['dmarc-present', 'A valid DMARC record', 15, 'high'],
      ['dmarc-policy', 'DMARC enforces (quarantine or reject, on all mail)', 10, 'medium'],
      ['dmarc-reporting', 'DMARC aggregate reports are asked for (rua)', 5, 'low'],
      ['mta-sts', 'MTA-STS is announced', 5, 'low'],
      ['tls-rpt', 'SMTP TLS reporting is announced', 3, 'low'],
      ['caa', 'CAA names the certificate authorities allowed to issue', 5, 'low'],
      ['dnssec', 'The resolver validated the answers with DNSSEC (AD flag)', 2, 'low'],
    ] as const
  ).map(([id, label, weight, severity]) => Object.freeze({ id, label, weight, severity })),
);

/**
 * The lowest percentage that earns each grade, best first; below the last one is `F`.
 * The cut-offs every graded audit shares (`GRADE_CUTOFFS` of `@storefront/core`),
 * published under this rubric's name: the rubric version covers them too.
 */
export const DNS_GRADE_CUTOFFS: GradeCutoffs = GRADE_CUTOFFS;
