import { CUT_MARK } from '@storefront/core';
import { hostilePage, makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  extractLinks,
  MAX_LINK_TEXT_CHARS,
  MAX_LINK_URL_CHARS,
  MAX_LINKS,
  MAX_LINKS_TOTAL_CHARS,
} from '../src/index.js';

/**
 * The documented worst case of a result (README, Limits): every link's URL plus text within
 * the budget, each origin at most as long as its URL, each character at most 6 bytes of
 * JSON, twice (data and the signed rows), plus 200 bytes of structure per link.
 */
const WORST_CASE_BYTES = 2 * 6 * MAX_LINKS_TOTAL_CHARS * 2 + 200 * MAX_LINKS;

function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value));
}

describe('caps on a hostile page', () => {
  it('cuts huge anchor text with the mark and keeps the result bounded', () => {
    const result = extractLinks(makeDocument(hostilePage()));
    if (!result.ok) throw new Error(result.error);
    const link = result.data.links.find((each) => each.url.endsWith('/long'));
    expect(link?.text.length).toBeLessThanOrEqual(MAX_LINK_TEXT_CHARS);
    expect(link?.text.endsWith(CUT_MARK)).toBe(true);
    expect(link?.text.isWellFormed()).toBe(true);
    expect(jsonBytes(result)).toBeLessThan(10_000);
  });

  it('stops at the character budget when a long base URL makes every link long', () => {
    const base = `https://example.com/${'b'.repeat(MAX_LINK_URL_CHARS - 40)}`;
    const anchors = Array.from({ length: MAX_LINKS }, (_, i) => `<a href="?${i}">${i}</a>`);
    const html = `<base href="${base}">${anchors.join('')}`;
    const result = extractLinks(makeDocument(html));
    if (!result.ok) throw new Error(result.error);
    let chars = 0;
    for (const link of result.data.links) chars += link.url.length + link.text.length;
    expect(chars).toBeLessThanOrEqual(MAX_LINKS_TOTAL_CHARS);
    expect(result.data.total).toBeLessThan(MAX_LINKS);
    expect(result.data.total).toBeGreaterThan(MAX_LINKS_TOTAL_CHARS / (MAX_LINK_URL_CHARS + 10));
    // Document order: the links kept are the first ones.
    expect(result.data.links.at(-1)?.url.endsWith(`?${result.data.total - 1}`)).toBe(true);
    expect(jsonBytes(result)).toBeLessThan(WORST_CASE_BYTES);
  });
});
