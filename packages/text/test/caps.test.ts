import { CUT_MARK } from '@storefront/core';
import { EXTRACT_MAX_VALUE_CHARS } from '@storefront/extract';
import { HTML_MAX_PARSE_CHARS } from '@storefront/html';
import { MAX_LINKS, MAX_LINKS_TOTAL_CHARS } from '@storefront/links';
import { hostilePage, makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  extractText,
  FETCH_MAX_FIELDS,
  TEXT_MAX_DESCRIPTION_CHARS,
  TEXT_MAX_TITLE_CHARS,
} from '../src/index.js';

/**
 * Characters of string content the caps allow (README, Limits): the page text (at most the
 * parsed input), a title, a description, the typed record, and the links twice over.
 */
const WORST_CASE_CHARS =
  HTML_MAX_PARSE_CHARS +
  TEXT_MAX_TITLE_CHARS +
  TEXT_MAX_DESCRIPTION_CHARS +
  FETCH_MAX_FIELDS * EXTRACT_MAX_VALUE_CHARS +
  MAX_LINKS_TOTAL_CHARS +
  64 * MAX_LINKS;

function capped(value: unknown, max: number): void {
  expect(typeof value).toBe('string');
  const text = value as string;
  expect(text.length).toBeLessThanOrEqual(max);
  expect(text.endsWith(CUT_MARK)).toBe(true);
  expect(text.isWellFormed()).toBe(true);
}

describe('caps on a hostile page', () => {
  const doc = makeDocument(hostilePage());

  it('cuts the title and description with the mark', () => {
    const result = extractText(doc, { extract: '1', links: true });
    if (!result.ok) throw new Error(result.error);
    capped(result.data.title, TEXT_MAX_TITLE_CHARS);
    capped(result.data.description, TEXT_MAX_DESCRIPTION_CHARS);
    const long = result.data.links?.find((link) => link.url.endsWith('/long'));
    expect(long?.text.endsWith(CUT_MARK)).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(result))).toBeLessThan(13 * WORST_CASE_CHARS);
  });

  it('cuts typed-record strings with the mark', () => {
    const result = extractText(doc, { extract: 'title,description,name' });
    if (!result.ok) throw new Error(result.error);
    capped(result.data.extract?.title, EXTRACT_MAX_VALUE_CHARS);
    capped(result.data.extract?.description, EXTRACT_MAX_VALUE_CHARS);
    // The page text itself is bounded by the parse cap, not cut.
    expect(result.text.length).toBeLessThan(2 * HTML_MAX_PARSE_CHARS);
  });
});
