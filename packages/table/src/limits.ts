/** The most tables one response returns (20, DESIGN §7); later tables are left out and `truncatedTables` is true. */
export const MAX_TABLES = 20;

/**
 * The most grid cells one table may expand to (50,000): rows (header included) times the
 * widest row, after `colspan`/`rowspan` expansion. The row that would pass the cap, and
 * every row after it, is left out and the table says `truncated`.
 */
export const MAX_TABLE_CELLS = 50_000;

/** The most grid cells of all returned tables together (200,000); counted like {@link MAX_TABLE_CELLS}. */
export const MAX_RESPONSE_CELLS = 200_000;

/**
 * The most characters of cell text one response carries (4,000,000): every column name,
 * plus for each data row its cell values and, when rows are returned, the column names
 * again as keys. Spans copy text, so this bounds the output however the input is shaped.
 */
export const MAX_RESPONSE_CHARS = 4_000_000;

/**
 * The longest cell value (10,000 characters, UTF-16 code units); a longer one keeps its
 * start and ends with `…` (`capString` of @storefront/core), and its table says `truncated`.
 */
export const MAX_CELL_CHARS = 10_000;

/**
 * The longest column name before a de-duplication suffix (`_2`, …) is added (1,000
 * characters), cut the same way.
 */
export const MAX_COLUMN_NAME_CHARS = 1000;

/** The longest `caption` and page `title` (1,000 characters), cut the same way. */
export const MAX_TITLE_CHARS = 1000;

/** The most characters of the `table` parameter (8, as the spec limits it). */
export const TABLE_PARAM_MAX_LENGTH = 8;
