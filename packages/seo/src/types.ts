import type { ErrorCode, Grade } from '@storefront/core';

/** A letter grade, from `A` (best) to `F` (core's `Grade`). */
export type SeoGrade = Grade;

/** How much a failed check matters. */
export type SeoSeverity = 'high' | 'medium' | 'low';

/** One row of the rubric, as graded for one page. */
export interface SeoCheck {
  /** The rubric row's id (`title`, `description`, `h1`, …). */
  readonly id: string;
  /** What the check asks, in a few words. */
  readonly label: string;
  /** Whether the check passed; a passing check earns its whole weight. */
  readonly pass: boolean;
  /** Points the check is worth. */
  readonly weight: number;
  /** What the page has for this check, as found (capped), or null when it has nothing. */
  readonly value: string | null;
  /** Why the check passed or failed. */
  readonly note: string;
}

/** What to do about one failed check. */
export interface SeoFinding {
  readonly id: string;
  readonly severity: SeoSeverity;
  /** A concrete fix. */
  readonly remediate: string;
}

/** The numbers the checks were graded from. */
export interface SeoCounts {
  /** `<h1>` elements. */
  readonly h1: number;
  /** Headings `<h1>`–`<h6>`. */
  readonly headings: number;
  /** `<img>` elements, and those with an `alt` attribute (empty `alt` counts: it marks decoration). */
  readonly images: number;
  readonly imagesWithAlt: number;
  /** Unique internal and external links (as `@storefront/links` counts them). */
  readonly internalLinks: number;
  readonly externalLinks: number;
  /** `<script type="application/ld+json">` blocks, and those that did not parse. */
  readonly jsonLdBlocks: number;
  readonly jsonLdInvalid: number;
  /** `<link rel="alternate" hreflang>` annotations. */
  readonly hreflang: number;
  /** Subresources loaded over `http:` by an `https:` page. */
  readonly mixedContent: number;
}

/** The structured result of {@link auditSeo}: the `data` of `/buy/seo`. */
export interface SeoData {
  readonly grade: SeoGrade;
  /** Sum of the weights of the passing checks. */
  readonly score: number;
  /** Sum of all weights. */
  readonly maxScore: number;
  /** `floor(score * 100 / maxScore)`. */
  readonly percentage: number;
  readonly passed: number;
  readonly failed: number;
  /** Every check of the rubric, in rubric order. */
  readonly checks: readonly SeoCheck[];
  /** One finding per failed check, in rubric order. */
  readonly findings: readonly SeoFinding[];
  readonly counts: SeoCounts;
  /** The rubric version, {@link SEO_RUBRIC}. */
  readonly rubric: string;
  /**
   * Present, and true, only when a `value`, `note` or `remediate` was cut at its cap
   * (`SEO_MAX_VALUE_CHARS`, `SEO_MAX_NOTE_CHARS`): it then ends with `…`.
   */
  readonly truncatedFields?: true;
}

/** The failures {@link auditSeo} can report. */
export type SeoErrorCode = Extract<
  ErrorCode,
  'invalid_url' | 'unsupported_content_type' | 'parse_error'
>;
