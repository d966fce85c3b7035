export { canonicalize, type JsonValue } from './canonical-json.js';
export { CUT_MARK, capString, markCut } from './cap.js';
export {
  type ContentType,
  DECODE_CHUNK_BYTES,
  type DecodedChunks,
  type DecodedText,
  type DecodeOptions,
  decodeBytes,
  decodeChunks,
  type EncodingSource,
  parseContentType,
} from './decode.js';
export type { FetchedDocument } from './document.js';
export {
  type AnswerCode,
  ERROR_CATALOGUE,
  ERROR_CODES,
  ERROR_STATUS,
  type ErrorCode,
  type ErrorCodeInfo,
  type ErrorOrigin,
  type ErrorStatus,
  httpStatusOf,
  isAnswerCode,
  isErrorCode,
  type ResultCode,
  StorefrontError,
  type StorefrontErrorOptions,
  UPSTREAM_ERROR_CODES,
  type UpstreamErrorCode,
} from './errors.js';
export {
  GRADE_CUTOFFS,
  GRADE_SUMMARY_SCHEMA,
  type Grade,
  type GradeCutoffs,
  type GradedCheck,
  type GradeOptions,
  type GradeSummary,
  gradeSummary,
} from './grade.js';
export { isSha256Hex, type Sha256Hex, sha256Hex, utf8ByteLength } from './hash.js';
export { MERKLE_TREE, merkleRoot } from './merkle.js';
export { readOptions, typeName } from './options.js';
export { type ParamProblem, URL_MAX_CHARS } from './params.js';
export { type JsonSchema, RECEIPT_RULE_KINDS, type ReceiptRule } from './product.js';
export {
  fail,
  ok,
  type ProductFailure,
  type ProductResult,
  type ProductSuccess,
} from './result.js';
export { joinRows, type Row } from './rows.js';
export { codePointLength, sliceText, type TextSlice } from './slice.js';
