/**
 * A PDF date string (ISO 32000-1 §7.9.4: `D:YYYYMMDDHHmmSSOHH'mm'`, every part after the
 * year optional) as ISO-8601 UTC (`2024-01-02T02:04:05.000Z`), or null when it is not
 * one. Computed with integer calendar arithmetic, not `Date`, which products do not use.
 */
export function pdfDate(value: string): string | null {
  const match =
    /^(?:D:)?(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?(?:([Zz+-])(?:(\d{2})'?(?:(\d{2})'?)?)?)?$/.exec(
      value.trim(),
    );
  if (match === null) return null;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] =
    match;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  const offsetHours = Number(oh);
  const offsetMinutes = Number(om);
  if (year < 1000 || month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) {
    return null;
  }
  let seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second;
  const offset = offsetHours * 3600 + offsetMinutes * 60;
  if (sign === '+') seconds -= offset;
  else if (sign === '-') seconds += offset;
  const days = Math.floor(seconds / 86_400);
  const rest = seconds - days * 86_400;
  const [uy, um, ud] = civilFromDays(days);
  const time = [Math.floor(rest / 3600), Math.floor((rest % 3600) / 60), rest % 60];
  return `${pad(uy, 4)}-${pad(um, 2)}-${pad(ud, 2)}T${time.map((n) => pad(n, 2)).join(':')}.000Z`;
}

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function leap(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return leap(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}

/** The date of a day count since 1970-01-01: the inverse of {@link daysFromCivil}. */
function civilFromDays(days: number): [number, number, number] {
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const doe = z - era * 146_097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36_524) - Math.floor(doe / 146_096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  return [yoe + era * 400 + (month <= 2 ? 1 : 0), month, day];
}
