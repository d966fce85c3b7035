import { readFileSync } from 'node:fs';
import { canonicalize, StorefrontError } from '@storefront/core';
import * as html from '@storefront/html';
import { toMarkdown } from '@storefront/markdown';
import { makeDocument } from '@storefront/test-utils';
import { describe, expect, it, vi } from 'vitest';
import { coerce } from '../src/coerce.js';
import * as api from '../src/index.js';
import {
  EXTRACT_FIELD_NAME_MAX_CHARS,
  EXTRACT_FIELD_TYPES,
  EXTRACT_MAX_FIELDS,
  EXTRACT_SCHEMA_MAX_CHARS,
  type ExtractField,
  extract,
  NUMBER_MAX_CHARS,
  parseExtractSchema,
  parseNumber,
  resolveFields,
  WELL_KNOWN_FIELDS,
} from '../src/index.js';

// parse5 recovers from every markup error, so the only way to see loadHtml's
// `parse_error` pass through is to have loadHtml report it for one marked document.
const PARSE_ERROR_URL = 'https://parse-error.test/';
vi.mock('@storefront/html', async (importOriginal) => {
  const original = await importOriginal<typeof import('@storefront/html')>();
  return {
    ...original,
    loadHtml: (doc: { url: string }) =>
      doc.url === PARSE_ERROR_URL
        ? { ok: false, error: 'parse_error', message: 'The page could not be parsed: limit.' }
        : original.loadHtml(doc as Parameters<typeof original.loadHtml>[0]),
  };
});

function page(body: string) {
  const loaded = html.loadHtml(makeDocument(body));
  if (!loaded.ok) throw new Error(loaded.message);
  return loaded.page;
}

function fields(schema: string): readonly ExtractField[] {
  const parsed = parseExtractSchema(schema);
  if (!parsed.ok) throw new Error(parsed.message);
  return parsed.fields;
}

function record(body: string, schema: string) {
  return resolveFields(page(body), fields(schema));
}

describe('public API', () => {
  it('exports exactly these names', () => {
    expect(Object.keys(api).sort()).toStrictEqual([
      'EXTRACT_FIELD_NAME_MAX_CHARS',
      'EXTRACT_FIELD_TYPES',
      'EXTRACT_MAX_FIELDS',
      'EXTRACT_MAX_TITLE_CHARS',
      'EXTRACT_MAX_VALUE_CHARS',
      'EXTRACT_SCHEMA_MAX_CHARS',
      'LOOKUP_MAX_BRANCH',
      'MICRODATA_MAX_VALUES',
      'NUMBER_MAX_CHARS',
      'WELL_KNOWN_FIELDS',
      'extract',
      'parseExtractSchema',
      'parseNumber',
      'receiptRule',
      'resolveFields',
      'resultSchema',
    ]);
  });

  it('has the documented limits', () => {
    expect(EXTRACT_SCHEMA_MAX_CHARS).toBe(1024);
    expect(EXTRACT_MAX_FIELDS).toBe(64);
    expect(EXTRACT_FIELD_NAME_MAX_CHARS).toBe(64);
    expect(EXTRACT_FIELD_TYPES).toStrictEqual(['string', 'number', 'integer', 'boolean']);
    expect(api.LOOKUP_MAX_BRANCH).toBe(16);
    expect(api.MICRODATA_MAX_VALUES).toBe(10_000);
    expect(NUMBER_MAX_CHARS).toBe(256);
    expect(api.EXTRACT_MAX_TITLE_CHARS).toBe(1000);
    expect(api.EXTRACT_MAX_VALUE_CHARS).toBe(10_000);
  });

  it('lists the well-known fields with their rules', () => {
    expect(Object.keys(WELL_KNOWN_FIELDS)).toStrictEqual([
      'title',
      'name',
      'description',
      'price',
      'currency',
      'author',
      'publishedAt',
      'modifiedAt',
      'image',
      'url',
      'siteName',
      'brand',
      'sku',
      'availability',
      'rating',
      'ratingCount',
      'language',
      'keywords',
      'category',
    ]);
    expect(WELL_KNOWN_FIELDS.title).toStrictEqual([
      'JSON-LD `headline`',
      'JSON-LD `name`',
      '`og:title`',
      '`twitter:title`',
      'meta `title`',
      'microdata `headline`',
      'microdata `name`',
      '`<title>`',
      'first `<h1>` of the content',
    ]);
    expect(Object.isFrozen(WELL_KNOWN_FIELDS)).toBe(true);
  });

  it('documents every well-known field with its rules in the README', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const rows = new Map<string, string>();
    for (const match of readme.matchAll(/^\| `(\w+)` \| (.+?) \| .+ \| .+ \|$/gm)) {
      if (match[2]!.includes(' → ')) rows.set(match[1]!, match[2]!);
    }
    expect([...rows.keys()]).toStrictEqual(Object.keys(WELL_KNOWN_FIELDS));
    for (const [name, rules] of Object.entries(WELL_KNOWN_FIELDS)) {
      expect(rows.get(name)).toBe(rules.join(' → '));
    }
  });
});

