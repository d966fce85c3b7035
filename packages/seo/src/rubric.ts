import { GRADE_CUTOFFS, type GradeCutoffs } from '@storefront/core';
import type { SeoSeverity } from './types.js';

/** The version of the grading rubric; it changes whenever a weight, a rule or a cut-off does. */
export const SEO_RUBRIC = 'seo-rubric/1';

/** One row of the rubric, without the rule that grades it. */
export interface SeoRubricRow {
  readonly id: string;
  readonly label: string;
  readonly weight: number;
  /** The severity of the finding when the check fails. */
  readonly severity: SeoSeverity;
}

/** The rows of {@link SEO_RUBRIC}, in the order results list them; weights sum to 100. */
export const SEO_RUBRIC_CHECKS: readonly SeoRubricRow[] = Object.freeze(
  (
    [
      ['title', 'One title of 10 to 60 characters', 12, 'high'],
      ['description', 'One meta description of 50 to 160 characters', 10, 'medium'],
      ['h1', 'Exactly one h1', 10, 'medium'],
      ['heading-order', 'Heading levels never skip one', 5, 'low'],
      ['canonical', 'One absolute canonical URL', 8, 'medium'],
      ['indexable', 'Robots meta and X-Robots-Tag allow indexing', 12, 'high'],
      ['hreflang', 'hreflang pairs are valid and include the page', 5, 'low'],
      ['image-alt', 'Every image has an alt attribute', 8, 'medium'],
      ['structured-data', 'Structured data present and parseable', 8, 'medium'],
      ['open-graph', 'Open Graph title, type, image and url', 6, 'low'],
      ['twitter', 'Twitter card with a title and an image', 4, 'low'],
      ['links', 'At least one internal link', 4, 'low'],
      ['mixed-content', 'Served over HTTPS with no http subresources', 8, 'medium'],
    ] as const
  ).map(([id, label, weight, severity]) => Object.freeze({ id, label, weight, severity })),
);

/**
 * The lowest percentage that earns each grade, best first; below the last one is `F`.
 * The cut-offs every graded audit shares (`GRADE_CUTOFFS` of `@storefront/core`),
 * published under this rubric's name: the rubric version covers them too.
 */
export const SEO_GRADE_CUTOFFS: GradeCutoffs = GRADE_CUTOFFS;
