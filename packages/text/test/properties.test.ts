import {
  bytesArbitrary,
  contentTypeArbitrary,
  htmlArbitrary,
  makeDocument,
} from '@storefront/test-utils';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { extractText } from '../src/index.js';

const optionsArbitrary = fc.record(
  {
    format: fc.constantFrom('text' as const, 'markdown' as const),
    links: fc.boolean(),
    extract: fc.constantFrom('1', 'title,price', 'author:string,rating'),
  },
  { requiredKeys: [] },
);

test('never throws on arbitrary bytes, content types and valid options', () => {
  fc.assert(
    fc.property(
      bytesArbitrary,
      contentTypeArbitrary,
      optionsArbitrary,
      (bytes, contentType, options) => {
        const result = extractText(makeDocument(bytes, { contentType }), options);
        if (result.ok) expect(typeof result.text).toBe('string');
        else expect(['unsupported_content_type', 'parse_error']).toContain(result.error);
      },
    ),
    { numRuns: 300 },
  );
});

test('the same bytes give the same text, in separate parses', () => {
  fc.assert(
    fc.property(htmlArbitrary, optionsArbitrary, (html, options) => {
      const a = extractText(makeDocument(html), options);
      const b = extractText(makeDocument(html), options);
      expect(a).toEqual(b);
    }),
    { numRuns: 200 },
  );
});

test('wordCount and the field record follow the options exactly', () => {
  fc.assert(
    fc.property(htmlArbitrary, (html) => {
      const result = extractText(makeDocument(html), { extract: 'title,price' });
      if (!result.ok) return;
      expect(Object.keys(result.data.extract ?? {}).sort()).toEqual(['price', 'title']);
      const price = result.data.extract?.price;
      expect(price === null || typeof price === 'number').toBe(true);
      expect(JSON.parse(result.text)).toHaveProperty('extract');
    }),
    { numRuns: 200 },
  );
});
