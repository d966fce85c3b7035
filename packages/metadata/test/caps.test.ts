import { CUT_MARK } from '@storefront/core';
import { hostilePage, makeDocument } from '@storefront/test-utils';
import { describe, expect, it } from 'vitest';
import {
  extractMetadata,
  JSONLD_MAX_KEY_CHARS,
  JSONLD_MAX_STRING_CHARS,
  META_MAX_KEY_CHARS,
  META_MAX_KEYS,
  META_MAX_VALUE_CHARS,
  METADATA_MAX_JSONLD_CHARS,
  METADATA_MAX_TITLE_CHARS,
  METADATA_MAX_URL_CHARS,
} from '../src/index.js';

/** Characters of string content the caps allow (README, Limits). */
const WORST_CASE_CHARS =
  METADATA_MAX_TITLE_CHARS +
  METADATA_MAX_URL_CHARS +
  3 * META_MAX_KEYS * (META_MAX_KEY_CHARS + 'http-equiv:'.length + META_MAX_VALUE_CHARS) +
  METADATA_MAX_JSONLD_CHARS;

function capped(value: string | null | undefined, max: number): void {
  expect(value?.length).toBeLessThanOrEqual(max);
  expect(value?.endsWith(CUT_MARK)).toBe(true);
  expect(value?.isWellFormed()).toBe(true);
}

describe('caps on a hostile page', () => {
  const result = extractMetadata(makeDocument(hostilePage()));
  if (!result.ok) throw new Error(result.error);
  const { data } = result;

  it('cuts the title, canonical URL and meta values with the mark', () => {
    capped(data.title, METADATA_MAX_TITLE_CHARS);
    capped(data.canonical, METADATA_MAX_URL_CHARS);
    capped(data.standard.description, META_MAX_VALUE_CHARS);
    capped(data.openGraph['og:title'], META_MAX_VALUE_CHARS);
    capped(data.twitter['twitter:title'], META_MAX_VALUE_CHARS);
    const longKey = Object.keys(data.standard).find((key) => key.startsWith('kxxx'));
    capped(longKey, META_MAX_KEY_CHARS);
  });

  it('cuts JSON-LD strings and keys, and keeps the blocks within their budget', () => {
    const first = data.jsonLd[0] as Record<string, unknown>;
    capped(first.name as string, JSONLD_MAX_STRING_CHARS);
    capped(
      Object.keys(first).find((key) => key.startsWith('kA')),
      JSONLD_MAX_KEY_CHARS,
    );
    // Each of the 100 objects inherits a 16 Ki-character `@context`: not all fit.
    expect(data.jsonLd.length).toBeGreaterThan(10);
    expect(data.jsonLd.length).toBeLessThan(100);
    expect(data.counts.jsonLd).toBe(data.jsonLd.length);
    expect(canonicalLength(data.jsonLd)).toBeLessThanOrEqual(METADATA_MAX_JSONLD_CHARS);
  });

  it('keeps the whole result under the documented bound', () => {
    const bytes = Buffer.byteLength(JSON.stringify(result));
    // Every character is at most 6 bytes in `data` and 7 in the signed `text`.
    expect(bytes).toBeLessThan(13 * WORST_CASE_CHARS);
    expect(bytes).toBeLessThan(4 * METADATA_MAX_JSONLD_CHARS);
  });

  it(`keeps at most ${META_MAX_KEYS} keys per bucket, the first ones`, () => {
    const metas = Array.from({ length: 300 }, (_, i) => `<meta name="m${i}" content="${i}">`);
    const many = extractMetadata(makeDocument(metas.join('')));
    if (!many.ok) throw new Error(many.error);
    expect(many.data.counts.standard).toBe(META_MAX_KEYS);
    expect(many.data.standard.m0).toBe('0');
    expect(many.data.standard[`m${META_MAX_KEYS}`]).toBeUndefined();
  });
});

function canonicalLength(value: unknown): number {
  return JSON.stringify(value).length;
}
