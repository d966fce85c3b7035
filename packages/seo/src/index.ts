export { auditSeo } from './audit-seo.js';
export { SEO_MAX_LISTED, SEO_MAX_NOTE_CHARS, SEO_MAX_VALUE_CHARS } from './limits.js';
export { receiptRule, resultSchema } from './product.js';
export { SEO_GRADE_CUTOFFS, SEO_RUBRIC, SEO_RUBRIC_CHECKS, type SeoRubricRow } from './rubric.js';
export type {
  SeoCheck,
  SeoCounts,
  SeoData,
  SeoErrorCode,
  SeoFinding,
  SeoGrade,
  SeoSeverity,
} from './types.js';
