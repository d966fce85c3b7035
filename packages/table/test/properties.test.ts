import { fc, test } from '@fast-check/vitest';
import { canonicalize } from '@storefront/core';
import {
  bytesArbitrary,
  contentTypeArbitrary,
  htmlArbitrary,
  makeDocument,
  textArbitrary,
} from '@storefront/test-utils';
import { describe, expect } from 'vitest';
import { extractTables, MAX_TABLES, type TableData } from '../src/index.js';
import { readCsv } from './csv-reader.js';

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');

// Wide spans (colspan up to 1000) are covered by the cap tests; here they would only slow runs down.
const colspanValue = fc.constantFrom('', '0', '1', '2', '3', '-1', ' 2', '2x', '40', 'abc');
const rowspanValue = fc.constantFrom('', '0', '1', '2', '3', '-1', ' 2', '2x', '70000', 'abc');

const cellArbitrary = fc
  .tuple(
    fc.constantFrom('td', 'th'),
    colspanValue,
    rowspanValue,
    fc.array(
      fc.oneof(
        textArbitrary.map(escapeHtml),
        fc.constantFrom('<br>', '<p>p</p>', '"', ',', '\r\n', '<img alt="i">'),
      ),
      { maxLength: 3 },
    ),
  )
  .map(([tag, colspan, rowspan, content]) => {
    const attrs = `${colspan === '' ? '' : ` colspan="${colspan}"`}${rowspan === '' ? '' : ` rowspan="${rowspan}"`}`;
    return `<${tag}${attrs}>${content.join('')}</${tag}>`;
  });

const rowArbitrary = fc
  .array(cellArbitrary, { maxLength: 5 })
  .map((cells) => `<tr>${cells.join('')}</tr>`);

/** Random tables: row groups, captions, spans, quotes, commas, line breaks. */
const tableArbitrary: fc.Arbitrary<string> = fc
  .tuple(
    fc.option(textArbitrary.map(escapeHtml)),
    fc.array(
      fc.tuple(
        fc.constantFrom('', 'thead', 'tbody', 'tfoot'),
        fc.array(rowArbitrary, { maxLength: 4 }),
      ),
      { maxLength: 3 },
    ),
  )
  .map(([caption, groups]) => {
    const body = groups
      .map(([tag, rows]) => (tag === '' ? rows.join('') : `<${tag}>${rows.join('')}</${tag}>`))
      .join('');
    return `<table>${caption === null ? '' : `<caption>${caption}</caption>`}${body}</table>`;
  });

const pageArbitrary = fc
  .array(fc.oneof(tableArbitrary, htmlArbitrary), { minLength: 1, maxLength: 4 })
  .map((parts) => parts.join(''));

const formatArbitrary = fc.constantFrom('both', 'json', 'csv') as fc.Arbitrary<
  'both' | 'json' | 'csv'
>;

function checkInvariants(data: TableData, text: string, format: 'both' | 'json' | 'csv'): void {
  expect(text).toBe(canonicalize(data));
  expect(data.returned).toBe(data.tables.length);
  expect(data.returned).toBeLessThanOrEqual(MAX_TABLES);
  let last = -1;
  for (const table of data.tables) {
    expect(table.index).toBeGreaterThan(last);
    expect(table.index).toBeLessThan(data.tableCount);
    last = table.index;
    expect(new Set(table.columns).size).toBe(table.columns.length);
    for (const column of table.columns) expect(column).not.toBe('');
    expect('rows' in table).toBe(format !== 'csv');
    expect('csv' in table).toBe(format !== 'json');
    if (table.rows !== undefined) {
      expect(table.rows).toHaveLength(table.rowCount);
      const sorted = [...table.columns].sort();
      for (const row of table.rows) {
        expect(Object.keys(row).sort()).toStrictEqual(sorted);
        for (const value of Object.values(row)) expect(typeof value).toBe('string');
      }
    }
    if (table.csv !== undefined) {
      const records = readCsv(table.csv);
      if (table.columns.length === 0) {
        expect(records).toStrictEqual([]);
      } else {
        expect(records[0]).toStrictEqual(table.columns);
        expect(records).toHaveLength(table.rowCount + 1);
        if (table.rows !== undefined) {
          const cells = table.rows.map((row) => table.columns.map((column) => row[column]));
          expect(records.slice(1)).toStrictEqual(cells);
        }
      }
    }
  }
}

describe('extractTables properties', () => {
  test.prop([bytesArbitrary, contentTypeArbitrary])(
    'is total on any bytes and content type',
    (bytes, contentType) => {
      const result = extractTables(makeDocument(bytes, { contentType }));
      if (result.ok) checkInvariants(result.data, result.text, 'both');
      else expect(['unsupported_content_type', 'parse_error', 'not_found']).toContain(result.error);
    },
  );

  test.prop([htmlArbitrary])('is total on arbitrary HTML', (html) => {
    const result = extractTables(makeDocument(html));
    if (result.ok) checkInvariants(result.data, result.text, 'both');
    else expect(['unsupported_content_type', 'not_found']).toContain(result.error);
  });

  test.prop([pageArbitrary, formatArbitrary])(
    'keeps rows and CSV consistent with the columns',
    (html, format) => {
      const result = extractTables(makeDocument(html), { format });
      if (result.ok) checkInvariants(result.data, result.text, format);
      else expect(['unsupported_content_type', 'not_found']).toContain(result.error);
    },
  );

  test.prop([pageArbitrary, fc.nat({ max: 6 })])(
    'returns the same table alone as in the full set',
    (html, index) => {
      const all = extractTables(makeDocument(html));
      const one = extractTables(makeDocument(html), { table: index });
      if (!all.ok) return;
      if (index >= all.data.tableCount) {
        expect(one).toMatchObject({ ok: false, error: 'not_found' });
        return;
      }
      if (!one.ok) throw new Error(one.error);
      expect(one.data.tables).toStrictEqual([all.data.tables[index]]);
    },
  );

  test.prop([pageArbitrary, formatArbitrary])(
    'gives the same text for the same bytes',
    (html, format) => {
      const a = extractTables(makeDocument(html), { format });
      const b = extractTables(makeDocument(html), { format });
      expect(a).toStrictEqual(b);
    },
  );
});
