/**
 * The most UTF-8 bytes of markdown a result carries (200 KiB, the spec's markdown output
 * cap). Longer markdown keeps as much as fits: the block that reaches the cap is cut
 * inside (a paragraph at a space, a code block after its last whole line, its fence
 * closed), a heading, rule or table row that does not fit is left out, open containers
 * are simply left, and `truncated` is set.
 */
export const MARKDOWN_MAX_BYTES = 200 * 1024;

/**
 * The deepest nesting of lists and blockquotes kept as structure. A list or blockquote
 * nested deeper is flattened into its parent as plain blocks, so the markdown stays
 * readable and the serializer never recurses deeper than this.
 */
export const MARKDOWN_MAX_NESTING = 16;

/**
 * The most columns a table keeps. Cells past the last column are joined, space-separated,
 * onto the row's last cell, so no text is lost and `colspan="1000"` cannot blow up a row.
 */
export const MARKDOWN_MAX_TABLE_COLUMNS = 64;

/**
 * The longest `title` (1,000 characters, UTF-16 code units); a longer one keeps its start
 * and ends with `…` (`capString` of @storefront/core).
 */
export const MARKDOWN_MAX_TITLE_CHARS = 1000;
