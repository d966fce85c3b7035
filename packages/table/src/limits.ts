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

/** The most characters of the `table` parameter (8, as the spec limits it). */
export const TABLE_PARAM_MAX_LENGTH = 8;
