import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { codePointLength, sliceText } from '../src/index.js';

describe('sliceText', () => {
  it('counts code points, so a character outside the BMP is one and is never split', () => {
    expect(sliceText('café 東京 🔏!', 5, 4)).toStrictEqual({
      text: '東京 🔏',
      offset: 5,
      length: 4,
      total: 10,
    });
    expect(sliceText('🔏🔏🔏', 1, 1).text).toBe('🔏');
  });

  it('reads to the end without maxChars, and gives an empty part at or past the end', () => {
    expect(sliceText('abcdef', 2, null)).toStrictEqual({
      text: 'cdef',
      offset: 2,
      length: 4,
      total: 6,
    });
    expect(sliceText('abc', 3, 10)).toStrictEqual({ text: '', offset: 3, length: 0, total: 3 });
    expect(sliceText('abc', 7, 10)).toStrictEqual({ text: '', offset: 3, length: 0, total: 3 });
    expect(sliceText('', 0, 5)).toStrictEqual({ text: '', offset: 0, length: 0, total: 0 });
  });

  it('refuses an offset or a size that is not a whole number', () => {
    expect(() => sliceText('abc', -1, 2)).toThrow(RangeError);
    expect(() => sliceText('abc', 0, 0)).toThrow(RangeError);
    expect(() => sliceText('abc', 1.5, 2)).toThrow(RangeError);
  });

  test.prop([fc.string({ unit: 'grapheme' }), fc.integer({ min: 1, max: 12 })])(
    'consecutive slices put back together give the whole text',
    (whole, size) => {
      const parts: string[] = [];
      let offset = 0;
      for (;;) {
        const slice = sliceText(whole, offset, size);
        expect(slice.length).toBe(codePointLength(slice.text));
        expect(slice.total).toBe(codePointLength(whole));
        parts.push(slice.text);
        offset += slice.length;
        if (slice.length < size) break;
      }
      expect(parts.join('')).toBe(whole);
    },
  );

  test.prop([fc.string({ unit: 'binary' }), fc.nat(40), fc.integer({ min: 1, max: 40 })])(
    'the same input gives the same part, equal to slicing the code point array',
    (whole, offset, size) => {
      const points = Array.from(whole);
      const slice = sliceText(whole, offset, size);
      expect(slice.text).toBe(points.slice(offset, offset + size).join(''));
      expect(sliceText(whole, offset, size)).toStrictEqual(slice);
    },
  );
});
