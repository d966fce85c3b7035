import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { CUT_MARK, capString, markCut, StorefrontError } from '../src/index.js';

/** Lone surrogates of a string, by index. */
function loneSurrogates(value: string): number {
  let count = 0;
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = value.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
      else count++;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      count++;
    }
  }
  return count;
}

const anyString = fc.string({ unit: 'binary', maxLength: 64 });
const wellFormed = fc.string({ unit: 'grapheme', maxLength: 64 });
const cap = fc.integer({ min: 1, max: 70 });

describe('capString', () => {
  it('keeps a string that fits and cuts a longer one with the mark', () => {
    expect(capString('Storefront', 10)).toBe('Storefront');
    expect(capString('Storefront', 6)).toBe('Store…');
    expect(capString('Storefront', 1)).toBe(CUT_MARK);
  });

  it('never splits a surrogate pair', () => {
    expect(capString('ab😀cd', 4)).toBe('ab…');
    expect(capString('ab😀cd', 5)).toBe('ab😀…');
  });

  it('refuses a cap below one character', () => {
    expect(() => capString('a', 0)).toThrow(StorefrontError);
    expect(() => capString('a', 1.5)).toThrow(StorefrontError);
  });

  test.prop([wellFormed, cap])(
    'never produces a lone surrogate from well-formed text',
    (value, max) => {
      expect(capString(value, max).isWellFormed()).toBe(true);
    },
  );

  test.prop([anyString, cap])('adds no lone surrogate the input did not have', (value, max) => {
    expect(loneSurrogates(capString(value, max))).toBeLessThanOrEqual(loneSurrogates(value));
  });

  test.prop([anyString, cap])('is idempotent and bounded', (value, max) => {
    const once = capString(value, max);
    expect(capString(once, max)).toBe(once);
    expect(once.length).toBeLessThanOrEqual(max);
  });

  test.prop([anyString, cap])('keeps a prefix of the input and marks every cut', (value, max) => {
    const capped = capString(value, max);
    if (value.length <= max) {
      expect(capped).toBe(value);
    } else {
      expect(capped.endsWith(CUT_MARK)).toBe(true);
      expect(value.startsWith(capped.slice(0, -1))).toBe(true);
      // At most one code unit is given up, and only to keep a pair whole.
      expect(capped.length).toBeGreaterThanOrEqual(max - 1);
    }
  });

  test.prop([anyString, cap])('markCut always marks and stays bounded', (value, max) => {
    const marked = markCut(value, max);
    expect(marked.endsWith(CUT_MARK)).toBe(true);
    expect(marked.length).toBeLessThanOrEqual(max);
    expect(value.startsWith(marked.slice(0, -1))).toBe(true);
  });
});
