export { auditRobots } from './audit-robots.js';
export {
  type AuditOrigin,
  type AuditPath,
  parseAuditOrigin,
  parseAuditPath,
} from './audit-target.js';
export { AI_CRAWLERS, CRAWLER_PURPOSES } from './crawlers.js';
export {
  AI_TXT_MAX_BYTES,
  AI_TXT_MAX_LISTED_FILE_TYPES,
  AUDIT_DOMAIN_MAX_LENGTH,
  AUDIT_PATH_MAX_LENGTH,
  LLMS_TXT_MAX_BYTES,
  LLMS_TXT_MAX_LINKS,
  ROBOTS_AUDIT_VERSION,
  ROBOTS_MAX_BYTES,
  ROBOTS_MAX_CONTENT_TYPE_CHARS,
  ROBOTS_MAX_FIELD_CHARS,
  ROBOTS_MAX_PATH_LENGTH,
  ROBOTS_MAX_REDIRECTS,
  ROBOTS_MAX_RULE_LENGTH,
  ROBOTS_MAX_RULES,
  ROBOTS_MAX_SITEMAPS,
  ROBOTS_MAX_WARNINGS,
} from './limits.js';
export { isAllowed, matchRobots } from './match-robots.js';
export { parseAiTxt } from './parse-ai-txt.js';
export { parseLlmsTxt } from './parse-llms-txt.js';
export { parseRobots } from './parse-robots.js';
export type { StepCounter } from './pattern.js';
export { normalizeRobotsPath } from './percent-encoding.js';
export { receiptRule, resultSchema } from './product.js';
export { extractProductToken } from './product-token.js';
export type {
  AiTxtPolicy,
  CrawlerInfo,
  CrawlerPurpose,
  CrawlerVerdict,
  FetchErrorCode,
  FetchedFile,
  FileOutcome,
  FilePolicyFetch,
  LlmsTxtLink,
  LlmsTxtPolicy,
  LlmsTxtSection,
  ParsedAiTxt,
  ParsedLlmsTxt,
  ParsedRobots,
  RobotsData,
  RobotsErrorCode,
  RobotsGroup,
  RobotsInput,
  RobotsMatch,
  RobotsMatchReason,
  RobotsOptions,
  RobotsRule,
  RobotsSummary,
  RobotsTxtPolicy,
  RobotsWarning,
  RobotsWarningIssue,
  Verdict,
  VerdictReason,
} from './types.js';
