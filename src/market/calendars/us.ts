// NYSE/Nasdaq (XNYS): regular session 09:30-16:00 New York, the exchange holiday rules, early
// closes at 13:00 and ad-hoc closures. INDICES, ETFS and COMMODITIES reuse these holidays.
import { easterOffset, isoWeekday, lastWeekday, nthWeekday, ymd } from '../civil-date.ts';
import { closed, earlyClose, observedNearestWeekday, parseDatedTable, tableYear } from '../holiday-rules.ts';
import type { HolidayEntry } from '../types.ts';
import { defineMarket } from './define-market.ts';

// source: NYSE holiday and early-closing notices (Rule 7.2 and NYSE press releases) per year.
const US_AD_HOC = parseDatedTable(`
  @source NYSE holiday and early-closing notices (Rule 7.2, NYSE press releases)
  2001-09-11..2001-09-14 September 11 attacks
  2004-06-11 National Day of Mourning for President Reagan
  2007-01-02 National Day of Mourning for President Ford
  2012-10-29..2012-10-30 Hurricane Sandy
  2018-12-05 National Day of Mourning for President George H. W. Bush
  2025-01-09 National Day of Mourning for President Carter
`, ['US', 'INDICES', 'ETFS', 'COMMODITIES', 'OVERNIGHT']);

export function usExchangeHolidays(year: number): HolidayEntry[] {
  const list: HolidayEntry[] = [];
  const newYear = ymd(year, 1, 1);
  // NYSE does not close on Friday Dec 31 when Jan 1 is a Saturday (Rule 7.2), only Sunday moves.
  if (isoWeekday(newYear) !== 6) list.push(closed(observedNearestWeekday(newYear), "New Year's Day"));
  list.push(closed(nthWeekday(year, 1, 1, 3), 'Martin Luther King Jr. Day'));
  list.push(closed(nthWeekday(year, 2, 1, 3), "Washington's Birthday"));
  list.push(closed(easterOffset(year, -2), 'Good Friday'));
  list.push(closed(lastWeekday(year, 5, 1), 'Memorial Day'));
  if (year >= 2022) list.push(closed(observedNearestWeekday(ymd(year, 6, 19)), 'Juneteenth National Independence Day'));
  list.push(closed(observedNearestWeekday(ymd(year, 7, 4)), 'Independence Day'));
  list.push(closed(nthWeekday(year, 9, 1, 1), 'Labor Day'));
  const thanksgiving = nthWeekday(year, 11, 4, 4);
  list.push(closed(thanksgiving, 'Thanksgiving Day'));
  list.push(closed(observedNearestWeekday(ymd(year, 12, 25)), 'Christmas Day'));
  // 13:00 early closes: the eve of Independence Day and of Christmas only when the holiday itself
  // falls Tuesday-Friday (otherwise the eve is the observed holiday or a weekend), and Black Friday.
  const july3 = ymd(year, 7, 3);
  if (isoWeekday(july3) <= 4) list.push(earlyClose(july3, 'Independence Day (early close)', '13:00'));
  list.push(earlyClose(ymd(year, 11, Number(thanksgiving.slice(8)) + 1), 'Day after Thanksgiving (early close)', '13:00'));
  const christmasEve = ymd(year, 12, 24);
  if (isoWeekday(christmasEve) <= 4) list.push(earlyClose(christmasEve, 'Christmas Eve (early close)', '13:00'));
  list.push(...tableYear(US_AD_HOC, year));
  return list;
}

export const US = defineMarket({
  market: 'US', name: 'NYSE / Nasdaq', mic: 'XNYS', country: 'US', timezone: 'America/New_York',
  hours: [{ from: '1985-01-01', open: '09:30', close: '16:00' }],
  holidays: usExchangeHolidays,
});
