export { inspectHeaders } from './inspect-headers.js';
export { HEADERS_MAX_NOTE_CHARS, HEADERS_MAX_VALUE_CHARS } from './limits.js';
export { receiptRule, resultSchema } from './product.js';
export {
  HEADERS_GRADE_CUTOFFS,
  HEADERS_RUBRIC,
  HEADERS_RUBRIC_CHECKS,
  type HeadersRubricRow,
} from './rubric.js';
export type {
  HeadersCheck,
  HeadersData,
  HeadersErrorCode,
  HeadersFinding,
  HeadersGrade,
  HeadersSeverity,
} from './types.js';
