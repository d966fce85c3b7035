export {
  MARKDOWN_MAX_BYTES,
  MARKDOWN_MAX_NESTING,
  MARKDOWN_MAX_TABLE_COLUMNS,
  MARKDOWN_MAX_TITLE_CHARS,
} from './limits.js';
export { receiptRule, resultSchema } from './product.js';
export { toMarkdown } from './to-markdown.js';
export type { MarkdownData, MarkdownErrorCode, MarkdownOptions } from './types.js';
