export {
  DESCRIPTION_MAX_CHARS,
  extractText,
  TEXT_MAX_DESCRIPTION_CHARS,
  TEXT_MAX_TITLE_CHARS,
} from './extract-text.js';
export {
  FETCH_EXTRACT_MAX_CHARS,
  FETCH_FIELD_TYPES,
  FETCH_MAX_FIELDS,
  type FetchExtract,
  type FetchField,
  parseFetchExtract,
} from './fields.js';
export { receiptRule, resultSchema } from './product.js';
export type { FieldValue, TextData, TextErrorCode, TextLink, TextOptions } from './types.js';
