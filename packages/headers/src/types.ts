import type { ErrorCode, Grade } from '@storefront/core';

/** A letter grade, from `A` (best) to `F` (core's `Grade`). */
export type HeadersGrade = Grade;

/** How much a failed check matters. */
export type HeadersSeverity = 'high' | 'medium' | 'low';

/** One row of the rubric, as graded for one response. */
export interface HeadersCheck {
  /** The lower-case header name the check is about (several checks may share one). */
  readonly header: string;
  /** What the check asks, in a few words. */
  readonly label: string;
  /** Whether the header was sent (the clickjacking check: either control). */
  readonly present: boolean;
  /** Whether the check passed; a passing check earns its whole weight. */
  readonly pass: boolean;
  /** Points the check is worth. */
  readonly weight: number;
  /** The header value as received (cookie values removed), or null when not sent. */
  readonly value: string | null;
  /** Why the check passed or failed. */
  readonly note: string;
}

/** What to do about one failed check. */
export interface HeadersFinding {
  readonly header: string;
  readonly severity: HeadersSeverity;
  /** A concrete fix, with the exact header value to send. */
  readonly remediate: string;
}

/** The structured result of {@link inspectHeaders}: the spec's `data` for `/buy/headers`. */
export interface HeadersData {
  readonly grade: HeadersGrade;
  /** Sum of the weights of the passing checks. */
  readonly score: number;
  /** Sum of all weights. */
  readonly maxScore: number;
  /** `floor(score * 100 / maxScore)`. */
  readonly percentage: number;
  /** Number of passing checks. */
  readonly passed: number;
  /** Number of failing checks. */
  readonly failed: number;
  /** Every check of the rubric, in rubric order. */
  readonly checks: readonly HeadersCheck[];
  /** One finding per failed check, in rubric order. */
  readonly findings: readonly HeadersFinding[];
  /** The `Server` header value, or null when not sent or empty. */
  readonly serverBanner: string | null;
  /** The rubric version, {@link HEADERS_RUBRIC}. */
  readonly rubric: string;
  /**
   * Present, and true, only when a `value`, `note`, `remediate` or `serverBanner` was cut at
   * its cap (`HEADERS_MAX_VALUE_CHARS`, `HEADERS_MAX_NOTE_CHARS`): it then ends with `…`.
   */
  readonly truncatedFields?: true;
}

/** The failures {@link inspectHeaders} can report. */
export type HeadersErrorCode = Extract<ErrorCode, 'invalid_url'>;
