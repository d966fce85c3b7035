/** Core's `ParamProblem`, re-exported for callers that imported it from here. */
export type { ParamProblem } from '@storefront/core';
export { checkNotarizeParams, type NotarizeParamCheck } from './check-params.js';
export {
  INLINE_SOURCE,
  NOTARIZE_MAX_CONTENT_BYTES,
  NOTARIZE_MAX_CONTENT_CHARS,
  NOTARIZE_MAX_URL_CHARS,
  NOTARIZE_STATEMENT_VERSION,
  WELL_KNOWN_PATH,
} from './limits.js';
export { notarize } from './notarize.js';
export { receiptRule, resultSchema } from './product.js';
export type {
  FetchedNotarizeInput,
  InlineNotarizeInput,
  NotarizeData,
  NotarizeErrorCode,
  NotarizeInput,
  NotarizeOptions,
  NotarizeSubject,
  NotarizeVerify,
} from './types.js';
