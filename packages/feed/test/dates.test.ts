import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { civilFromDays, daysFromCivil } from '../src/feed-date.js';
import { parseFeedDate } from '../src/index.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** [input, expected]; `''` means unparseable. */
const CASES: readonly (readonly [string, string])[] = [
  // RFC 822 / 2822 as specified.
  ['Fri, 02 Jan 2026 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 +0000', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 -0000', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 UT', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 UTC', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 Z', '2026-01-02T03:04:05.000Z'],
  // North American zones (RFC 822 §5.1).
  ['Fri, 02 Jan 2026 03:04:05 EST', '2026-01-02T08:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 EDT', '2026-01-02T07:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 CST', '2026-01-02T09:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 CDT', '2026-01-02T08:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 MST', '2026-01-02T10:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 MDT', '2026-01-02T09:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 PST', '2026-01-02T11:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 PDT', '2026-01-02T10:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 pst', '2026-01-02T11:04:05.000Z'],
  // Military letters: only Z. The others had inverted signs in RFC 822, so writers
  // disagree about them; RFC 2822 §4.3 says they carry no reliable offset.
  ['Fri, 02 Jan 2026 03:04:05 z', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 A', ''],
  ['Fri, 02 Jan 2026 03:04:05 M', ''],
  ['Fri, 02 Jan 2026 03:04:05 N', ''],
  ['Fri, 02 Jan 2026 03:04:05 Y', ''],
  ['Fri, 02 Jan 2026 03:04:05 J', ''],
  ['2026-01-02T03:04:05A', ''],
  // Other zone names with a single meaning.
  ['Fri, 02 Jan 2026 03:04:05 Etc/GMT', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 etc/utc', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 CET', '2026-01-02T02:04:05.000Z'],
  ['Thu, 02 Jul 2026 03:04:05 CEST', '2026-07-02T01:04:05.000Z'],
  ['Thu, 30 Apr 2026 08:57:00 MET', '2026-04-30T07:57:00.000Z'],
  ['Thu, 30 Apr 2026 08:57:00 MEST', '2026-04-30T06:57:00.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 WET', '2026-01-02T03:04:05.000Z'],
  ['Thu, 02 Jul 2026 03:04:05 WEST', '2026-07-02T02:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 EET', '2026-01-02T01:04:05.000Z'],
  ['Thu, 02 Jul 2026 03:04:05 EEST', '2026-07-02T00:04:05.000Z'],
  ['Fri, 02 Jan 2026 09:04:05 JST', '2026-01-02T00:04:05.000Z'],
  ['Fri, 02 Jan 2026 09:04:05 KST', '2026-01-02T00:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 HST', '2026-01-02T13:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 AKST', '2026-01-02T12:04:05.000Z'],
  ['Thu, 02 Jul 2026 03:04:05 AKDT', '2026-07-02T11:04:05.000Z'],
  ['Fri, 02 Jan 2026 08:04:05 AWST', '2026-01-02T00:04:05.000Z'],
  ['Thu, 02 Jul 2026 10:04:05 AEST', '2026-07-02T00:04:05.000Z'],
  ['Fri, 02 Jan 2026 11:04:05 AEDT', '2026-01-02T00:04:05.000Z'],
  ['Thu, 02 Jul 2026 12:04:05 NZST', '2026-07-02T00:04:05.000Z'],
  ['Fri, 02 Jan 2026 13:04:05 NZDT', '2026-01-02T00:04:05.000Z'],
  // Ambiguous names are refused, never guessed.
  ['Fri, 02 Jan 2026 03:04:05 IST', ''],
  ['Fri, 02 Jan 2026 03:04:05 BST', ''],
  ['Fri, 02 Jan 2026 03:04:05 AST', ''],
  ['Fri, 02 Jan 2026 03:04:05 GST', ''],
  ['Fri, 02 Jan 2026 03:04:05 ACST', ''],
  ['Fri, 02 Jan 2026 03:04:05 MSK', ''],
  ['Fri, 02 Jan 2026 03:04:05 ET', ''],
  ['Fri, 02 Jan 2026 03:04:05 PT', ''],
  ['Fri, 02 Jan 2026 03:04:05 EST5EDT', ''],
  ['Fri, 02 Jan 2026 03:04:05 Etc/GMT+5', ''],
  ['2026-01-02T03:04:05 IST', ''],
  // Numeric offsets.
  ['Fri, 02 Jan 2026 03:04:05 +0530', '2026-01-01T21:34:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 +05:30', '2026-01-01T21:34:05.000Z'],
  ['Fri, 02 Jan 2026 23:04:05 -0930', '2026-01-03T08:34:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 +01', '2026-01-02T02:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 GMT+0100', '2026-01-02T02:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 GMT+1', '2026-01-02T02:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 GMT -05:00', '2026-01-02T08:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05 +2400', ''],
  ['Fri, 02 Jan 2026 03:04:05 +0160', ''],
  ['Fri, 02 Jan 2026 03:04:05 +1', ''],
  // Real-world deviations.
  ['Fri, 02 Jan 2026 03:04 GMT', '2026-01-02T03:04:00.000Z'],
  ['Fri, 2 Jan 2026 3:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['Mon, 02 Jan 2026 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['Xyz, 02 Jan 2026 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['Friday, 02 Jan 2026 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['Fri. 02 Jan 2026 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['02 Jan 2026 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['Fri,02 Jan 2026 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['  Fri,\t02   Jan\n2026  03:04:05   GMT  ', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 jan 2026 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 JAN 2026 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 January 2026 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['Wed, 02 Sept 2026 03:04:05 GMT', '2026-09-02T03:04:05.000Z'],
  ['Wed, 02 Sep. 2026 03:04:05 GMT', '2026-09-02T03:04:05.000Z'],
  ['Fri, 02 Jan 26 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 49 03:04:05 GMT', '2049-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 50 03:04:05 GMT', '1950-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 99 03:04:05 GMT', '1999-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 126 03:04:05 GMT', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 2026 03:04:05', '2026-01-02T03:04:05.000Z'],
  ['Fri, 02 Jan 2026', '2026-01-02T00:00:00.000Z'],
  ['Fri, 02 Jan 2026 03:04:05.678 GMT', '2026-01-02T03:04:05.678Z'],
  ['Fri, 02 Jan 2026 03:04:05 -0800 (PST)', '2026-01-02T11:04:05.000Z'],
  ['Sunday, 06-Nov-94 08:49:37 GMT', '1994-11-06T08:49:37.000Z'],
  ['Sun Nov  6 08:49:37 1994', '1994-11-06T08:49:37.000Z'],
  ['Sun Jan  4 16:29:06 2004', '2004-01-04T16:29:06.000Z'],
  // asctime with the zone before the year (as Twitter and Ruby write it).
  ['Sun Jul 15 01:16:00 +0000 2012', '2012-07-15T01:16:00.000Z'],
  ['Sun Jan  4 16:29:06 PST 2004', '2004-01-05T00:29:06.000Z'],
  ['Sun Jan  4 16:29:06 IST 2004', ''],
  ['Sun Jan  4 16:29:06 +0000 2004 GMT', ''],
  ['Thu Aug 30 2012 17:26:16 +0200', '2012-08-30T15:26:16.000Z'],
  // 12-hour clocks.
  ['Fri, 02 Jan 2026 03:04:05 PM GMT', '2026-01-02T15:04:05.000Z'],
  ['Fri, 02 Jan 2026 12:04 am', '2026-01-02T00:04:00.000Z'],
  ['Fri, 02 Jan 2026 12:04 p.m. EST', '2026-01-02T17:04:00.000Z'],
  ['Fri, 02 Jan 2026 13:04 PM', ''],
  ['Fri, 02 Jan 2026 0:04 AM', ''],
  // Two-digit years, no day name, no seconds, extra commas.
  ['Thu, 01 Jan 04 19:48:21 GMT', '2004-01-01T19:48:21.000Z'],
  ['01 Jan 2004 19:48 GMT', '2004-01-01T19:48:00.000Z'],
  ['Mon, 13 Feb, 2012 06:28:00 UTC', '2012-02-13T06:28:00.000Z'],
  ['Thu, 01 Jan 0100 00:00:01 +0100', '0099-12-31T23:00:01.000Z'],
  ['Sun, 16 Dec 2012 1:2:3:4 GMT', ''],
  ['Jan 2, 2026 03:04:05 EST', '2026-01-02T08:04:05.000Z'],
  ['Thu, 31 Dec 2026 23:59:60 GMT', '2027-01-01T00:00:00.000Z'],
  // Invalid dates are refused, never rolled over.
  ['Mon, 30 Feb 2026 03:04:05 GMT', ''],
  ['Sun, 29 Feb 2026 00:00:00 GMT', ''],
  ['Thu, 29 Feb 2024 00:00:00 GMT', '2024-02-29T00:00:00.000Z'],
  ['Fri, 29 Feb 1900 00:00:00 GMT', ''],
  ['Tue, 29 Feb 2000 00:00:00 GMT', '2000-02-29T00:00:00.000Z'],
  ['Fri, 31 Apr 2026 00:00:00 GMT', ''],
  ['Fri, 00 Jan 2026 00:00:00 GMT', ''],
  ['Fri, 02 Foo 2026 03:04:05 GMT', ''],
  ['Fri, 02 Jan 2026 24:01:00 GMT', ''],
  ['Fri, 02 Jan 2026 03:60:00 GMT', ''],
  ['Fri, 02 Jan 2026 03:04:61 GMT', ''],
  ['Fri, 02 Jan 2026 03:04:05 GMT extra', ''],
  ['Fri, 02 Jan 2 03:04:05 GMT', ''],
  ['1767323045', ''],
  ['yesterday', ''],
  ['', ''],
  ['   ', ''],
  // RFC 3339 / ISO 8601 / W3C-DTF.
  ['2026-01-02T03:04:05Z', '2026-01-02T03:04:05.000Z'],
  ['2026-01-02T03:04:05.1Z', '2026-01-02T03:04:05.100Z'],
  ['2026-01-02T03:04:05.123456789Z', '2026-01-02T03:04:05.123Z'],
  ['2026-01-02T03:04:05,5Z', '2026-01-02T03:04:05.500Z'],
  ['2026-01-02T03:04:05+01:00', '2026-01-02T02:04:05.000Z'],
  ['2026-01-02T03:04:05-0130', '2026-01-02T04:34:05.000Z'],
  ['2026-01-02T03:04:05+01', '2026-01-02T02:04:05.000Z'],
  ['2026-01-02t03:04:05z', '2026-01-02T03:04:05.000Z'],
  ['2026-01-02 03:04:05', '2026-01-02T03:04:05.000Z'],
  ['2026-01-02 03:04:05 UTC', '2026-01-02T03:04:05.000Z'],
  ['2026-01-02T03:04:05 EST', '2026-01-02T08:04:05.000Z'],
  ['2026-01-02T03:04Z', '2026-01-02T03:04:00.000Z'],
  ['2026-01-02', '2026-01-02T00:00:00.000Z'],
  ['2026-01', '2026-01-01T00:00:00.000Z'],
  ['2026', '2026-01-01T00:00:00.000Z'],
  ['20260102T030405Z', '2026-01-02T03:04:05.000Z'],
  ['20260102', '2026-01-02T00:00:00.000Z'],
  ['20031231T235959Z', '2003-12-31T23:59:59.000Z'],
  ['20031231T2359-0800', '2004-01-01T07:59:00.000Z'],
  ['2003-12-31T23:59', '2003-12-31T23:59:00.000Z'],
  ['2003-12-31T10Z', '2003-12-31T10:00:00.000Z'],
  ['2003-12-31T235959Z', '2003-12-31T23:59:59.000Z'],
  // Ordinal dates.
  ['2003-335', '2003-12-01T00:00:00.000Z'],
  ['2003335', '2003-12-01T00:00:00.000Z'],
  ['2004-366T12:00:00Z', '2004-12-31T12:00:00.000Z'],
  ['2003-366', ''],
  ['2003-000', ''],
  // Week dates: week 1 holds the year's first Thursday.
  ['2004-W01-1', '2003-12-29T00:00:00.000Z'],
  ['2004W011', '2003-12-29T00:00:00.000Z'],
  ['2004-W01', '2003-12-29T00:00:00.000Z'],
  ['2004-W53-7', '2005-01-02T00:00:00.000Z'],
  ['2026-W01-5T03:04:05Z', '2026-01-02T03:04:05.000Z'],
  ['2005-W53-1', ''],
  ['2026-W00-1', ''],
  ['2026-W01-8', ''],
  // A time needs a complete date; two-digit years and `YYYYMM` are refused (their
  // century, or their reading, would be a guess).
  ['2026-01T10:00', ''],
  ['2026-W01T10:00', ''],
  ['2026 03:04', ''],
  ['202601', ''],
  ['03-12-31', ''],
  ['031231', ''],
  ['-03-12', ''],
  ['--12-31', ''],
  ['2026-01-02T24:00:00Z', '2026-01-03T00:00:00.000Z'],
  ['2026-01-01T00:30:00+01:00', '2025-12-31T23:30:00.000Z'],
  ['1969-12-31T23:59:59.999Z', '1969-12-31T23:59:59.999Z'],
  ['0001-01-01T00:00:00Z', '0001-01-01T00:00:00.000Z'],
  ['9999-12-31T23:59:59.999Z', '9999-12-31T23:59:59.999Z'],
  ['9999-12-31T23:00:00-05:00', ''],
  ['0000-01-01T00:30:00+01:00', ''],
  ['2026-13-01T00:00:00Z', ''],
  ['2026-00-10T00:00:00Z', ''],
  ['2026-02-29T00:00:00Z', ''],
  ['2026-01-02T24:00:01Z', ''],
  ['2026-01-02T03:04:05+24:00', ''],
  ['2026-01-02T03:04:05Q5', ''],
  ['2026-1-2', ''],
  ['2026/01/02', ''],
  [`2026-01-02T03:04:05.${'9'.repeat(200)}Z`, ''],
];

describe('parseFeedDate', () => {
  test('has more than 60 table cases', () => {
    expect(CASES.length).toBeGreaterThan(60);
  });

  test.each(CASES)('%j → %j', (input, expected) => {
    expect(parseFeedDate(input)).toBe(expected);
  });

  test('agrees with Date on random instants written as RFC 3339 and RFC 822', () => {
    const months = [
      'Jan',
      'Feb',
      'Mar',
      'Apr',
      'May',
      'Jun',
      'Jul',
      'Aug',
      'Sep',
      'Oct',
      'Nov',
      'Dec',
    ];
    const pad = (n: number, w = 2) => String(Math.abs(n)).padStart(w, '0');
    fc.assert(
      fc.property(
        fc.integer({ min: 100, max: 9998 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 59 }),
        fc.integer({ min: 0, max: 999 }),
        fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
        (year, month, day, hour, minute, second, ms, offset) => {
          const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
          const valid = new Date(utc).getUTCDate() === day;
          const expected = valid ? new Date(utc - offset * 60_000).toISOString() : '';
          const sign = offset < 0 ? '-' : '+';
          const zone = `${sign}${pad(Math.trunc(Math.abs(offset) / 60))}${pad(Math.abs(offset) % 60)}`;
          const iso = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}.${pad(ms, 3)}${zone}`;
          const rfc = `Mon, ${day} ${months[month - 1]} ${pad(year, 4)} ${pad(hour)}:${pad(minute)}:${pad(second)}.${pad(ms, 3)} ${zone}`;
          expect(parseFeedDate(iso)).toBe(expected);
          expect(parseFeedDate(rfc)).toBe(expected);
        },
      ),
      { numRuns: 500 },
    );
  });

  test('is total and returns either nothing or the ISO form, which reads back as itself', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 60 }),
          fc
            .constantFrom(
              'Fri, 02 Jan 2026 03:04:05 GMT',
              '2026-01-02T03:04:05Z',
              '20260102T030405Z',
              '2026-002T03:04',
              '2026-W01-5T03:04:05+01:00',
              'Fri Jan  2 03:04:05 +0100 2026',
              'Fri, 02 Jan 2026 03:04 PM CEST',
            )
            .chain((base) =>
              fc
                .tuple(fc.nat(base.length), fc.string({ maxLength: 4 }))
                .map(([at, insert]) => base.slice(0, at) + insert + base.slice(at)),
            ),
        ),
        (input) => {
          const output = parseFeedDate(input);
          expect(output === '' || ISO.test(output)).toBe(true);
          if (output !== '') expect(parseFeedDate(output)).toBe(output);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('ordinal and week dates', () => {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');

  test('agree with Date on random days', () => {
    fc.assert(
      fc.property(fc.integer({ min: -600_000, max: 2_900_000 }), (days) => {
        const date = new Date(days * 86_400_000);
        const year = date.getUTCFullYear();
        const expected = date.toISOString();
        // Ordinal: days since 1 January, plus one.
        const ordinal = days - Date.UTC(year, 0, 1) / 86_400_000 + 1;
        expect(parseFeedDate(`${pad(year, 4)}-${pad(ordinal, 3)}`)).toBe(expected);
        expect(parseFeedDate(`${pad(year, 4)}${pad(ordinal, 3)}`)).toBe(expected);
        // ISO week: the week-year and week of this day's Thursday.
        const weekday = ((date.getUTCDay() + 6) % 7) + 1;
        const thursday = new Date((days + 4 - weekday) * 86_400_000);
        const weekYear = thursday.getUTCFullYear();
        const week =
          Math.floor((thursday.getTime() - Date.UTC(weekYear, 0, 1)) / 86_400_000 / 7) + 1;
        if (weekYear >= 0 && weekYear <= 9999) {
          expect(parseFeedDate(`${pad(weekYear, 4)}-W${pad(week)}-${weekday}`)).toBe(expected);
          expect(parseFeedDate(`${pad(weekYear, 4)}W${pad(week)}${weekday}`)).toBe(expected);
        }
      }),
      { numRuns: 2000 },
    );
  });
});

describe('determinism', () => {
  test('results do not depend on the machine time zone', () => {
    const inputs = CASES.map(([input]) => input);
    const saved = process.env.TZ;
    const results: string[][] = [];
    try {
      for (const zone of ['UTC', 'Pacific/Kiritimati', 'America/St_Johns', 'Asia/Kathmandu']) {
        process.env.TZ = zone;
        results.push(inputs.map((input) => parseFeedDate(input)));
      }
    } finally {
      if (saved === undefined) delete process.env.TZ;
      else process.env.TZ = saved;
    }
    for (const result of results) expect(result).toStrictEqual(CASES.map(([, out]) => out));
  });

  test('no state is carried from one call to the next', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(CASES.slice()), (cases) => {
        for (const [input, expected] of cases) expect(parseFeedDate(input)).toBe(expected);
      }),
      { numRuns: 50 },
    );
  });
});

describe('civil-day arithmetic', () => {
  test('matches Date.UTC and round-trips from year 0 to 9999', () => {
    fc.assert(
      fc.property(fc.integer({ min: -719_528, max: 2_932_896 }), (days) => {
        const [year, month, day] = civilFromDays(days);
        expect(daysFromCivil(year, month, day)).toBe(days);
        const date = new Date(days * 86_400_000);
        expect([date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate()]).toStrictEqual([
          year,
          month,
          day,
        ]);
      }),
      { numRuns: 2000 },
    );
    expect(daysFromCivil(1970, 1, 1)).toBe(0);
    expect(daysFromCivil(0, 1, 1)).toBe(-719_528);
    expect(civilFromDays(-1)).toStrictEqual([1969, 12, 31]);
  });
});