describe('error codes', () => {
  it('reports unsupported_content_type with the applied schema', () => {
    const result = extract(makeDocument('\x89PNG\r\n', { contentType: 'image/png' }), {
      schema: 'title',
    });
    expect(result).toStrictEqual({
      ok: false,
      error: 'unsupported_content_type',
      message: 'Cannot read the page as HTML: content type `image/png` is not HTML.',
      data: { schema: { title: 'string' }, format: 'text' },
    });
  });

  it('passes parse_error through from the shared parse', () => {
    const result = extract(makeDocument('<title>x</title>', { url: PARSE_ERROR_URL }), {
      schema: 'title',
    });
    expect(result.ok === false && result.error).toBe('parse_error');
  });

  it.each([
    [null, 'Expected `options` to be an object with a `schema` string, got `null`'],
    ['title', 'Expected `options` to be an object with a `schema` string, got `string`'],
    [{}, 'Expected `schema` to be a string, got `undefined`'],
    [
      { schema: '' },
      '`schema` is empty; expected a comma list of `field[:type]` or a JSON Schema with `properties`',
    ],
    [
      { schema: 'price:float' },
      'Unknown type `float` for field `price`; expected one of `string`, `number`, `integer`, `boolean`',
    ],
    [
      { schema: 'title', format: 'html' },
      'Expected `format` to be `text` or `markdown`, got `html`',
    ],
    [{ schema: 'title', extract: '1' }, 'Unknown option `extract`; expected `schema` and `format`'],
  ])('throws invalid_params for misuse %#', (options, message) => {
    const doc = makeDocument('<title>x</title>');
    let thrown: unknown;
    try {
      extract(doc, options as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(StorefrontError);
    expect((thrown as StorefrontError).code).toBe('invalid_params');
    expect((thrown as StorefrontError).message).toBe(message);
  });
});

describe('parseExtractSchema', () => {
  it.each([
    ['title', [['title', 'string']]],
    [
      ' title , price : number,inStock:BOOLEAN ',
      [
        ['title', 'string'],
        ['price', 'number'],
        ['inStock', 'boolean'],
      ],
    ],
    ['a_b-c:integer', [['a_b-c', 'integer']]],
    [
      '{"properties":{"title":{"type":"string"},"n":{"type":["null","integer"]}}}',
      [
        ['title', 'string'],
        ['n', 'integer'],
      ],
    ],
    [
      '  {"type":"object","properties":{"b":{"type":"boolean","description":"x"}},"required":["b"]}',
      [['b', 'boolean']],
    ],
    ['{"properties":{"x":{"type":["number","number","null"]}}}', [['x', 'number']]],
  ])('reads %j', (schema, expected) => {
    expect(parseExtractSchema(schema)).toStrictEqual({
      ok: true,
      fields: expected.map(([name, type]) => ({ name, type })),
    });
  });

  it.each([
    [
      '   ',
      '`schema` is empty; expected a comma list of `field[:type]` or a JSON Schema with `properties`',
    ],
    ['title,,price', 'Entry 2 of `schema` is empty; expected `field[:type]` between commas'],
    ['title,', 'Entry 2 of `schema` is empty; expected `field[:type]` between commas'],
    ['a:b:c', 'Entry `a:b:c` of `schema` has more than one `:`; expected `field[:type]`'],
    [
      'price:',
      'Field `price` has `:` but no type; expected one of `string`, `number`, `integer`, `boolean`',
    ],
    [':number', 'A field of `schema` has an empty name'],
    [
      '1st',
      'Field name `1st` is not allowed; names start with a letter or `_` and hold only letters, digits, `_` and `-`',
    ],
    [
      'first name',
      'Field name `first name` is not allowed; names start with a letter or `_` and hold only letters, digits, `_` and `-`',
    ],
    [
      'a.b',
      'Field name `a.b` is not allowed; names start with a letter or `_` and hold only letters, digits, `_` and `-`',
    ],
    ['__proto__', 'Field name `__proto__` is not allowed'],
    ['title, title:number', 'Field `title` is named more than once in `schema`'],
    [`${'a'.repeat(65)}`, `Field name \`${'a'.repeat(40)}…\` is 65 characters; the limit is 64`],
    [
      Array.from({ length: 65 }, (_, i) => `f${i}`).join(','),
      '`schema` names 65 fields; the limit is 64',
    ],
    ['x'.repeat(1025), '`schema` is 1025 characters; the limit is 1024'],
    ['{"properties":', '`schema` starts with `{` but is not valid JSON'],
    ['{"type":"object"}', 'Expected the JSON Schema in `schema` to have a `properties` object'],
    ['{"properties":[]}', 'Expected the JSON Schema in `schema` to have a `properties` object'],
    ['{"properties":{}}', '`schema` names no fields'],
    [
      '{"properties":{"a":true}}',
      'Expected property `a` of `schema` to be an object with a `type`',
    ],
    [
      '{"properties":{"a":{}}}',
      'Property `a` of `schema` has no `type`; expected one of `string`, `number`, `integer`, `boolean`',
    ],
    [
      '{"properties":{"a":{"type":"array"}}}',
      'Property `a` of `schema` has type `"array"`; expected one of `string`, `number`, `integer`, `boolean`, alone or with `null`',
    ],
    [
      '{"properties":{"a":{"type":["string","number"]}}}',
      'Property `a` of `schema` has type `["string","number"]`; expected one of `string`, `number`, `integer`, `boolean`, alone or with `null`',
    ],
    [
      '{"properties":{"a":{"type":["null"]}}}',
      'Property `a` of `schema` has type `["null"]`; expected one of `string`, `number`, `integer`, `boolean`, alone or with `null`',
    ],
    [
      '{"properties":{"2":{"type":"string"}}}',
      'Field name `2` is not allowed; names start with a letter or `_` and hold only letters, digits, `_` and `-`',
    ],
    [
      'ti`tle\n',
      'Field name `ti?tle` is not allowed; names start with a letter or `_` and hold only letters, digits, `_` and `-`',
    ],
  ])('refuses %j with a message naming the problem', (schema, message) => {
    expect(parseExtractSchema(schema)).toStrictEqual({ ok: false, message });
  });

  it('refuses a value that is not a string without throwing', () => {
    expect(parseExtractSchema(42 as never)).toStrictEqual({
      ok: false,
      message: 'Expected `schema` to be a string, got `number`',
    });
  });

  it('accepts exactly the limits', () => {
    const sixtyFour = Array.from({ length: 64 }, (_, i) => `f${i}`).join(',');
    expect(parseExtractSchema(sixtyFour).ok).toBe(true);
    expect(parseExtractSchema('a'.repeat(64)).ok).toBe(true);
    expect(parseExtractSchema(`title${' '.repeat(1019)}`).ok).toBe(true);
    expect(parseExtractSchema(`title${' '.repeat(1020)}`).ok).toBe(false);
  });
});

describe('coercion', () => {
  it.each([
    ['$1,299.00', 1299],
    ['1299.5', 1299.5],
    ['€ 12,50', 12.5],
    ['1.299,00 €', 1299],
    ['1,299', 1299],
    ['1.299', 1.299],
    ['0,299', 0.299],
    ['12,5', 12.5],
    ['1,299,000', 1299000],
    ['1.299.000', 1299000],
    ['1 299,95', 1299.95],
    ['1\u00a0299,95', 1299.95],
    ["CHF 1'299.50", 1299.5],
    ['.5', 0.5],
    ['-$5.00', -5],
    ['$-5', -5],
    ['− 7', -7],
    ['Price - 5', 5],
    ['-0', 0],
    ['￥１，９８０', 1980],
    ['1299.', 1299],
    ['Only 3 left', 3],
    ['12 13', null],
    ['From $12 to $20', null],
    ['4.5/5', null],
    ['1e3', null],
    ['12,345,67', null],
    ['1.,2', null],
    ['1,2,3.4', null],
    ['1.234,5,6', null],
    ['abc', null],
    ['', null],
    ['9'.repeat(400), null],
    [`${' '.repeat(NUMBER_MAX_CHARS)}1`, null],
  ])('reads %j as %j', (text, expected) => {
    expect(parseNumber(text)).toBe(expected);
  });

  it('types values and says when it cast them', () => {
    expect(coerce('  a  b ', 'string')).toStrictEqual({ value: 'a b', cast: false });
    expect(coerce(' ', 'string')).toBeNull();
    expect(coerce(1299, 'string')).toStrictEqual({ value: '1299', cast: true });
    expect(coerce(0.5, 'string')).toStrictEqual({ value: '0.5', cast: true });
    expect(coerce(false, 'string')).toStrictEqual({ value: 'false', cast: true });
    expect(coerce(12.5, 'number')).toStrictEqual({ value: 12.5, cast: false });
    expect(coerce('12.5', 'number')).toStrictEqual({ value: 12.5, cast: true });
    expect(coerce(true, 'number')).toBeNull();
    expect(coerce(Number.NaN, 'number')).toBeNull();
    expect(coerce(4, 'integer')).toStrictEqual({ value: 4, cast: false });
    expect(coerce(4.5, 'integer')).toBeNull();
    expect(coerce('4.5', 'integer')).toBeNull();
    expect(coerce('4.0', 'integer')).toStrictEqual({ value: 4, cast: true });
    expect(coerce(2 ** 53, 'integer')).toBeNull();
    expect(coerce(-0, 'integer')).toStrictEqual({ value: 0, cast: false });
    for (const word of ['true', 'YES', ' 1 ', 'On']) {
      expect(coerce(word, 'boolean')).toStrictEqual({ value: true, cast: true });
    }
    for (const word of ['false', 'No', '0', 'OFF']) {
      expect(coerce(word, 'boolean')).toStrictEqual({ value: false, cast: true });
    }
    expect(coerce('https://schema.org/InStock', 'boolean')).toBeNull();
    expect(coerce('y', 'boolean')).toBeNull();
    expect(coerce(1, 'boolean')).toStrictEqual({ value: true, cast: true });
    expect(coerce(2, 'boolean')).toBeNull();
    expect(coerce(true, 'boolean')).toStrictEqual({ value: true, cast: false });
  });
});

describe('resolveFields', () => {
  it('returns every field in canonical key order, absent ones null', () => {
    const { record: values, coerced } = record(
      '<title>T</title>',
      'zeta, Alpha, beta:number, title',
    );
    expect(Object.keys(values)).toStrictEqual(['Alpha', 'beta', 'title', 'zeta']);
    expect(values).toStrictEqual({ Alpha: null, beta: null, title: 'T', zeta: null });
    expect(coerced).toStrictEqual([]);
  });

  it('tries the sources in order: JSON-LD, OpenGraph, meta, microdata', () => {
    const ld =
      '<script type="application/ld+json">{"@type":"Thing","description":"from JSON-LD"}</script>';
    const og = '<meta property="og:description" content="from OpenGraph">';
    const tw = '<meta name="twitter:description" content="from Twitter">';
    const meta = '<meta name="description" content="from meta">';
    const md =
      '<div itemscope itemtype="https://schema.org/Thing"><p itemprop="description">from microdata</p></div>';
    const read = (body: string) => record(body, 'description').record.description;
    expect(read(md + meta + tw + og + ld)).toBe('from JSON-LD');
    expect(read(md + meta + tw + og)).toBe('from OpenGraph');
    expect(read(md + meta + tw)).toBe('from Twitter');
    expect(read(md + meta)).toBe('from meta');
    expect(read(md)).toBe('from microdata');
    expect(read('<p>nothing</p>')).toBeNull();
  });

  it('falls back to <title> and then the first <h1> of the content', () => {
    expect(record('<title> A  page </title><h1>Heading</h1>', 'title').record.title).toBe('A page');
    expect(
      record('<header><h1>Site logo</h1></header><main><h1>Real heading</h1></main>', 'title')
        .record.title,
    ).toBe('Real heading');
  });

  it('matches well-known names ignoring case, `_` and `-`', () => {
    const body =
      '<meta property="article:published_time" content="2026-01-02"><meta property="og:site_name" content="Site">';
    expect(record(body, 'published_at, PublishedAt, site-name').record).toStrictEqual({
      PublishedAt: '2026-01-02',
      published_at: '2026-01-02',
      'site-name': 'Site',
    });
  });

  it('follows @id references and reads objects by their name', () => {
    const body = `<script type="application/ld+json">{"@graph":[
      {"@type":"Article","headline":"H","author":[{"@id":"#missing"},{"@id":"#p"}]},
      {"@id":"#p","@type":"Person","name":"Pat Doe"}]}</script>`;
    expect(record(body, 'author').record.author).toBe('Pat Doe');
  });

  it('skips invalid values for the next rule', () => {
    const body = `<script type="application/ld+json">{"@type":"Product","image":"javascript:alert(1)",
      "datePublished":"March 3","offers":{"priceCurrency":"dollars"}}</script>
      <meta property="og:image" content="/real.png"><meta property="product:price:currency" content="usd">
      <meta name="date" content="2026-13-01"><meta name="pubdate" content="2026-03-03T10:00:00+01:00">`;
    expect(record(body, 'image, publishedAt, currency').record).toStrictEqual({
      currency: 'USD',
      image: 'https://example.com/real.png',
      publishedAt: '2026-03-03T10:00:00+01:00',
    });
  });

  it('resolves a repeated field once, with its first type', () => {
    const result = resolveFields(page('<meta name="n" content="7">'), [
      { name: 'n', type: 'integer' },
      { name: 'n', type: 'string' },
    ]);
    expect(result).toStrictEqual({ record: { n: 7 }, coerced: ['n'] });
  });

  it('throws invalid_params for a malformed field', () => {
    expect(() => resolveFields(page(''), [{ name: 'x', type: 'float' } as never])).toThrow(
      StorefrontError,
    );
    expect(() => resolveFields(page(''), [null as never])).toThrow(
      "Expected each field to be `{ name: string, type: 'string' | 'number' | 'integer' | 'boolean' }`, got `null`",
    );
  });

  it('reads microdata per HTML, with `content` on any element and nested items kept apart', () => {
    const body = `<div itemscope itemtype="https://schema.org/Product">
      <span itemprop="price" content="1299.00">$1,299.00</span>
      <a itemprop="url" href="/p?x=1">link</a><data itemprop="sku" value="S-1">sku</data>
      <time itemprop="releaseDate" datetime="2026-01-02">2 Jan</time>
      <div itemprop="review" itemscope><span itemprop="name">Review title</span></div>
      <span itemprop="__proto__">kept as a key</span></div>`;
    expect(
      record(body, 'price:string, url, sku, releaseDate, name, review, __proto_').record,
    ).toStrictEqual({
      __proto_: null,
      name: null,
      price: '1299.00',
      releaseDate: '2026-01-02',
      review: 'Review title',
      sku: 'S-1',
      url: 'https://example.com/p?x=1',
    });
  });

  it('chooses the main entity by type, then document order', () => {
    const block = (json: string) => `<script type="application/ld+json">${json}</script>`;
    const read = (...blocks: string[]) => record(blocks.map(block).join(''), 'name').record.name;
    expect(read('{"@type":"WebSite","name":"site"}', '{"name":"untyped"}')).toBe('site');
    expect(
      read(
        '{"name":"untyped"}',
        '{"@type":"WebSite","name":"site"}',
        '{"@type":"Organization","name":"org"}',
      ),
    ).toBe('org');
    expect(
      read('{"@type":"Organization","name":"org"}', '{"@type":"ItemPage","name":"page"}'),
    ).toBe('page');
    expect(
      read(
        '{"@type":"WebPage","name":"page"}',
        '{"@type":"http://schema.org/Recipe","name":"recipe"}',
      ),
    ).toBe('recipe');
    expect(
      read(
        '{"@type":["Thing","schema:BlogPosting"],"name":"post"}',
        '{"@type":"Article","name":"article"}',
      ),
    ).toBe('post');
  });

  it('reads a text/plain page as having no metadata', () => {
    const loaded = html.loadHtml(
      makeDocument('<meta name="x" content="1">', { contentType: 'text/plain' }),
    );
    if (!loaded.ok) throw new Error('expected ok');
    expect(resolveFields(loaded.page, fields('x, title, url')).record).toStrictEqual({
      title: null,
      url: 'https://example.com/page',
      x: null,
    });
  });
});

describe('extract', () => {
  const body =
    '<title>Lamp</title><meta property="product:price:amount" content="$89.00"><main><h1>Lamp</h1><p>Bright.</p></main>';

  it('signs the typed record and the page text together', () => {
    const result = extract(makeDocument(body), { schema: 'title, price:number' });
    if (!result.ok) throw new Error('expected ok');
    expect(result.text).toBe(
      canonicalize({ extract: result.data.extract, text: result.data.text }),
    );
    expect(result.text).toBe('{"extract":{"price":89,"title":"Lamp"},"text":"Lamp\\n\\nBright."}');
    expect(result.data.coerced).toStrictEqual(['price']);
    expect(result.extra).toStrictEqual({ truncated: false });
  });

  it('takes its markdown from @storefront/markdown', () => {
    const doc = makeDocument(body);
    const result = extract(doc, { schema: 'title', format: 'markdown' });
    const markdown = toMarkdown(doc);
    if (!result.ok || !markdown.ok) throw new Error('expected ok');
    expect(result.data.text).toBe(markdown.text);
    expect(result.data.format).toBe('markdown');
  });

  it('says truncated when the body was cut', () => {
    const result = extract(makeDocument(body, { truncated: true }), { schema: 'title' });
    expect(result.ok && result.extra).toStrictEqual({ truncated: true });
  });
});
