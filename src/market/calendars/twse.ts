// Taiwan Stock Exchange closures. TWSE publishes its market holiday schedule each autumn; it
// follows the government calendar (DGPA) and adds settlement-only days before Lunar New Year (no
// trading, only clearing of earlier trades), Labour Day and typhoon closures. The dated lists and
// their sources are in twse-tables.ts.
import { addDays, isoWeekday, ymd } from '../civil-date.ts';
import { closed, publicHolidays, tableYear } from '../holiday-rules.ts';
import type { HolidayEntry } from '../types.ts';
import { TWSE_RULE_YEAR_CLOSURES, TWSE_YEARS } from './twse-tables.ts';

export { TWSE_SATURDAY_SESSIONS } from './twse-tables.ts';

const LUNAR_NEW_YEAR = /Chinese New Year/;

/**
 * Years without a TWSE list: the public holidays of the date-holidays rules, which move a Sunday
 * holiday to Monday but miss the Friday off for a Saturday holiday (added here), plus Labour Day
 * and the dated closures found for these years (typhoons, some Lunar New Year weeks). Other
 * bridge days and settlement-only days are missing.
 */
function ruleYear(year: number): HolidayEntry[] {
  const list = publicHolidays('TW', year);
  const fridays = list
    .filter((h) => isoWeekday(h.date) === 6 && !LUNAR_NEW_YEAR.test(h.name))
    .map((h) => closed(addDays(h.date, -1), `${h.name} (observed)`));
  // 1 January on a Saturday is observed on 31 December of the year before.
  const nextNewYear = ymd(year + 1, 1, 1);
  if (isoWeekday(nextNewYear) === 6) fridays.push(closed(addDays(nextNewYear, -1), 'Founding of the Republic of China (observed)'));
  return [...list, ...fridays, closed(ymd(year, 5, 1), 'Labour Day'), ...tableYear(TWSE_RULE_YEAR_CLOSURES, year)];
}

export function twseHolidays(year: number): HolidayEntry[] {
  return TWSE_YEARS.has(year) ? tableYear(TWSE_YEARS, year) : ruleYear(year);
}
