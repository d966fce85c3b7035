/** Core's `ParamProblem`, re-exported for callers that imported it from here. */
export type { ParamProblem } from '@storefront/core';
export { checkDiffParams, type DiffParamCheck } from './check-params.js';
export { diffText } from './diff-text.js';
export {
  DIFF_CLAIM_VERSION,
  DIFF_CONTEXT_LINES,
  DIFF_MAX_EDIT_DISTANCE,
  DIFF_MAX_HUNK_LINE_CHARS,
  DIFF_MAX_HUNK_LINES,
  DIFF_MAX_PREV_HASH_CHARS,
  DIFF_MAX_PREV_TEXT_CHARS,
  DIFF_MAX_WORK,
} from './limits.js';
export { receiptRule, resultSchema } from './product.js';
export type { DiffData, DiffErrorCode, DiffInput, DiffLines, DiffOptions } from './types.js';
