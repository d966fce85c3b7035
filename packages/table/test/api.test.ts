import { fileURLToPath } from 'node:url';
import { canonicalize, StorefrontError } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it, vi } from 'vitest';
import * as table from '../src/index.js';
import {
  type ExtractedTable,
  extractTables,
  MAX_COLUMN_NAME_CHARS,
  MAX_RESPONSE_CELLS,
  MAX_RESPONSE_CHARS,
  MAX_TABLE_CELLS,
  MAX_TABLES,
  parseTableFormat,
  parseTableIndex,
  type TableData,
  type TableOptions,
} from '../src/index.js';
import { readCsv } from './csv-reader.js';

function tables(html: string, options?: TableOptions): TableData {
  const result = extractTables(makeDocument(html), options);
  if (!result.ok) throw new Error(`expected ok, got ${result.error}: ${result.message}`);
  expect(result.text).toBe(canonicalize(result.data));
  return result.data;
}

function only(html: string, options?: TableOptions): ExtractedTable {
  return tables(html, options).tables[0]!;
}

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(table).sort()).toStrictEqual([
      'MAX_CELL_CHARS',
      'MAX_COLUMN_NAME_CHARS',
      'MAX_RESPONSE_CELLS',
      'MAX_RESPONSE_CHARS',
      'MAX_TABLES',
      'MAX_TABLE_CELLS',
      'MAX_TITLE_CHARS',
      'TABLE_PARAM_MAX_LENGTH',
      'extractTables',
      'parseTableFormat',
      'parseTableIndex',
      'receiptRule',
      'resultSchema',
    ]);
  });

  it('has the documented caps', () => {
    expect([MAX_TABLES, MAX_TABLE_CELLS, MAX_RESPONSE_CELLS, MAX_RESPONSE_CHARS]).toStrictEqual([
      20, 50_000, 200_000, 4_000_000,
    ]);
    expect(table.TABLE_PARAM_MAX_LENGTH).toBe(8);
  });
});

describe('error codes', () => {
  it('reports unsupported_content_type for a PNG', () => {
    const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(extractTables(makeDocument(png, { contentType: 'image/png' }))).toMatchObject({
      ok: false,
      error: 'unsupported_content_type',
    });
  });

  it('reports not_found for a page without tables, with the title and a count of 0', () => {
    expect(extractTables(makeDocument('<title>T</title><p>none</p>'))).toStrictEqual({
      ok: false,
      error: 'not_found',
      message: 'The page has no tables.',
      data: { title: 'T', tableCount: 0 },
    });
  });

  it('reports not_found for an index out of range, naming how many tables there are', () => {
    const html = '<table><tr><td>a</td></tr></table>';
    expect(extractTables(makeDocument(html), { table: 1 })).toStrictEqual({
      ok: false,
      error: 'not_found',
      message: 'Table index 1 is out of range: the page has 1 table (indexes 0 to 0).',
      data: { title: null, tableCount: 1 },
    });
  });

  it('reports parse_error when the parser gives up', async () => {
    // The tokenizer as @storefront/html resolves it (htmlparser2 is its dependency, not ours).
    const htmlparser2 = fileURLToPath(
      import.meta.resolve('htmlparser2', import.meta.resolve('@storefront/html')),
    );
    vi.resetModules();
    vi.doMock(htmlparser2, async (importOriginal) => ({
      ...(await importOriginal<Record<string, unknown>>()),
      Tokenizer: class {
        write(): void {
          throw new RangeError('engine limit');
        }
      },
    }));
    try {
      const fresh = await import('../src/index.js');
      const result = fresh.extractTables(makeDocument('<table><tr><td>x</td></tr></table>'));
      expect(result).toMatchObject({ ok: false, error: 'parse_error' });
    } finally {
      vi.doUnmock(htmlparser2);
      vi.resetModules();
    }
  });
});

describe('misuse', () => {
  const doc = makeDocument('<table><tr><td>x</td></tr></table>');

  it('throws on a table option that is not a non-negative integer', () => {
    for (const value of [-1, 1.5, Number.NaN, '1', 2 ** 53]) {
      expect(() => extractTables(doc, { table: value as number })).toThrow(StorefrontError);
    }
  });

  it('throws on an unknown format and on options that are not an object', () => {
    expect(() => extractTables(doc, { format: 'xml' as never })).toThrow(/`both`, `json` or `csv`/);
    expect(() => extractTables(doc, 'csv' as never)).toThrow(StorefrontError);
    expect(() => extractTables(doc, [] as never)).toThrow(/got `array`/);
  });

  it('accepts null, undefined and an empty object', () => {
    for (const options of [null, undefined, {}]) expect(extractTables(doc, options).ok).toBe(true);
  });
});

