import { StorefrontError } from './errors.js';

/** One row of a newline-joined canonical text: a string, or cells joined by a tab. */
export type Row = string | readonly string[];

/**
 * Join rows into a canonical newline-joined text: `\n` between rows, cells joined by
 * `\t`, no trailing newline (DESIGN §3). A cell that itself holds a tab, a carriage
 * return or a newline would make the text ambiguous, so it is refused: normalise
 * whitespace before joining.
 *
 * @example
 *   joinRows([['Home', 'https://a.example/'], ['Docs', 'https://a.example/docs']])
 *   // 'Home\thttps://a.example/\nDocs\thttps://a.example/docs'
 */
export function joinRows(rows: readonly Row[]): string {
  const lines: string[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i] as Row;
    if (typeof row === 'string') {
      assertCell(row, i, false);
      lines[i] = row;
    } else {
      for (const cell of row) assertCell(cell, i, true);
      lines[i] = row.join('\t');
    }
  }
  return lines.join('\n');
}

function assertCell(cell: string, index: number, tabbed: boolean): void {
  const bad = tabbed ? /[\t\r\n]/ : /[\r\n]/;
  if (typeof cell !== 'string' || bad.test(cell)) {
    throw new StorefrontError(
      'internal_error',
      `Expected row ${index} to hold strings without ${tabbed ? 'tabs or ' : ''}line breaks, got \`${JSON.stringify(cell)}\``,
    );
  }
}
