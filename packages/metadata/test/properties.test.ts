import { fc, test } from '@fast-check/vitest';
import { canonicalize } from '@storefront/core';
import {
  bytesArbitrary,
  contentTypeArbitrary,
  htmlArbitrary,
  makeDocument,
} from '@storefront/test-utils';
import { describe, expect } from 'vitest';
import { extractMetadata, JSONLD_MAX_ITEMS, parseJsonLd } from '../src/index.js';

describe('extractMetadata properties', () => {
  test.prop([bytesArbitrary, contentTypeArbitrary])(
    'returns a result for any bytes under any content type, never throwing',
    (bytes, contentType) => {
      const result = extractMetadata(makeDocument(bytes, { contentType }));
      if (result.ok) expect(typeof result.text).toBe('string');
      else expect(['unsupported_content_type', 'parse_error']).toContain(result.error);
    },
  );

  test.prop([htmlArbitrary])('gives byte-identical text for the same bytes', (body) => {
    // Two document objects, so the second run cannot reuse the first one's cached parse.
    const first = extractMetadata(makeDocument(body));
    const second = extractMetadata(makeDocument(body));
    expect(second).toStrictEqual(first);
    if (first.ok && second.ok) expect(second.text).toBe(first.text);
  });

  test.prop([htmlArbitrary])('has a text that is the canonical JSON of data', (body) => {
    const result = extractMetadata(makeDocument(body));
    // A NUL byte early in the body marks it binary: the only refusal HTML-ish input gets.
    if (!result.ok) {
      expect(result.error).toBe('unsupported_content_type');
      return;
    }
    expect(result.text).toBe(canonicalize(JSON.parse(result.text)));
    expect(result.text).toBe(canonicalize(result.data));
  });

  test.prop([htmlArbitrary])('counts what it returns and keeps values clean', (body) => {
    const result = extractMetadata(makeDocument(body));
    if (!result.ok) {
      expect(result.error).toBe('unsupported_content_type');
      return;
    }
    const { data } = result;
    expect(data.counts).toStrictEqual({
      jsonLd: data.jsonLd.length,
      openGraph: Object.keys(data.openGraph).length,
      twitter: Object.keys(data.twitter).length,
      standard: Object.keys(data.standard).length,
    });
    expect(data.jsonLd.length).toBeLessThanOrEqual(JSONLD_MAX_ITEMS);
    for (const bucket of [data.openGraph, data.twitter, data.standard]) {
      for (const [key, value] of Object.entries(bucket)) {
        expect(key).toBe(key.toLowerCase());
        expect(value).not.toBe('');
        expect(value).toBe(value.trim());
      }
    }
    for (const key of Object.keys(data.twitter)) expect(key.startsWith('twitter:')).toBe(true);
    if (data.canonical !== null) expect(data.canonical).toMatch(/^https?:\/\//);
  });
});

describe('parseJsonLd properties', () => {
  test.prop([fc.string({ unit: 'binary' })])('never throws on any text', (text) => {
    const items = parseJsonLd(text);
    if (items !== null) expect(() => canonicalize(items)).not.toThrow();
  });

  test.prop([fc.jsonValue()])('yields only canonicalisable objects from any JSON', (value) => {
    const items = parseJsonLd(JSON.stringify(value));
    expect(items).not.toBeNull();
    for (const item of items ?? []) {
      expect(typeof item === 'object' && item !== null && !Array.isArray(item)).toBe(true);
      expect(() => canonicalize(item)).not.toThrow();
    }
  });
});
