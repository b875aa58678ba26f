// Arithmetic on civil dates written as YYYY-MM-DD strings (no time zone involved): day shifts,
// weekdays, Easter and "nth weekday of the month" rules that holiday calendars are built from.

const DAY_MS = 86_400_000;

export function toDayNumber(date: string): number {
  return Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))) / DAY_MS;
}

export function fromDayNumber(day: number): string {
  return new Date(day * DAY_MS).toISOString().slice(0, 10);
}

export function ymd(year: number, month: number, day: number): string {
  return fromDayNumber(Date.UTC(year, month - 1, day) / DAY_MS);
}

export function addDays(date: string, days: number): string {
  return fromDayNumber(toDayNumber(date) + days);
}

/** 1 = Monday ... 7 = Sunday. */
export function isoWeekday(date: string): number {
  const weekday = new Date(toDayNumber(date) * DAY_MS).getUTCDay();
  return weekday === 0 ? 7 : weekday;
}

export function isValidDate(date: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && fromDayNumber(toDayNumber(date)) === date;
}

/** Western (Gregorian) Easter Sunday, anonymous Gregorian algorithm. */
export function easterSunday(year: number): string {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return ymd(year, month, day);
}

export function easterOffset(year: number, days: number): string {
  return addDays(easterSunday(year), days);
}

/** The n-th (1-based) given ISO weekday of a month. */
export function nthWeekday(year: number, month: number, weekday: number, n: number): string {
  const first = ymd(year, month, 1);
  const shift = (weekday - isoWeekday(first) + 7) % 7;
  return addDays(first, shift + (n - 1) * 7);
}

export function lastWeekday(year: number, month: number, weekday: number): string {
  const last = addDays(ymd(month === 12 ? year + 1 : year, month === 12 ? 1 : month + 1, 1), -1);
  const back = (isoWeekday(last) - weekday + 7) % 7;
  return addDays(last, -back);
}

/** The first given weekday on or after a date (e.g. Midsummer: Saturday on or after 20 June). */
export function weekdayOnOrAfter(date: string, weekday: number): string {
  return addDays(date, (weekday - isoWeekday(date) + 7) % 7);
}

export function isWeekend(date: string): boolean {
  return isoWeekday(date) >= 6;
}

/** Inclusive list of dates; empty when `from` is after `to`. */
export function datesBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let day = toDayNumber(from), end = toDayNumber(to); day <= end; day++) out.push(fromDayNumber(day));
  return out;
}
