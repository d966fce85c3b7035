import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pdfDate } from '../src/dates.js';

describe('pdfDate', () => {
  it.each([
    ["D:20240102030405+01'00'", '2024-01-02T02:04:05.000Z'],
    ["D:20240102030405-05'30'", '2024-01-02T08:34:05.000Z'],
    ['D:20240101000000Z', '2024-01-01T00:00:00.000Z'],
    ["D:20240101003000+01'00", '2023-12-31T23:30:00.000Z'],
    ['D:2024', '2024-01-01T00:00:00.000Z'],
    ['20240229', '2024-02-29T00:00:00.000Z'],
    ['D:199912312359', '1999-12-31T23:59:00.000Z'],
  ])('reads %s as %s', (value, iso) => {
    expect(pdfDate(value)).toBe(iso);
  });

  it.each([
    '',
    'yesterday',
    'D:20230229',
    'D:20241301',
    'D:20240132',
    'D:20240101250000',
    'D:0999',
  ])('refuses %j', (value) => {
    expect(pdfDate(value)).toBeNull();
  });

  it('agrees with the calendar of the JavaScript engine on every valid date', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9998 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.constantFrom('+', '-', 'Z'),
        fc.integer({ min: 0, max: 14 }),
        (year, month, day, hour, minute, sign, offset) => {
          const p = (n: number, w = 2) => String(n).padStart(w, '0');
          const text = `D:${p(year, 4)}${p(month)}${p(day)}${p(hour)}${p(minute)}00${sign}${sign === 'Z' ? '' : `${p(offset)}'00'`}`;
          const shift = sign === 'Z' ? 0 : (sign === '+' ? -1 : 1) * offset * 3_600_000;
          const expected = new Date(Date.UTC(year, month - 1, day, hour, minute) + shift);
          expect(pdfDate(text)).toBe(expected.toISOString());
        },
      ),
      { numRuns: 500 },
    );
  });
});
