export { NUMBER_MAX_CHARS, parseNumber } from './coerce.js';
export { EXTRACT_MAX_TITLE_CHARS, extract } from './extract.js';
export { LOOKUP_MAX_BRANCH } from './lookup.js';
export { MICRODATA_MAX_VALUES } from './microdata.js';
export {
  EXTRACT_FIELD_NAME_MAX_CHARS,
  EXTRACT_FIELD_TYPES,
  EXTRACT_MAX_FIELDS,
  EXTRACT_SCHEMA_MAX_CHARS,
  parseExtractSchema,
} from './parse-schema.js';
export { receiptRule, resultSchema } from './product.js';
export { EXTRACT_MAX_VALUE_CHARS, resolveFields } from './resolve-fields.js';
export type {
  ExtractData,
  ExtractErrorCode,
  ExtractField,
  ExtractFieldType,
  ExtractFormat,
  ExtractOptions,
  ExtractValue,
  ParsedExtractSchema,
  ResolvedFields,
} from './types.js';
export { WELL_KNOWN_FIELDS } from './well-known.js';
