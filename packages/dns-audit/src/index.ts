export { auditDns } from './audit.js';
export { checkDnsDomain, type DnsDomainCheck } from './domain.js';
export { type GatherDnsOptions, gatherDns, POLICY_PREFIXES } from './gather.js';
export {
  DNS_MAX_NAME_CHARS,
  DNS_MAX_QUERIES,
  DNS_MAX_RECORD_CHARS,
  DNS_MAX_RECORDS,
  DNS_MAX_SPF_DEPTH,
} from './limits.js';
export { reportDmarc, reportMtaSts, reportTlsRpt } from './policy.js';
export { receiptRule, resultSchema } from './product.js';
export { DNS_GRADE_CUTOFFS, DNS_RUBRIC, DNS_RUBRIC_CHECKS, type DnsRubricRow } from './rubric.js';
export { isSpfRecord, parseSpf, reportSpf, SPF_LOOKUP_LIMIT, type SpfTerm } from './spf.js';
export * from './types.js';
