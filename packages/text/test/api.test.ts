import { canonicalize, StorefrontError } from '@storefront/core';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, test } from 'vitest';
import * as text from '../src/index.js';
import { extractText, parseFetchExtract } from '../src/index.js';

test('exports exactly the public API', () => {
  expect(Object.keys(text).sort()).toEqual([
    'DESCRIPTION_MAX_CHARS',
    'FETCH_EXTRACT_MAX_CHARS',
    'FETCH_FIELD_TYPES',
    'FETCH_MAX_FIELDS',
    'TEXT_MAX_DESCRIPTION_CHARS',
    'TEXT_MAX_TITLE_CHARS',
    'extractText',
    'parseFetchExtract',
    'receiptRule',
    'resultSchema',
  ]);
});

const page = makeDocument(
  '<title>T</title><meta name="description" content="D"><main><p>Hello <a href="/a">world</a>.</p><p><a href="https://other.example/">out</a></p></main>',
);

describe('extractText', () => {
  test('plain call: text, title and the raw facts, nothing else', () => {
    const result = extractText(page);
    expect(result).toEqual({
      ok: true,
      text: 'Hello world.\n\nout',
      data: {
        title: 'T',
        contentType: 'text/html; charset=utf-8',
        bytes: page.bytes.length,
        truncated: false,
      },
    });
  });

  test('extract=1 adds description and wordCount only', () => {
    const result = extractText(page, { extract: '1' });
    expect(result.ok && result.data.description).toBe('D');
    expect(result.ok && result.data.wordCount).toBe(3);
    expect(result.ok && 'extract' in result.data).toBe(false);
  });

  test('a field list signs the canonical JSON of the record and the text', () => {
    const result = extractText(page, { extract: 'title,price' });
    if (!result.ok) throw new Error(result.error);
    expect(result.data.extract).toEqual({ title: 'T', price: null });
    expect(result.text).toBe(
      canonicalize({ extract: { price: null, title: 'T' }, text: 'Hello world.\n\nout' }),
    );
  });

  test('links=1 lists internal links first', () => {
    const result = extractText(page, { links: true });
    expect(result.ok && result.data.links).toEqual([
      { url: 'https://example.com/a', text: 'world' },
      { url: 'https://other.example/', text: 'out' },
    ]);
  });

  test.each([
    ['application/json', '{"a":1}'],
    ['application/pdf', '%PDF-1.7'],
    ['image/png', '\x89PNG'],
  ])('%s is unsupported_content_type', (contentType, body) => {
    const result = extractText(makeDocument(body, { contentType }));
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error).toBe('unsupported_content_type');
  });

  test('misuse throws invalid_params', () => {
    expect(() => extractText(page, { format: 'pdf' as 'text' })).toThrow(StorefrontError);
    expect(() => extractText(page, { extract: 'a b c' })).toThrow(/extract/);
  });

  test('the same document object is parsed once for text, markdown, record and links', () => {
    const doc = makeDocument('<title>x</title><main><p>y</p></main>');
    const a = extractText(doc, { format: 'markdown', links: true, extract: 'title' });
    const b = extractText(doc, { format: 'markdown', links: true, extract: 'title' });
    expect(a).toEqual(b);
  });
});

describe('parseFetchExtract', () => {
  test.each([
    [undefined, { ok: true, mode: 'none' }],
    ['', { ok: true, mode: 'none' }],
    ['1', { ok: true, mode: 'summary' }],
    [
      'title, price, ratingCount, inStock:boolean',
      {
        ok: true,
        mode: 'fields',
        fields: [
          { name: 'title', type: 'string' },
          { name: 'price', type: 'number' },
          { name: 'ratingCount', type: 'integer' },
          { name: 'inStock', type: 'boolean' },
        ],
      },
    ],
  ])('%j', (value, expected) => {
    expect(parseFetchExtract(value)).toEqual(expected);
  });

  test.each(['a b', 'x'.repeat(257), ',,', 'title,title', 'price:money'])(
    'refuses %j with a message',
    (value) => {
      const parsed = parseFetchExtract(value);
      expect(parsed.ok).toBe(false);
      expect(!parsed.ok && parsed.message).toMatch(/extract/);
    },
  );
});
