export { type AuditTlsOptions, auditTls } from './audit.js';
export { type Instant, parseCertTime, parseIsoTime, signatureAlgorithmOf } from './der.js';
export { TLS_MAX_CHAIN, TLS_MAX_CHARS, TLS_MAX_NAMES, TLS_MIN_DAYS_LEFT } from './limits.js';
export { receiptRule, resultSchema } from './product.js';
export {
  TLS_GRADE_CUTOFFS,
  TLS_RUBRIC,
  TLS_RUBRIC_CHECKS,
  type TlsRubricRow,
} from './rubric.js';
export type * from './types.js';
