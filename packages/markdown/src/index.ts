export {
  MARKDOWN_MAX_BYTES,
  MARKDOWN_MAX_NESTING,
  MARKDOWN_MAX_TABLE_COLUMNS,
} from './limits.js';
export { toMarkdown } from './to-markdown.js';
export type { MarkdownData, MarkdownErrorCode, MarkdownOptions } from './types.js';
