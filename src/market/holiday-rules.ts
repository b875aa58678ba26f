// Building blocks for holiday calendars: closures and early closes, observed-day shifts, dated
// tables parsed from compact text, and public holidays taken from the `date-holidays` rules.
import { addDays, datesBetween, isoWeekday, ymd } from './civil-date.ts';
import { recordDated } from './provenance.ts';
import { ruleHolidays } from './rule-holidays.ts';
import { hm } from './zoned-time.ts';
import type { HolidayEntry } from './types.ts';

export function closed(date: string, name: string, source?: string): HolidayEntry {
  return source === undefined ? { date, name } : { date, name, source };
}

export function earlyClose(date: string, name: string, closeAt: string, source?: string): HolidayEntry {
  return { date, name, closeMin: hm(closeAt), ...(source === undefined ? {} : { source }) };
}

/** Other hours on one date: a late open and/or a close other than the regular one. */
export function otherHours(date: string, name: string, hours: { open?: string; close?: string }): HolidayEntry {
  return {
    date, name,
    ...(hours.open === undefined ? {} : { openMin: hm(hours.open) }),
    ...(hours.close === undefined ? {} : { closeMin: hm(hours.close) }),
  };
}

/** The last Monday-to-Friday date before `date`. */
export function lastWeekdayBefore(date: string): string {
  let day = addDays(date, -1);
  while (isoWeekday(day) > 5) day = addDays(day, -1);
  return day;
}

/** US federal style: Saturday is observed on Friday, Sunday on Monday. */
export function observedNearestWeekday(date: string): string {
  const weekday = isoWeekday(date);
  return weekday === 6 ? addDays(date, -1) : weekday === 7 ? addDays(date, 1) : date;
}

/** Commonwealth style: a weekend holiday moves to the following Monday. */
export function observedNextMonday(date: string): string {
  const weekday = isoWeekday(date);
  return weekday === 6 ? addDays(date, 2) : weekday === 7 ? addDays(date, 1) : date;
}

/** Sunday moves to Monday, Saturday is lost (e.g. South Africa, Canada's Christmas rules differ). */
export function observedSundayToMonday(date: string): string {
  return isoWeekday(date) === 7 ? addDays(date, 1) : date;
}

/**
 * Two consecutive holidays with Commonwealth substitutes, so both land on weekdays: Christmas and
 * Boxing Day, or New Zealand's 1 and 2 January. Returns [first observed, second observed].
 */
export function mondayisedPair(first: string): [string, string] {
  switch (isoWeekday(first)) {
    case 5: return [first, addDays(first, 3)]; // second day Saturday -> Monday
    case 6: return [addDays(first, 2), addDays(first, 3)];
    case 7: return [addDays(first, 2), addDays(first, 1)];
    default: return [first, addDays(first, 1)];
  }
}

export function christmasPair(year: number): [string, string] {
  return mondayisedPair(ymd(year, 12, 25));
}

/** Dec 24 / Dec 31 style eves: the date itself when it is a weekday, otherwise nothing. */
export function ifWeekday(date: string): string[] {
  return isoWeekday(date) <= 5 ? [date] : [];
}

/** LSE practice: an eve on a weekend moves its half day to the Friday before. */
export function eveOrFridayBefore(date: string): string {
  const weekday = isoWeekday(date);
  return weekday === 6 ? addDays(date, -1) : weekday === 7 ? addDays(date, -2) : date;
}

/**
 * A dated table written one entry per line: `YYYY-MM-DD[..YYYY-MM-DD] [HH:MM|HH:MM-HH:MM] name [| source]`,
 * where a range covers every date in it, one time makes the entry an early close and two times
 * other hours (open-close) that day; `d1,d2,...` lists several dates sharing one name. A line
 * `@source text` gives the source of the lines after it (until the next `@source`); ` | text` at
 * the end of a line gives that line its own. Entries carry their source to the holidays answer.
 * `market` (one code or several) records the table as that market's dated data, which its
 * `calendar_version` is computed from (provenance.ts). Returns entries by year.
 */
export function parseDatedTable(text: string, market?: string | readonly string[]): Map<number, HolidayEntry[]> {
  const byYear = new Map<number, HolidayEntry[]>();
  let tableSource: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.startsWith('@source ')) {
      tableSource = line.slice('@source '.length).trim();
      continue;
    }
    const match = /^(\d{4}-\d{2}-\d{2}(?:,\d{4}-\d{2}-\d{2})*)(?:\.\.(\d{4}-\d{2}-\d{2}))?\s+(?:(\d{2}:\d{2})(?:-(\d{2}:\d{2}))?\s+)?([^|]+?)(?:\s*\|\s*(.+))?$/.exec(line);
    if (!match) throw new Error(`bad holiday table line: ${line}`);
    const [, first = '', to, firstTime, secondTime, name = '', lineSource] = match;
    const source = lineSource ?? tableSource;
    const dates = to === undefined ? first.split(',') : datesBetween(first, to);
    for (const date of dates) {
      const entry = firstTime === undefined ? closed(date, name, source)
        : secondTime === undefined ? earlyClose(date, name, firstTime, source)
          : { ...otherHours(date, name, { open: firstTime, close: secondTime }), ...(source === undefined ? {} : { source }) };
      const year = Number(date.slice(0, 4));
      const list = byYear.get(year) ?? [];
      list.push(entry);
      byYear.set(year, list);
    }
  }
  if (market !== undefined) recordDated(market, byYear);
  return byYear;
}

export function tableYear(table: Map<number, HolidayEntry[]>, year: number): HolidayEntry[] {
  return table.get(year) ?? [];
}

/**
 * Public holidays of a country from the `date-holidays` rules (types `public`, plus `bank` when
 * asked), read from the precomputed table of rule-holidays.ts inside its years.
 */
export function publicHolidays(country: string, year: number, withBank = false): HolidayEntry[] {
  return holidaysOfTypes(country, year, withBank ? ['public', 'bank'] : ['public']);
}

/**
 * Holidays of the given date-holidays types (`public`, `bank`, `optional`, ...) of a country or,
 * written `CC/state`, of one state (e.g. `MY/14`, Kuala Lumpur), with the rules' holiday names.
 */
export function holidaysOfTypes(place: string, year: number, types: readonly string[]): HolidayEntry[] {
  return ruleHolidays(place, year)
    .filter((h) => types.includes(h.type))
    .flatMap((h) => datesBetween(h.date, addDays(h.date, h.days - 1)).map((date) => closed(date, h.name)));
}

/** Local dates a date-holidays entry covers (Chuseok and Eid spans last several days). */
export function spanDates(h: { date: string; start: Date; end: Date }): string[] {
  const days = Math.max(1, Math.round((h.end.getTime() - h.start.getTime()) / 86_400_000));
  const first = h.date.slice(0, 10);
  return datesBetween(first, addDays(first, days - 1));
}
