import type { ErrorCode } from '@storefront/core';

/** Which serialisations each table carries: `both` (default), `json` (rows only) or `csv` (csv only). */
export type TableFormat = 'both' | 'json' | 'csv';

/** Options of {@link extractTables}, one per `/buy/table` parameter. */
export interface TableOptions {
  /** The 0-based index of a single table in document order; omit for every table up to {@link MAX_TABLES}. */
  readonly table?: number;
  /** Which serialisations are in `data` (default `both`). */
  readonly format?: TableFormat;
}

/** One extracted table. */
export interface ExtractedTable {
  /** 0-based position among all the page's tables, nested ones included, in document order. */
  readonly index: number;
  /** The `<caption>` text, whitespace collapsed, or null when there is none or it is empty. */
  readonly caption: string | null;
  /** Column names in order, unique: header text, `column_<n>` for an empty one, `_2`, `_3`… for repeats. */
  readonly columns: readonly string[];
  /** Data rows returned (header rows not counted). */
  readonly rowCount: number;
  /** True when any row (header rows included) covers a different number of cells than the header, before padding. */
  readonly ragged: boolean;
  /** True when a cell or size cap cut rows off this table, or a cell, column name or caption was cut at its cap. */
  readonly truncated: boolean;
  /** Data rows keyed by column name, every column present (`""` for padding); absent when `format` is `csv`. */
  readonly rows?: readonly Readonly<Record<string, string>>[];
  /** RFC 4180 CSV: header record first, CRLF after every record; absent when `format` is `json`. */
  readonly csv?: string;
}

/** The `data` of a `/buy/table` result. */
export interface TableData {
  /** The page title, or null. */
  readonly title: string | null;
  /** Every table of the page, nested ones included. */
  readonly tableCount: number;
  /** Tables in {@link tables}. */
  readonly returned: number;
  /** True when {@link MAX_TABLES} left tables out. */
  readonly truncatedTables: boolean;
  readonly tables: readonly ExtractedTable[];
  /**
   * Present, and true, only when a value was cut at its cap (`MAX_TITLE_CHARS`,
   * `MAX_CELL_CHARS`, `MAX_COLUMN_NAME_CHARS`): it then ends with `…`.
   */
  readonly truncatedFields?: true;
}

/** The failures {@link extractTables} can report. */
export type TableErrorCode = Extract<
  ErrorCode,
  'unsupported_content_type' | 'parse_error' | 'not_found'
>;
