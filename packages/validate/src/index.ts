export {
  VALIDATE_CACHE_SIZE,
  VALIDATE_FORMATS,
  VALIDATE_MAX_COUNTED_ERRORS,
  VALIDATE_MAX_DOCUMENT_DEPTH,
  VALIDATE_MAX_ERRORS,
  VALIDATE_MAX_MESSAGE_CHARS,
  VALIDATE_MAX_PATH_CHARS,
  VALIDATE_MAX_PATTERN_LENGTH,
  VALIDATE_MAX_PATTERN_SIZE,
  VALIDATE_MAX_PATTERNS,
  VALIDATE_MAX_POINTER_LENGTH,
  VALIDATE_MAX_PROPERTIES,
  VALIDATE_MAX_SCHEMA_DEPTH,
  VALIDATE_MAX_SCHEMA_LENGTH,
  VALIDATE_MAX_SCHEMA_NODES,
  VALIDATE_MAX_WORK,
  VALIDATE_TYPE_NAMES,
} from './limits.js';
export { parseSchema } from './parse-schema.js';
export { parsePointer } from './pointer.js';
export { receiptRule, resultSchema } from './product.js';
export type {
  JsonTypeName,
  NormalizedSchema,
  ParsedPointer,
  ParsedSchema,
  SchemaForm,
  ValidateData,
  ValidateErrorCode,
  ValidateFormat,
  ValidateOptions,
  ValidationError,
} from './types.js';
export { validateDocument } from './validate-document.js';
