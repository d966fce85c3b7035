import { CUT_MARK } from '@storefront/core';
import { hostilePage, makeDocument, schemaCheck } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  extractTables,
  MAX_CELL_CHARS,
  MAX_COLUMN_NAME_CHARS,
  MAX_RESPONSE_CHARS,
  MAX_TABLES,
  MAX_TITLE_CHARS,
  resultSchema,
} from '../src/index.js';

/**
 * Characters of string content the caps allow (README, Limits): cell text and keys within
 * the response budget, a title, and per table a caption and CSV quoting (each value at most
 * doubled by quote escaping).
 */
const WORST_CASE_CHARS = 3 * MAX_RESPONSE_CHARS + MAX_TITLE_CHARS * (1 + MAX_TABLES);

function capped(value: string | null | undefined, max: number): void {
  expect(value?.length).toBeLessThanOrEqual(max);
  expect(value?.endsWith(CUT_MARK)).toBe(true);
  expect(value?.isWellFormed()).toBe(true);
}

describe('caps on a hostile page', () => {
  const result = extractTables(makeDocument(hostilePage()));
  if (!result.ok) throw new Error(result.error);
  const { data } = result;
  const table = data.tables[0]!;

  it('cuts the title, caption, column name and cell with the mark, and says so', () => {
    capped(data.title, MAX_TITLE_CHARS);
    capped(table.caption, MAX_TITLE_CHARS);
    capped(table.columns[0], MAX_COLUMN_NAME_CHARS);
    capped(table.rows?.[0]?.[table.columns[0]!], MAX_CELL_CHARS);
    expect(table.truncated).toBe(true);
    expect(data.truncatedFields).toBe(true);
    expect(table.rows?.[0]?.Price).toBe('12');
  });

  it('still fits the published result schema, cut fields and all', () => {
    expect(schemaCheck(resultSchema)(data)).toStrictEqual([]);
  });

  it('keeps the whole result under the documented bound', () => {
    const bytes = Buffer.byteLength(JSON.stringify(result));
    expect(bytes).toBeLessThan(13 * WORST_CASE_CHARS);
    expect(bytes).toBeLessThan(200_000);
  });

  it('adds no flag to an ordinary table', () => {
    const plain = extractTables(
      makeDocument('<title>T</title><table><tr><th>a</th></tr><tr><td>1</td></tr></table>'),
    );
    if (!plain.ok) throw new Error(plain.error);
    expect(plain.data).not.toHaveProperty('truncatedFields');
    expect(plain.data.tables[0]?.truncated).toBe(false);
  });
});
