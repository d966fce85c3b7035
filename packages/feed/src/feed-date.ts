// Date parsing for feeds, by integer arithmetic only: no `Date`, no locale, so the same
// string gives the same instant on every machine. Two grammars are read:
// - RFC 3339 / ISO 8601 / W3C-DTF (Atom `published`/`updated`, `dc:date`);
// - RFC 822 §5 as updated by RFC 2822 §3.3 and §4.3 (RSS `pubDate`), with the deviations
//   real feeds carry (see `parseFeedDate`).

/** Longer strings are not dates; refusing them early keeps the work bounded. */
const MAX_DATE_CHARS = 128;

const MS_PER_DAY = 86_400_000;

const MONTHS: ReadonlyMap<string, number> = new Map([
  ['jan', 1],
  ['january', 1],
  ['feb', 2],
  ['february', 2],
  ['mar', 3],
  ['march', 3],
  ['apr', 4],
  ['april', 4],
  ['may', 5],
  ['jun', 6],
  ['june', 6],
  ['jul', 7],
  ['july', 7],
  ['aug', 8],
  ['august', 8],
  ['sep', 9],
  ['sept', 9],
  ['september', 9],
  ['oct', 10],
  ['october', 10],
  ['nov', 11],
  ['november', 11],
  ['dec', 12],
  ['december', 12],
]);

/**
 * Zone names accepted, in minutes east of UTC: only names with one meaning. RFC 822 §5.1's
 * (`UT`, `GMT`, `Z` and the North American zones), `UTC`, the tz database's `Etc/GMT` and
 * `Etc/UTC`, and the abbreviations of Europe, Japan, Korea, Hawaii, Alaska, New Zealand
 * and eastern and western Australia, each used for one offset only. Refused because
 * they name several offsets: `IST` (India, Ireland, Israel), `BST` (British summer,
 * Bangladesh), `AST`/`ADT` (Atlantic, Arabia), `GST`, `SST`, `ACST`, `MSK` (changed
 * offset), the generic `ET`/`CT`/`MT`/`PT`/`AT` (no daylight-saving information), and
 * the military letters other than `Z`: RFC 822 gave them with inverted signs, so
 * writers disagree about their sign and RFC 2822 §4.3 says they carry no reliable
 * offset. `CST` is RFC 822's US Central time (−06:00), never China's.
 */
const ZONES: ReadonlyMap<string, number> = new Map([
  ['ut', 0],
  ['utc', 0],
  ['gmt', 0],
  ['z', 0],
  ['etc/gmt', 0],
  ['etc/utc', 0],
  ['est', -300],
  ['edt', -240],
  ['cst', -360],
  ['cdt', -300],
  ['mst', -420],
  ['mdt', -360],
  ['pst', -480],
  ['pdt', -420],
  ['akst', -540],
  ['akdt', -480],
  ['hst', -600],
  ['wet', 0],
  ['west', 60],
  ['cet', 60],
  ['cest', 120],
  ['met', 60],
  ['mest', 120],
  ['eet', 120],
  ['eest', 180],
  ['jst', 540],
  ['kst', 540],
  ['awst', 480],
  ['aest', 600],
  ['aedt', 660],
  ['nzst', 720],
  ['nzdt', 780],
]);

/**
 * The date part of an ISO 8601 / RFC 3339 / W3C-DTF string, extended (`2026-01-02`) or
 * basic (`20260102`): calendar dates, ordinal dates (`2026-002`, `2026002`), week dates
 * (`2026-W01-5`, `2026W015`), and the reduced precisions `YYYY-MM`, `YYYY-Www`, `YYYY`.
 * Groups: year, then month+day (extended), ordinal (extended), week+weekday
 * (extended), month (extended), month+day (basic), ordinal (basic), week+weekday (basic).
 * The basic `YYYYMM` is not ISO 8601 (it reads as `YYMMDD` too) and two-digit years are
 * refused: their century is a guess.
 */
const ISO_DATE =
  /^(\d{4})(?:-(\d{2})-(\d{2})|-(\d{3})|-W(\d{2})(?:-([1-7]))?|-(\d{2})|(\d{2})(\d{2})|(\d{3})|W(\d{2})([1-7])?)?(?=$|[Tt\s])/;

/**
 * The time part after a complete date: `T` then `hh`, `hh:mm`, `hh:mm:ss` (or their basic
 * forms `hhmm`, `hhmmss`), an optional fraction of the seconds and an optional zone; or
 * whitespace then at least `hh:mm` (`2026-01-02 03:04:05`, as databases write it).
 */
