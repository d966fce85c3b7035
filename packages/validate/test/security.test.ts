import { makeDocument } from '@storefront/test-utils';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import { describe, expect, it } from 'vitest';
import { collectKeyOrders } from '../src/document-order.js';
import { FORMAT_CHECKS } from '../src/formats.js';
import { VALIDATE_FORMATS, VALIDATE_MAX_WORK, validateDocument } from '../src/index.js';
import { Lru } from '../src/lru.js';
import { analyzePattern } from '../src/pattern-size.js';

const json = (body: string) => makeDocument(body, { contentType: 'application/json' });

describe('patterns run on RE2', () => {
  it('matches ^(a+)+$ against 10,000 a and a ! in linear time', () => {
    // With a backtracking engine this takes longer than the age of the universe; the
    // test timeout (20 s) is the bound, and RE2 needs about a millisecond.
    const result = validateDocument(json(JSON.stringify(`${'a'.repeat(10_000)}!`)), {
      schema: '{"pattern": "^(a+)+$"}',
    });
    expect(result.ok && result.data.errors).toStrictEqual([
      { path: '', keyword: 'pattern', message: 'must match pattern "^(a+)+$"' },
    ]);
  });

  it('matches nested quantifiers against a megabyte', () => {
    const result = validateDocument(json(JSON.stringify(`${'a'.repeat(1_000_000)}!`)), {
      schema: '{"pattern": "^(a|aa)+$", "maxLength": 2000000}',
    });
    expect(result.ok && result.data.valid).toBe(false);
  });
});

describe('pattern analysis', () => {
  it.each([
    ['abc', 3, false],
    ['^abc$', 5, true],
    ['a{100}', 101, false],
    ['(ab){3}', 10, false],
    ['^[0-9a-f]{8}-[0-9a-f]{4}$', 17, true],
    ['^[a-z0-9-]+$', 4, true],
    ['^\\p{L}+$', 19, true],
    ['^a+b$', 5, false],
    ['^(a|b)$', 6, false],
    ['^a?$', 4, false],
    ['^a{1,3}$', 6, false],
    ['^(a+)+$', 6, false],
    ['^(ab)+$', 6, true],
    ['a[ab]{32}c', 35, false],
    ['[^a]', 3, false],
    ['.', 2, false],
  ])('sizes %j as %i (narrow: %s)', (pattern, size, narrow) => {
    expect(analyzePattern(pattern)).toStrictEqual({ size, narrow });
  });

  it('multiplies nested counted repetitions', () => {
    expect(analyzePattern('((a){10}){10}').size).toBeGreaterThanOrEqual(100);
    expect(analyzePattern('\\p{L}{1,60}').size).toBeGreaterThan(900);
  });
});

describe('work budget', () => {
  it('stops a schema that multiplies the document, with body_too_large', () => {
    const schema = JSON.stringify({ items: { allOf: new Array(150).fill({ type: 'number' }) } });
    const body = `[${new Array(300_000).fill(0).join(',')}]`;
    const result = validateDocument(json(body), { schema });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error).toBe('body_too_large');
      expect(result.message).toContain(String(VALIDATE_MAX_WORK));
    }
  });

  it('lets the same schema through on a small document', () => {
    const schema = JSON.stringify({ items: { allOf: new Array(150).fill({ type: 'number' }) } });
    const result = validateDocument(json(`[${new Array(1000).fill(0).join(',')}]`), { schema });
    expect(result.ok && result.data.valid).toBe(true);
  });

  it('charges a wide pattern its size for every character', () => {
    const schema = JSON.stringify({ items: { pattern: 'a[ab]{32}c' } });
    const strings = JSON.stringify(new Array(200).fill('ab'.repeat(5000)));
    const result = validateDocument(json(strings), { schema });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe('body_too_large');
    const narrow = JSON.stringify({ items: { pattern: '^[ab]{32}c$' } });
    const cheap = validateDocument(json(strings), { schema: narrow });
    expect(cheap.ok).toBe(true);
  });

  it('charges object-wide keywords per member', () => {
    const wide = JSON.stringify(
      Object.fromEntries(Array.from({ length: 100_000 }, (_, i) => [`k${i}`, i])),
    );
    const schema = JSON.stringify({ allOf: new Array(40).fill({ maxProperties: 1_000_000 }) });
    const result = validateDocument(json(wide), { schema });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe('body_too_large');
  });
});

