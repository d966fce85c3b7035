export { extractTables } from './extract-tables.js';
export {
  MAX_CELL_CHARS,
  MAX_COLUMN_NAME_CHARS,
  MAX_RESPONSE_CELLS,
  MAX_RESPONSE_CHARS,
  MAX_TABLE_CELLS,
  MAX_TABLES,
  MAX_TITLE_CHARS,
  TABLE_PARAM_MAX_LENGTH,
} from './limits.js';
export { type ParamResult, parseTableFormat, parseTableIndex } from './params.js';
export { receiptRule, resultSchema } from './product.js';
export type {
  ExtractedTable,
  TableData,
  TableErrorCode,
  TableFormat,
  TableOptions,
} from './types.js';
