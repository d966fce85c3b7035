import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { COPY_DEPTH, canonicalizeIteratively } from '../src/canonical-json.js';
import { canonicalize, StorefrontError } from '../src/index.js';

const jcs = join(import.meta.dirname, 'fixtures/jcs');

describe('canonicalize: RFC 8785 examples', () => {
  for (const name of readdirSync(jcs, { withFileTypes: true })) {
    if (!name.isDirectory()) continue;
    it(`matches the ${name.name} vector`, () => {
      const input: unknown = JSON.parse(readFileSync(join(jcs, name.name, 'input.json'), 'utf8'));
      const expected = readFileSync(join(jcs, name.name, 'expected.json'), 'utf8');
      expect(canonicalize(input)).toBe(expected);
    });
  }

  const numbers = readFileSync(join(jcs, 'numbers.txt'), 'utf8')
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => line.split(' ') as [string, string]);

  it.each(numbers)('formats IEEE 754 %s as %s (Appendix B)', (hex, expected) => {
    const value = Buffer.from(hex, 'hex').readDoubleBE(0);
    if (expected === 'error') {
      expect(() => canonicalize(value)).toThrow(StorefrontError);
    } else {
      expect(canonicalize(value)).toBe(expected);
      expect(canonicalize([value])).toBe(`[${expected}]`);
    }
  });
});

describe('canonicalize: behaviour', () => {
  it('sorts keys by UTF-16 code units, not code points', () => {
    // U+FB33 (one unit 0xFB33) sorts after U+1F600 (units 0xD83D 0xDE00).
    expect(canonicalize({ '\ufb33': 1, '\u{1f600}': 2 })).toBe('{"\u{1f600}":2,"\ufb33":1}');
  });

  it('gives the same text whatever the key insertion order', () => {
    expect(canonicalize({ b: 1, a: { d: [1, { z: 0, y: 1 }], c: null } })).toBe(
      canonicalize({ a: { c: null, d: [1, { y: 1, z: 0 }] }, b: 1 }),
    );
  });

  it('leaves out undefined members and writes undefined array elements as null', () => {
    expect(canonicalize({ a: undefined, b: [undefined, 1] })).toBe('{"b":[null,1]}');
  });

  it('writes empty containers and nested empties', () => {
    expect(canonicalize({ a: {}, b: [], c: [[], {}] })).toBe('{"a":{},"b":[],"c":[[],{}]}');
  });

  it('accepts objects with a null prototype', () => {
    const value = Object.assign(Object.create(null) as object, { b: 2, a: 1 });
    expect(canonicalize(value)).toBe('{"a":1,"b":2}');
  });

  it('handles values nested 100,000 levels deep without overflowing the stack', () => {
    let deep: unknown = 0;
    for (let i = 0; i < 100_000; i++) deep = i % 2 ? [deep] : { k: deep };
    const text = canonicalize(deep);
    expect(text.length).toBe(1 + 100_000 * 2 + 50_000 * 4);
  });

  it('lets the same object appear twice when it is not a cycle', () => {
    const shared = { x: 1 };
    expect(canonicalize({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });

  it.each([
    ['NaN', Number.NaN, /finite number/],
    ['Infinity', Number.POSITIVE_INFINITY, /finite number/],
    ['a lone surrogate', '\ud800', /lone surrogate/],
    ['a lone surrogate in a key', { '\udc00x': 1 }, /lone surrogate/],
    ['a Date', new Date(0), /plain object, got `Date`/],
    ['a Map', new Map(), /plain object, got `Map`/],
    ['a bigint', 1n, /got `bigint`/],
    ['a function', () => 1, /got `function`/],
  ])('refuses %s', (_name, value, message) => {
    expect(() => canonicalize(value)).toThrow(message);
  });

  it('refuses cycles', () => {
    const a: Record<string, unknown> = {};
    a.self = [a];
    expect(() => canonicalize(a)).toThrow(/cycle/);
  });
});

describe('canonicalize: the copy and the iterative walk agree', () => {
  /** Keys that `JSON.stringify` orders its own way, or a copy cannot hold, beside plain ones. */
  const keys = fc.oneof(
    fc.string(),
    fc.constantFrom(
      '0',
      '1',
      '9',
      '10',
      '4294967294',
      '4294967295',
      '__proto__',
      '$ref',
      '-1',
      '01',
    ),
  );
  const values = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      fc.constant(null),
      fc.boolean(),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.string({ unit: 'grapheme' }),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(keys, tie('value'), { maxKeys: 5 }),
    ),
  })).value;

  test.prop([values], { numRuns: 500 })('on any JSON value', (value) => {
    expect(canonicalize(value)).toBe(canonicalizeIteratively(value));
  });

  it('on array-index keys, which JSON.stringify writes first', () => {
    const value = { $ref: 1, '10': 2, '9': 3, b: 4 };
    expect(canonicalize(value)).toBe('{"$ref":1,"10":2,"9":3,"b":4}');
    expect(canonicalize(value)).toBe(canonicalizeIteratively(value));
  });

  it('on a `__proto__` member', () => {
    const value = JSON.parse('{"b":1,"__proto__":{"x":2}}') as unknown;
    expect(canonicalize(value)).toBe('{"__proto__":{"x":2},"b":1}');
  });

  it('past the copy depth, and on a cycle', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < COPY_DEPTH + 5; i++) deep = { k: [deep] };
    expect(canonicalize(deep)).toBe(canonicalizeIteratively(deep));
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = { back: cycle };
    expect(() => canonicalize(cycle)).toThrow(/cycle/);
  });
});