describe('anyOf and oneOf', () => {
  it('report one error at the value instead of every branch error', () => {
    const schema = JSON.stringify({
      anyOf: [{ items: { type: 'string' } }, { items: { type: 'boolean' } }],
    });
    const result = validateDocument(json(JSON.stringify(new Array(50_000).fill(1))), { schema });
    expect(result.ok && result.data.errors).toStrictEqual([
      { path: '', keyword: 'anyOf', message: 'must match a schema in anyOf' },
    ]);
  });

  it('still find a passing branch after a failing one with many errors', () => {
    const schema = JSON.stringify({
      anyOf: [{ items: { type: 'string' } }, { items: { type: 'integer' } }],
    });
    const result = validateDocument(json(JSON.stringify(new Array(50_000).fill(1))), { schema });
    expect(result.ok && result.data.valid).toBe(true);
  });
});

describe('formats', () => {
  const samples = [
    '',
    'a',
    '2024-02-29',
    '2023-02-29',
    '2024-13-01',
    '2024-01-01T00:00:00Z',
    '2024-01-01 00:00:00+01:00',
    '2024-01-01T00:00:00',
    '23:59:60Z',
    '12:00:00.123-05:30',
    '24:00:00Z',
    'joe@example.com',
    'a.b+c@d-e.example.co.uk',
    'joe@',
    '@example.com',
    'a@b',
    'www.example.com',
    'example.com.',
    '-bad.example.com',
    `${'a'.repeat(63)}.com`,
    `${'a'.repeat(64)}.com`,
    `${'a.'.repeat(126)}a`,
    `${'a.'.repeat(127)}`,
    `${'a.'.repeat(127)}a`,
    '127.0.0.1',
    '256.0.0.1',
    '1.2.3',
    '01.2.3.4',
    '::1',
    '::',
    '2001:db8::1',
    '1::2::3',
    '::ffff:10.0.0.1',
    'fe80::1%eth0',
    'http://example.com',
    'https://user@example.com:8080/a/b?c=d#e',
    'mailto:a@b.c',
    'urn:isbn:0451450523',
    '/relative',
    'http:// bad',
    'http://[::1]:80/',
    '2eb8aa08-aa98-11ea-b4aa-73b441d16380',
    'urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380',
    '2eb8aa08aa9811eab4aa73b441d16380',
    'Ünïcödé',
    'a\nb',
    'example.com\n',
  ];
  // Host names follow IDNA2008 and the JSON-Schema-Test-Suite instead (draft7.test.ts).
  const likeAjvFormats = VALIDATE_FORMATS.filter(
    (name) => name !== 'hostname' && name !== 'idn-hostname',
  );
  it.each(likeAjvFormats)('%s agrees with ajv-formats (full) on every sample', (name) => {
    const reference = fullFormats[name];
    const check =
      reference instanceof RegExp
        ? (value: string) => reference.test(value)
        : typeof reference === 'function'
          ? reference
          : (reference as { validate: (value: string) => boolean }).validate;
    for (const sample of samples) {
      expect(FORMAT_CHECKS[name](sample), `${name} ${JSON.stringify(sample)}`).toBe(check(sample));
    }
  });

  it('checks a megabyte-long string in linear time', () => {
    const long = `${'a'.repeat(1_000_000)}@`;
    for (const name of VALIDATE_FORMATS) {
      // A relative reference and a template may hold `@`; nothing else accepts it here.
      const valid = name === 'uri-reference' || name === 'uri-template';
      expect(FORMAT_CHECKS[name](long), name).toBe(valid);
    }
  });
});

describe('helpers', () => {
  it('keeps the least recently used entries out of a full cache', () => {
    const lru = new Lru<string, number>(2);
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3);
    expect(lru.get('b')).toBeUndefined();
    expect(lru.get('a')).toBe(1);
    expect(lru.get('c')).toBe(3);
    expect(lru.size).toBe(2);
  });

  it('reads member order from the source text', () => {
    const text = '{"x": [1, {"3": 1, "a\\u0062": [], "1": {}}], "0": null, "": {"k": 1}}';
    expect(collectKeyOrders(text, new Set(['', '/x/1', '/x/1/1', '/']))).toStrictEqual(
      new Map([
        ['/x/1/1', []],
        ['/x/1', ['3', 'ab', '1']],
        ['/', ['k']],
        ['', ['x', '0', '']],
      ]),
    );
  });
});
