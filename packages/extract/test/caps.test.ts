import { CUT_MARK } from '@storefront/core';
import { HTML_MAX_PARSE_CHARS } from '@storefront/html';
import { hostilePage, makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  EXTRACT_MAX_FIELDS,
  EXTRACT_MAX_TITLE_CHARS,
  EXTRACT_MAX_VALUE_CHARS,
  extract,
} from '../src/index.js';

/** Characters of string content the caps allow (README, Limits): page text twice, record twice, title. */
const WORST_CASE_CHARS =
  2 * HTML_MAX_PARSE_CHARS +
  2 * EXTRACT_MAX_FIELDS * EXTRACT_MAX_VALUE_CHARS +
  EXTRACT_MAX_TITLE_CHARS;

function capped(value: unknown, max: number): void {
  expect(typeof value).toBe('string');
  const text = value as string;
  expect(text.length).toBeLessThanOrEqual(max);
  expect(text.endsWith(CUT_MARK)).toBe(true);
  expect(text.isWellFormed()).toBe(true);
}

describe('caps on a hostile page', () => {
  it('cuts the title and every string of the record with the mark', () => {
    const result = extract(makeDocument(hostilePage()), {
      schema: 'title,description,name,image,note',
    });
    if (!result.ok) throw new Error(result.error);
    capped(result.data.title, EXTRACT_MAX_TITLE_CHARS);
    capped(result.data.extract.title, EXTRACT_MAX_VALUE_CHARS);
    capped(result.data.extract.description, EXTRACT_MAX_VALUE_CHARS);
    capped(result.data.extract.name, EXTRACT_MAX_VALUE_CHARS);
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(13 * WORST_CASE_CHARS);
  });
});
