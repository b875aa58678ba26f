// Taiwan Stock Exchange closures. TWSE publishes its market holiday schedule each December; it
// follows the government calendar (DGPA) and adds settlement-only days before Lunar New Year (no
// trading, only clearing of earlier trades), Labour Day and typhoon closures.
import { addDays, isoWeekday, ymd } from '../civil-date.ts';
import { closed, parseDatedTable, publicHolidays, tableYear } from '../holiday-rules.ts';
import type { HolidayEntry } from '../types.ts';

// Complete closure lists of the years TWSE published them for (weekdays only; 2026 from the
// schedule announced in late 2025). source: TWSE "market holiday schedule" (市場開休市日期) per
// year. 2025 adds the holidays of the May 2025 amendment to the Implementation Regulations on
// Memorial Days and Holidays (Teachers' Day, Retrocession Day, Constitution Day, observed).
const TWSE_YEARS = parseDatedTable(`
  2024-01-01 Founding of the Republic of China
  2024-02-06..2024-02-07 No trading before Lunar New Year (settlement only)
  2024-02-08 Lunar New Year (adjusted holiday)
  2024-02-09 Lunar New Year's Eve
  2024-02-12..2024-02-14 Lunar New Year
  2024-02-28 Peace Memorial Day
  2024-04-04 Children's Day and Tomb Sweeping Day
  2024-04-05 Children's Day (observed)
  2024-05-01 Labour Day
  2024-06-10 Dragon Boat Festival
  2024-07-24..2024-07-25 Typhoon Gaemi
  2024-09-17 Mid-Autumn Festival
  2024-10-02..2024-10-03 Typhoon Krathon
  2024-10-10 National Day
  2024-10-31 Typhoon Kong-rey
  2025-01-01 Founding of the Republic of China
  2025-01-23..2025-01-24 No trading before Lunar New Year (settlement only)
  2025-01-27 Lunar New Year (adjusted holiday)
  2025-01-28 Lunar New Year's Eve
  2025-01-29..2025-01-31 Lunar New Year
  2025-02-28 Peace Memorial Day
  2025-04-03 Children's Day (observed)
  2025-04-04 Children's Day and Tomb Sweeping Day
  2025-05-01 Labour Day
  2025-05-30 Dragon Boat Festival (observed)
  2025-09-29 Teachers' Day (observed)
  2025-10-06 Mid-Autumn Festival
  2025-10-10 National Day
  2025-10-24 Taiwan Retrocession Day (observed)
  2025-12-25 Constitution Day
  2026-01-01 Founding of the Republic of China
  2026-02-12..2026-02-13 No trading before Lunar New Year (settlement only)
  2026-02-16 Lunar New Year's Eve
  2026-02-17..2026-02-20 Lunar New Year
  2026-02-27 Peace Memorial Day (observed)
  2026-04-03 Children's Day (observed)
  2026-04-06 Tomb Sweeping Day (observed)
  2026-05-01 Labour Day
  2026-06-19 Dragon Boat Festival
  2026-09-25 Mid-Autumn Festival
  2026-09-28 Teachers' Day
  2026-10-09 National Day (observed)
  2026-10-26 Taiwan Retrocession Day (observed)
  2026-12-25 Constitution Day
`);

// Typhoon closures of the other years (the city of Taipei suspended work). source: TWSE notices.
const TWSE_TYPHOONS = parseDatedTable(`
  2016-09-27 Typhoon Megi
`);

const LUNAR_NEW_YEAR = /Chinese New Year/;

/**
 * Years without a TWSE list: the public holidays of the date-holidays rules, which move a Sunday
 * holiday to Monday but miss the Friday off for a Saturday holiday (added here), plus Labour Day
 * and typhoons. Bridge days and the settlement-only days before Lunar New Year are missing.
 */
function ruleYear(year: number): HolidayEntry[] {
  const list = publicHolidays('TW', year);
  const fridays = list
    .filter((h) => isoWeekday(h.date) === 6 && !LUNAR_NEW_YEAR.test(h.name))
    .map((h) => closed(addDays(h.date, -1), `${h.name} (observed)`));
  // 1 January on a Saturday is observed on 31 December of the year before.
  const nextNewYear = ymd(year + 1, 1, 1);
  if (isoWeekday(nextNewYear) === 6) fridays.push(closed(addDays(nextNewYear, -1), 'Founding of the Republic of China (observed)'));
  return [...list, ...fridays, closed(ymd(year, 5, 1), 'Labour Day'), ...tableYear(TWSE_TYPHOONS, year)];
}

export function twseHolidays(year: number): HolidayEntry[] {
  return TWSE_YEARS.has(year) ? tableYear(TWSE_YEARS, year) : ruleYear(year);
}
