import { fc, test } from '@fast-check/vitest';
import { describe, expect } from 'vitest';
import { canonicalize, decodeBytes, joinRows, sha256Hex } from '../src/index.js';

const json = fc.jsonValue({ noUnicodeString: false });

/** Rebuild a value with every object's keys inserted in reverse order. */
function reverseKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).reverse()) {
      // defineProperty, not assignment: an own `__proto__` key must stay a data member.
      Object.defineProperty(out, key, {
        value: reverseKeys((value as Record<string, unknown>)[key]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value;
}

describe('canonical JSON properties', () => {
  test.prop([json])('parses back to an equal value', (value) => {
    expect(JSON.parse(canonicalize(value))).toStrictEqual(JSON.parse(JSON.stringify(value)));
  });

  test.prop([json])('is idempotent', (value) => {
    const once = canonicalize(value);
    expect(canonicalize(JSON.parse(once))).toBe(once);
  });

  test.prop([json])('does not depend on key insertion order', (value) => {
    expect(canonicalize(reverseKeys(value))).toBe(canonicalize(value));
  });

  test('does not depend on key insertion order, with an own `__proto__` member', () => {
    const value = JSON.parse('{"":{"__proto__":null,"b":1}}');
    expect(canonicalize(reverseKeys(value))).toBe('{"":{"__proto__":null,"b":1}}');
  });
});

describe('decoding properties', () => {
  test.prop([fc.uint8Array({ maxLength: 4096 }), fc.option(fc.string({ maxLength: 60 }))])(
    'decodes any bytes under any content type without throwing, the same way twice',
    (bytes, contentType) => {
      const first = decodeBytes(bytes, { contentType });
      const second = decodeBytes(bytes, { contentType });
      expect(second).toStrictEqual(first);
      expect(typeof first.text).toBe('string');
    },
  );

  test.prop([fc.string({ unit: 'grapheme' })])('round-trips any UTF-8 text', (text) => {
    expect(decodeBytes(new TextEncoder().encode(text), { sniff: 'none' }).text).toBe(text);
  });
});

describe('rows and hashes', () => {
  const cell = fc.string().map((s) => s.replace(/[\t\r\n]/g, ' '));
  test.prop([fc.array(fc.array(cell, { minLength: 1, maxLength: 4 }))])(
    'joins rows so that splitting gives the rows back',
    (rows) => {
      const text = joinRows(rows);
      if (rows.length === 0) expect(text).toBe('');
      else expect(text.split('\n').map((line) => line.split('\t'))).toStrictEqual(rows);
    },
  );

  test.prop([fc.string()])('hashes a string as its UTF-8 bytes', (text) => {
    expect(sha256Hex(text)).toBe(sha256Hex(new TextEncoder().encode(text.toWellFormed())));
  });
});