const ISO_TIME_AFTER_T =
  /^[Tt](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?(?:\s*(Z|z|[+-]\d{2}(?::?\d{2})?|[A-Za-z]{1,5}))?$/;
const ISO_TIME_AFTER_SPACE =
  /^\s+(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:\s*(Z|z|[+-]\d{2}(?::?\d{2})?|[A-Za-z]{1,5}))?$/;

const TIME = /^(\d{1,2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?$/;
const MERIDIEM = /^(?:([ap])\.?m\.?)$/i;
const RFC850_DATE = /^(\d{1,2})-([A-Za-z]+)-(\d{2,4})$/;
const DIGITS_1_2 = /^\d{1,2}$/;
const YEAR = /^\d{2,4}$/;
const WORD = /^[A-Za-z]+\.?$/;

interface Fields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Minutes east of UTC. */
  offset: number;
}

/**
 * Parse a feed date into ISO-8601 UTC with milliseconds (`2026-01-02T03:04:05.000Z`), or
 * return `''` when the string is not a date this parser can read without guessing.
 *
 * ISO 8601 forms: extended and basic calendar dates (`2026-01-02`, `20260102`), ordinal
 * dates (`2026-002`), week dates (`2026-W01-5`), the reduced `YYYY-MM`, `YYYY-Www` and
 * `YYYY` (the first instant of the period), and after a complete date a time of `hh`,
 * `hh:mm` or `hh:mm:ss` (or `hhmm`, `hhmmss`) with an optional fraction and zone.
 * Two-digit years are refused there (`03-12-31`): their century would be a guess.
 *
 * Accepted beyond RFC 822: any leading word as the day name (it is ignored, so a wrong
 * day name does not matter), full and `Sept` month names in any case, RFC 850
 * `02-Jan-26` and asctime `Jan  2 03:04:05 2026` dates (also with the zone before the
 * year, `Sun Jul 15 01:16:00 +0000 2012`), missing seconds, missing time (midnight), a
 * 12-hour clock with `AM`/`PM`, fractional seconds (cut to milliseconds), 2-digit years
 * (RFC 2822 §4.3: `00`–`49` are 20xx, `50`–`99` 19xx) and 3-digit years (+1900), offsets
 * with or without a colon or with hours only, `GMT+0100`, the zone names of
 * {@link ZONES}, comments in parentheses, extra whitespace and commas. A missing zone
 * means UTC. Out-of-range fields (February 30, hour 25, offset
 * +2400) are refused, never rolled over; a leap second `:60` and `24:00:00` count as the
 * next second. Results outside years 0000–9999 are refused.
 *
 * @example
 *   parseFeedDate('Fri, 2 Jan 2026 03:04 EST') // '2026-01-02T08:04:00.000Z'
 *   parseFeedDate('2026-01-02T03:04:05+01:00') // '2026-01-02T02:04:05.000Z'
 *   parseFeedDate('Tue, 30 Feb 2026 00:00:00 GMT') // ''
 */
export function parseFeedDate(raw: string): string {
  const text = raw.trim();
  if (text === '' || text.length > MAX_DATE_CHARS) return '';
  const fields = /^\d{4}/.test(text) ? readIso(text) : readRfc822(text);
  return fields === null ? '' : format(fields);
}

function readIso(text: string): Fields | null {
  const date = ISO_DATE.exec(text);
  if (date === null) return null;
  const g = date.slice(1) as (string | undefined)[];
  const year = Number(g[0]);
  const ordinal = g[3] ?? g[9];
  const week = g[4] ?? g[10];
  const weekday = g[5] ?? g[11];
  const monthText = g[1] ?? g[6] ?? g[7];
  const dayText = g[2] ?? g[8];
  let calendar: [number, number, number] | null;
  if (ordinal !== undefined) calendar = fromOrdinal(year, Number(ordinal));
  else if (week !== undefined) calendar = fromWeek(year, Number(week), Number(weekday ?? 1));
  else calendar = [year, monthText === undefined ? 1 : Number(monthText), Number(dayText ?? 1)];
  if (calendar === null) return null;
  const [y, month, day] = calendar;

  const rest = text.slice(date[0].length);
  const fields: Fields = {
    year: y,
    month,
    day,
    hour: 0,
    minute: 0,
    second: 0,
    millisecond: 0,
    offset: 0,
  };
  if (rest === '') return fields;
  // A time needs a complete date: `2026-01T10:00` and `2026-W01T10:00` mean nothing.
  const complete = dayText !== undefined || ordinal !== undefined || weekday !== undefined;
  const time = complete ? (ISO_TIME_AFTER_T.exec(rest) ?? ISO_TIME_AFTER_SPACE.exec(rest)) : null;
  if (time === null) return null;
  const [, hour, minute, second, fraction, zone] = time;
  const offset = zone === undefined ? 0 : zoneOffset(zone);
  if (offset === null) return null;
  return {
    ...fields,
    hour: Number(hour),
    minute: minute === undefined ? 0 : Number(minute),
    second: second === undefined ? 0 : Number(second),
    millisecond: milliseconds(fraction),
    offset,
  };
}

/** The calendar date of day `ordinal` (1–365, or 366 in a leap year) of `year`, or null. */
function fromOrdinal(year: number, ordinal: number): [number, number, number] | null {
  if (ordinal < 1 || ordinal > (isLeapYear(year) ? 366 : 365)) return null;
  return civilFromDays(daysFromCivil(year, 1, 1) + ordinal - 1);
}

/**
 * The calendar date of ISO 8601 week `week`, day `weekday` (1 = Monday) of week-year
 * `year`, or null. Week 1 is the week holding the year's first Thursday, so it holds
 * 4 January; a week-year has 53 weeks when it starts on a Thursday, or on a Wednesday
 * in a leap year.
 */
function fromWeek(year: number, week: number, weekday: number): [number, number, number] | null {
  const january4 = daysFromCivil(year, 1, 4);
  const weekStart = january4 - (isoWeekday(january4) - 1);
  const january1 = isoWeekday(daysFromCivil(year, 1, 1));
  const weeks = january1 === 4 || (january1 === 3 && isLeapYear(year)) ? 53 : 52;
  if (week < 1 || week > weeks) return null;
  return civilFromDays(weekStart + (week - 1) * 7 + weekday - 1);
}

/** ISO weekday of a day count since 1970-01-01 (a Thursday): 1 = Monday … 7 = Sunday. */
function isoWeekday(days: number): number {
  return ((((days + 3) % 7) + 7) % 7) + 1;
}

function readRfc822(text: string): Fields | null {
  // RFC 2822 §3.2.3: comments such as `(PST)` may follow the zone.
  const tokens = text
    .replace(/\([^()]*\)/g, ' ')
    .split(/[\s,]+/)
    .filter((token) => token !== '');
  let i = 0;
  const at = (index: number): string => tokens[index] ?? '';

  // The day name is optional and often wrong; any leading word that is not a month is skipped.
  if (WORD.test(at(i)) && month(at(i)) === null) i++;

  let day: number;
  let monthNumber: number | null;
  let yearText: string;
  let timeText: string | null = null;
  let zoneText: string | null = null;
  const rfc850 = RFC850_DATE.exec(at(i));
  if (rfc850 !== null) {
    // RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`.
    day = Number(rfc850[1]);
    monthNumber = month(rfc850[2] as string);
    yearText = rfc850[3] as string;
    i += 1;
  } else if (DIGITS_1_2.test(at(i))) {
    // RFC 822: `02 Jan 2026`.
    day = Number(at(i));
    monthNumber = month(at(i + 1));
    yearText = at(i + 2);
    i += 3;
  } else if (month(at(i)) !== null && DIGITS_1_2.test(at(i + 1))) {
    // asctime `Jan  2 03:04:05 2026`, or `Jan 2, 2026 03:04:05`.
    monthNumber = month(at(i));
    day = Number(at(i + 1));
    if (TIME.test(at(i + 2)) && !YEAR.test(at(i + 3)) && YEAR.test(at(i + 4))) {
      // asctime with the zone before the year: `Sun Jul 15 01:16:00 +0000 2012`.
      timeText = at(i + 2);
      zoneText = at(i + 3);
      yearText = at(i + 4);
      i += 5;
    } else if (TIME.test(at(i + 2))) {
      timeText = at(i + 2);
      yearText = at(i + 3);
      i += 4;
    } else {
      yearText = at(i + 2);
      i += 3;
    }
  } else {
    return null;
  }
  if (monthNumber === null || !YEAR.test(yearText)) return null;

  let hour = 0;
  let minute = 0;
  let second = 0;
  let fraction: string | undefined;
  if (timeText === null && TIME.test(at(i))) {
    timeText = at(i);
    i++;
  }
  if (timeText !== null) {
    const time = TIME.exec(timeText) as RegExpExecArray;
    hour = Number(time[1]);
    minute = Number(time[2]);
    second = time[3] === undefined ? 0 : Number(time[3]);
    fraction = time[4];
    // A 12-hour clock: `3:04 PM`; the hour must then be 1–12.
    const meridiem = MERIDIEM.exec(at(i));
    if (meridiem !== null) {
      if (hour < 1 || hour > 12) return null;
      hour = (hour % 12) + ((meridiem[1] as string).toLowerCase() === 'p' ? 12 : 0);
      i++;
    }
  }

  let offset: number | null = 0;
  const rest = tokens.length - i;
  if (zoneText !== null) {
    offset = rest === 0 ? zoneOffset(zoneText) : null;
  } else if (rest === 1) {
    offset = zoneOffset(at(i));
  } else if (rest === 2 && /^(?:gmt|utc|ut)$/i.test(at(i)) && /^[+-]/.test(at(i + 1))) {
    // `GMT +0100`.
    offset = numericOffset(at(i + 1), true);
  } else if (rest !== 0) {
    return null;
  }
  if (offset === null) return null;

  return {
    year: fullYear(yearText),
    month: monthNumber,
    day,
    hour,
    minute,
    second,
    millisecond: milliseconds(fraction),
    offset,
  };
}

function month(token: string): number | null {
  return MONTHS.get(token.replace(/\.$/, '').toLowerCase()) ?? null;
}

/** RFC 2822 §4.3: two-digit years 00–49 are 2000–2049, 50–99 are 1950–1999; three digits add 1900. */
function fullYear(text: string): number {
  const value = Number(text);
  if (text.length === 2) return value < 50 ? 2000 + value : 1900 + value;
  if (text.length === 3) return 1900 + value;
  return value;
}

/** Minutes east of UTC for a zone token, or null when the token is not a zone. */
function zoneOffset(token: string): number | null {
  if (/^[+-]/.test(token)) return numericOffset(token, false);
  const prefixed = /^(?:gmt|utc|ut)([+-].*)$/i.exec(token);
  if (prefixed !== null) return numericOffset(prefixed[1] as string, true);
  return ZONES.get(token.toLowerCase()) ?? null;
}

/** `+0100`, `+01:00`, `+01` (and `+1` after `GMT`). */
function numericOffset(token: string, shortHours: boolean): number | null {
  const match = (
    shortHours ? /^([+-])(\d{1,2})(?::?(\d{2}))?$/ : /^([+-])(\d{2})(?::?(\d{2}))?$/
  ).exec(token);
  if (match === null) return null;
  const hours = Number(match[2]);
  const minutes = match[3] === undefined ? 0 : Number(match[3]);
  if (hours > 23 || minutes > 59) return null;
  const sign = match[1] === '-' ? -1 : 1;
  return sign * (hours * 60 + minutes);
}

/** The first three fraction digits as milliseconds; further digits are cut, never rounded. */
function milliseconds(fraction: string | undefined): number {
  if (fraction === undefined) return 0;
  return Number(`${fraction}00`.slice(0, 3));
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

function format(fields: Fields): string {
  const { year, month, day, hour, minute, second, millisecond, offset } = fields;
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return '';
  if (minute > 59 || second > 60) return '';
  if (hour > 24 || (hour === 24 && (minute !== 0 || second !== 0 || millisecond !== 0))) return '';

  const epoch =
    daysFromCivil(year, month, day) * MS_PER_DAY +
    ((hour * 60 + minute - offset) * 60 + second) * 1000 +
    millisecond;
  const days = Math.floor(epoch / MS_PER_DAY);
  let rest = epoch - days * MS_PER_DAY;
  const [y, m, d] = civilFromDays(days);
  if (y < 0 || y > 9999) return '';
  const ms = rest % 1000;
  rest = (rest - ms) / 1000;
  const s = rest % 60;
  rest = (rest - s) / 60;
  const mi = rest % 60;
  const h = (rest - mi) / 60;
  return `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}T${pad(h, 2)}:${pad(mi, 2)}:${pad(s, 2)}.${pad(ms, 3)}Z`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

/**
 * Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant, "chrono-Compatible
 * Low-Level Date Algorithms", `days_from_civil`).
 */
export function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The inverse of {@link daysFromCivil} (`civil_from_days`): `[year, month, day]`. */
export function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear =
    dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day];
}