describe('parameter parsers', () => {
  it('accepts 1 to 8 ASCII digits as a table index', () => {
    expect(parseTableIndex('0')).toStrictEqual({ ok: true, value: 0 });
    expect(parseTableIndex('007')).toStrictEqual({ ok: true, value: 7 });
    expect(parseTableIndex('99999999')).toStrictEqual({ ok: true, value: 99_999_999 });
  });

  it('refuses anything else with a message naming the parameter', () => {
    for (const value of [
      '',
      '123456789',
      '-1',
      '+1',
      ' 1',
      '1 ',
      '1.0',
      '1e3',
      '0x1',
      '\uff11',
      'one',
    ]) {
      const result = parseTableIndex(value);
      expect(result.ok, value).toBe(false);
      expect(result.ok ? '' : result.message).toMatch(/^Expected `table`/);
    }
    expect(parseTableIndex('123456789')).toStrictEqual({
      ok: false,
      message: 'Expected `table` to be at most 8 characters, got 9',
    });
  });

  it('accepts exactly both, json and csv as a format', () => {
    for (const value of ['both', 'json', 'csv'] as const) {
      expect(parseTableFormat(value)).toStrictEqual({ ok: true, value });
    }
    for (const value of ['', 'CSV', 'xml', ' json', 'both,csv']) {
      expect(parseTableFormat(value)).toMatchObject({ ok: false });
    }
    expect(parseTableFormat('xml')).toStrictEqual({
      ok: false,
      message: 'Expected `format` to be `both`, `json` or `csv`, got `xml`',
    });
  });
});

describe('tables', () => {
  it('counts nested tables in document order and leaves their text out of the outer cell', () => {
    const data = tables(
      '<table><tr><th>A</th></tr><tr><td>x<table><tr><th>B</th></tr><tr><td>y</td></tr></table>z</td></tr></table>',
    );
    expect(data.tables.map((t) => [t.index, t.columns, t.rows])).toStrictEqual([
      [0, ['A'], [{ A: 'x\nz' }]],
      [1, ['B'], [{ B: 'y' }]],
    ]);
  });

  it('selects any table by index, including ones beyond MAX_TABLES', () => {
    const html = Array.from(
      { length: 30 },
      (_, i) => `<table><tr><th>n</th></tr><tr><td>${i}</td></tr></table>`,
    ).join('');
    const all = tables(html);
    expect([all.tableCount, all.returned, all.truncatedTables]).toStrictEqual([30, 20, true]);
    expect(all.tables.map((t) => t.index)).toStrictEqual(Array.from({ length: 20 }, (_, i) => i));
    const one = tables(html, { table: 25 });
    expect([one.tableCount, one.returned, one.truncatedTables]).toStrictEqual([30, 1, false]);
    expect(one.tables[0]).toMatchObject({ index: 25, rows: [{ n: '25' }] });
  });

  it('leaves rows out under format=csv and csv out under format=json, with the same content', () => {
    const html = '<table><tr><th>a</th><th>b</th></tr><tr><td>1,2</td><td>"q"</td></tr></table>';
    const both = only(html);
    const json = only(html, { format: 'json' });
    const csv = only(html, { format: 'csv' });
    expect('csv' in json).toBe(false);
    expect('rows' in csv).toBe(false);
    expect(json.rows).toStrictEqual(both.rows);
    expect(csv.csv).toBe(both.csv);
    expect(both.csv).toBe('a,b\r\n"1,2","""q"""\r\n');
  });

  it('keys rows by column in column order, even for a column named __proto__', () => {
    const t = only(
      '<table><tr><th>__proto__</th><th>constructor</th><th>z</th></tr><tr><td>1</td><td>2</td><td>3</td></tr></table>',
    );
    const row = t.rows![0]!;
    expect(Object.keys(row)).toStrictEqual(['__proto__', 'constructor', 'z']);
    expect(Object.getPrototypeOf(row)).toBe(Object.prototype);
    expect(Object.hasOwn(row, '__proto__')).toBe(true);
    expect(JSON.parse(JSON.stringify(row))).toStrictEqual(
      JSON.parse('{"__proto__":"1","constructor":"2","z":"3"}'),
    );
  });

  it('counts header rows in ragged and compares every row with the header width', () => {
    expect(
      only('<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>').ragged,
    ).toBe(false);
    expect(only('<table><tr><th>a</th><th>b</th></tr><tr><td>1</td></tr></table>').ragged).toBe(
      true,
    );
    expect(only('<table><tr><th>a</th></tr><tr><td>1</td><td>2</td></tr></table>')).toMatchObject({
      ragged: true,
      columns: ['a', 'column_2'],
    });
    // Spans count as covered cells: not ragged.
    expect(
      only('<table><tr><th colspan="2">a</th></tr><tr><td>1</td><td>2</td></tr></table>').ragged,
    ).toBe(false);
  });
});

