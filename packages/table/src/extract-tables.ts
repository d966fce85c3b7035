import {
  canonicalize,
  capString,
  type FetchedDocument,
  fail,
  ok,
  type ProductResult,
  readOptions,
  StorefrontError,
} from '@storefront/core';
import { loadHtml } from '@storefront/html';
import { columnNames, cutsNames, headerParts, namesLength } from './columns.js';
import { csvRecord } from './csv.js';
import { findTables } from './find-tables.js';
import {
  MAX_CELL_CHARS,
  MAX_RESPONSE_CELLS,
  MAX_RESPONSE_CHARS,
  MAX_TABLES,
  MAX_TITLE_CHARS,
} from './limits.js';
import { formTable } from './table-grid.js';
import type { ExtractedTable, TableData, TableFormat, TableOptions } from './types.js';

/**
 * Turn the HTML tables of a page into rows keyed by column name and RFC 4180 CSV, with
 * `colspan`/`rowspan` expanded. Every table counts, nested ones included, in document
 * order; at most {@link MAX_TABLES} are returned, or the single one `options.table` names.
 * `text` is the canonical JSON of `data`.
 *
 * @example
 *   const result = extractTables(doc, { format: 'json' });
 *   if (result.ok) console.log(result.data.tables[0]?.rows);
 */
export function extractTables(
  doc: FetchedDocument,
  options?: Readonly<TableOptions> | null,
): ProductResult<TableData> {
  const { table: only, format } = checkOptions(options);

  const loaded = loadHtml(doc);
  if (!loaded.ok) return fail(loaded.error, loaded.message);
  const pageTitle = loaded.page.title;
  const title = pageTitle === null ? null : capString(pageTitle, MAX_TITLE_CHARS);

  const elements = findTables(loaded.page.document);
  const tableCount = elements.length;
  if (tableCount === 0) {
    return fail<TableData>('not_found', 'The page has no tables.', { title, tableCount });
  }
  if (only !== undefined && only >= tableCount) {
    return fail<TableData>(
      'not_found',
      `Table index ${only} is out of range: the page has ${tableCount} ${tableCount === 1 ? 'table' : 'tables'} (indexes 0 to ${tableCount - 1}).`,
      { title, tableCount },
    );
  }

  const indexes =
    only !== undefined
      ? [only]
      : Array.from({ length: Math.min(tableCount, MAX_TABLES) }, (_, i) => i);
  const budget = { cells: MAX_RESPONSE_CELLS, chars: MAX_RESPONSE_CHARS };
  const tables = indexes.map((index) => buildTable(elements[index]!, index, format, budget));

  const data: { -readonly [K in keyof TableData]: TableData[K] } = {
    title,
    tableCount,
    returned: tables.length,
    truncatedTables: only === undefined && tableCount > MAX_TABLES,
    tables: tables.map(({ table }) => table),
  };
  // Only when a value was cut, so results of ordinary pages keep their shape.
  if (title !== pageTitle || tables.some(({ cut }) => cut)) data.truncatedFields = true;
  return ok(canonicalize(data), data);
}

interface Budget {
  cells: number;
  chars: number;
}

function buildTable(
  element: Parameters<typeof formTable>[0],
  index: number,
  format: TableFormat,
  budget: Budget,
): { table: ExtractedTable; cut: boolean } {
  const grid = formTable(element, budget.cells);
  budget.cells -= grid.cells;
  let truncated = grid.truncated;
  // A cell, column name or caption cut at its cap.
  let cut = false;
  const withRows = format !== 'csv';
  const withCsv = format !== 'json';

  // A table with no cells at all has nothing to key rows by: no columns, no rows.
  const parts = grid.width === 0 ? [] : headerParts(grid);
  let columns: string[] = [];
  const values: string[][] = [];
  // Measure before building: a wide span of a long header would otherwise build huge names.
  const names = namesLength(parts) > budget.chars ? null : columnNames(parts);
  if (names !== null && cutsNames(parts)) cut = true;
  let keysLength = 0;
  for (const name of names ?? []) keysLength += name.length;
  if (names === null || keysLength > budget.chars) {
    truncated = true;
  } else {
    columns = names;
    budget.chars -= keysLength;
    const width = columns.length;
    for (let r = grid.headerRows; r < grid.rows.length && width > 0; r++) {
      const slots = grid.rows[r]!.slots;
      const row: string[] = new Array(width);
      let cost = withRows ? keysLength : 0;
      for (let x = 0; x < width; x++) {
        const full = slots[x]?.text ?? '';
        const text = capString(full, MAX_CELL_CHARS);
        if (text !== full) cut = true;
        row[x] = text;
        cost += text.length;
      }
      if (cost > budget.chars) {
        truncated = true;
        break;
      }
      budget.chars -= cost;
      values.push(row);
    }
  }

  let ragged = false;
  if (grid.headerRows > 0) {
    let headerWidth = 0;
    for (let r = 0; r < grid.headerRows; r++) {
      headerWidth = Math.max(headerWidth, grid.rows[r]!.covered);
    }
    // Header rows, and the data rows returned.
    const last = grid.headerRows + values.length;
    for (let r = 0; r < last && !ragged; r++) ragged = grid.rows[r]!.covered !== headerWidth;
  }

  const caption = grid.caption === null ? null : capString(grid.caption, MAX_TITLE_CHARS);
  if (caption !== grid.caption) cut = true;
  const table: {
    index: number;
    caption: string | null;
    columns: string[];
    rowCount: number;
    ragged: boolean;
    truncated: boolean;
    rows?: Record<string, string>[];
    csv?: string;
  } = {
    index,
    caption,
    columns,
    rowCount: values.length,
    ragged,
    truncated: truncated || cut,
  };
  if (withRows) table.rows = values.map((row) => keyed(columns, row));
  if (withCsv) {
    const records = columns.length === 0 ? [] : [csvRecord(columns), ...values.map(csvRecord)];
    table.csv = records.join('');
  }
  return { table, cut };
}

/** A row object keyed by column; defined properties, so a column named `__proto__` is an ordinary key. */
function keyed(columns: readonly string[], row: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let x = 0; x < columns.length; x++) {
    Object.defineProperty(out, columns[x]!, {
      value: row[x],
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function checkOptions(options: unknown): { table: number | undefined; format: TableFormat } {
  const { table, format } = readOptions(options, ['table', 'format'], 'extractTables');
  if (table !== undefined && !(Number.isSafeInteger(table) && (table as number) >= 0)) {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`options.table\` to be a non-negative integer, got \`${String(table)}\``,
    );
  }
  if (format !== undefined && format !== 'both' && format !== 'json' && format !== 'csv') {
    throw new StorefrontError(
      'invalid_params',
      `Expected \`options.format\` to be \`both\`, \`json\` or \`csv\`, got \`${String(format)}\``,
    );
  }
  return {
    table: table as number | undefined,
    format: (format as TableFormat | undefined) ?? 'both',
  };
}