describe('caps', () => {
  it(`stops a table at ${MAX_TABLE_CELLS} grid cells, whatever the spans ask for`, () => {
    // One row per group: colspan is clamped to 1000 and rowspan to the group, so each row
    // is 1000 slots and 50 rows fit.
    const groups = '<tbody><tr><td colspan="5000" rowspan="65534">x</td></tr></tbody>'.repeat(100);
    const t = only(`<table>${groups}</table>`);
    expect(t.columns).toHaveLength(1000);
    expect(t.rowCount).toBe(49);
    expect(t.truncated).toBe(true);
    // In one group each cell also covers the rows below, so row n starts at slot 1000(n-1)
    // and is 1000n wide: 7 rows of 7000 fit (49,000 cells), the 8th would not.
    const stacked = only(
      `<table>${'<tr><td colspan="1000" rowspan="65534">x</td></tr>'.repeat(100)}</table>`,
    );
    expect([stacked.columns.length, stacked.rowCount, stacked.truncated]).toStrictEqual([
      7000,
      6,
      true,
    ]);
  });

  it('stops at the first row that is too wide, before expanding it', () => {
    const row = '<td colspan="1000">x</td>'.repeat(60);
    const t = only(`<table><tr>${row}</tr><tr><td>y</td></tr></table>`);
    expect(t).toMatchObject({ columns: [], rowCount: 0, truncated: true, csv: '' });
  });

  it(`shares ${MAX_RESPONSE_CELLS} cells between the tables of a response`, () => {
    // Each table is 200 rows of 250 slots: 50,000 cells.
    const one = `<table>${'<tr><td colspan="250">v</td></tr>'.repeat(200)}</table>`;
    const data = tables(one.repeat(5), { format: 'csv' });
    expect(data.tables.map((t) => [t.rowCount, t.truncated])).toStrictEqual([
      [199, false],
      [199, false],
      [199, false],
      [199, false],
      [0, true],
    ]);
  });

  it(`stops adding rows at ${MAX_RESPONSE_CHARS} characters of cell text`, () => {
    const header = '<tr><th colspan="1000">h</th></tr>';
    const row = (size: number) => `<tr><td colspan="1000">${'x'.repeat(size)}</td></tr>`;
    const fits = only(`<table>${header}${row(3000)}${row(3000)}</table>`, { format: 'csv' });
    expect([fits.rowCount, fits.truncated]).toStrictEqual([1, true]);
    const tooBig = only(`<table>${header}${row(5000)}</table>`, { format: 'csv' });
    expect([tooBig.rowCount, tooBig.truncated]).toStrictEqual([0, true]);
    expect(tooBig.columns).toHaveLength(1000);
    // Names are cut at MAX_COLUMN_NAME_CHARS first: 5,000 names of 1,000 characters pass the budget.
    const wide = `<th colspan="1000">${'h'.repeat(5000)}</th>`.repeat(5);
    const hugeHeader = only(`<table><tr>${wide}</tr></table>`);
    expect(hugeHeader).toMatchObject({ columns: [], rowCount: 0, truncated: true });
    const cutHeader = only(`<table><tr><th colspan="1000">${'h'.repeat(5000)}</th></tr></table>`);
    expect(cutHeader).toMatchObject({ rowCount: 0, truncated: true });
    expect(cutHeader.columns[0]).toBe(`${'h'.repeat(MAX_COLUMN_NAME_CHARS - 1)}…`);
    expect(cutHeader.columns[1]).toBe(`${'h'.repeat(MAX_COLUMN_NAME_CHARS - 1)}…_2`);
  });

  it('keeps the CSV of a cut table readable', () => {
    const t = only(`<table>${'<tr><td colspan="1000">a,"b"</td></tr>'.repeat(60)}</table>`);
    const records = readCsv(t.csv!);
    expect(records).toHaveLength(1 + t.rowCount);
    expect(records[1]?.[999]).toBe('a,"b"');
  });
});
