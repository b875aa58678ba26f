// Euronext cash markets (Paris, Amsterdam, Brussels, Lisbon, Dublin) share one harmonised holiday
// calendar: New Year, Good Friday, Easter Monday, 1 May, 25 and 26 December, and a 14:05 CET
// early close on 24 and 31 December when they are weekdays.
import { easterOffset, nthWeekday, ymd } from '../civil-date.ts';
import { christmasPair, closed, earlyClose, eveOrFridayBefore, ifWeekday, observedNextMonday, parseDatedTable, tableYear } from '../holiday-rules.ts';
import type { HolidayEntry, MarketDefinition } from '../types.ts';
import { defineMarket } from './define-market.ts';

// source: Euronext trading calendar and holiday notices per year (harmonised since 2001).
function euronextHolidays(earlyCloseAt: string): (year: number) => HolidayEntry[] {
  return (year) => {
    const list = [
      closed(ymd(year, 1, 1), "New Year's Day"),
      closed(easterOffset(year, -2), 'Good Friday'),
      closed(easterOffset(year, 1), 'Easter Monday'),
      closed(ymd(year, 5, 1), 'Labour Day'),
      closed(ymd(year, 12, 25), 'Christmas Day'),
      closed(ymd(year, 12, 26), 'Boxing Day'),
    ];
    for (const date of ifWeekday(ymd(year, 12, 24))) list.push(earlyClose(date, 'Christmas Eve (early close)', earlyCloseAt));
    for (const date of ifWeekday(ymd(year, 12, 31))) list.push(earlyClose(date, "New Year's Eve (early close)", earlyCloseAt));
    return list;
  };
}

const CET_HOURS = [{ from: '2000-01-01', open: '09:00', close: '17:30' }];
// Lisbon and Dublin trade on the same CET clock, one hour earlier in local time.
const WET_HOURS = [{ from: '2000-01-01', open: '08:00', close: '16:30' }];

// A session's close is the end of continuous trading (the closing auction after it is not part of
// the session): 17:30 CET in Paris, Amsterdam, Brussels and Lisbon, 16:28 in Dublin, whose closing
// auction runs 16:28-16:30, and 12:28 on its half days. source: Euronext Dublin (formerly Irish
// Stock Exchange) trading hours; the reference sessions (exchange_calendars XDUB) agree.
const DUBLIN_HOURS = [{ from: '2000-01-01', open: '08:00', close: '16:28' }];

// Dublin kept the Irish Stock Exchange calendar until the end of 2018 (it joined Euronext in March
// 2018): Irish bank holidays (the May and June bank holidays, Christmas and St Stephen's Day and
// New Year moved off weekends), 1 May a trading day, half days on the Friday before a weekend eve,
// and the 2018-03-02 closure for Storm Emma (half day the day before). From 2019 the harmonised
// Euronext calendar. source: ISE / Euronext Dublin holiday notices; the reference sessions
// (exchange_calendars XDUB, 2015-2020) show the same days.
// Euronext Dublin's ad hoc closures and other hours, one dated line each.
const DUBLIN_AD_HOC = parseDatedTable(`
  @source ISE market notices on Storm Emma (1 March 2018 early close, 2 March closed); the reference sessions (exchange_calendars XDUB) show both
  2018-03-01 12:28 Storm Emma (early close)
  2018-03-02 Storm Emma
`, 'IE');

function dublinHolidays(year: number): HolidayEntry[] {
  if (year >= 2019) {
    return euronextHolidays('12:28')(year);
  }
  const [christmas, stStephens] = christmasPair(year);
  const list = [
    closed(observedNextMonday(ymd(year, 1, 1)), "New Year's Day"),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(nthWeekday(year, 5, 1, 1), 'May Bank Holiday'),
    closed(nthWeekday(year, 6, 1, 1), 'June Bank Holiday'),
    closed(christmas, 'Christmas Day'),
    closed(stStephens, "St. Stephen's Day"),
    earlyClose(eveOrFridayBefore(ymd(year, 12, 24)), 'Christmas Eve (early close)', '12:28'),
    earlyClose(eveOrFridayBefore(ymd(year, 12, 31)), "New Year's Eve (early close)", '12:28'),
  ];
  return [...list, ...tableYear(DUBLIN_AD_HOC, year)];
}

export const EURONEXT: MarketDefinition[] = [
  defineMarket({
    market: 'FR', name: 'Euronext Paris', mic: 'XPAR', country: 'FR', timezone: 'Europe/Paris',
    hours: CET_HOURS, holidays: euronextHolidays('14:05'),
  }),
  defineMarket({
    market: 'NL', name: 'Euronext Amsterdam', mic: 'XAMS', country: 'NL', timezone: 'Europe/Amsterdam',
    hours: CET_HOURS, holidays: euronextHolidays('14:05'),
  }),
  defineMarket({
    market: 'BE', name: 'Euronext Brussels', mic: 'XBRU', country: 'BE', timezone: 'Europe/Brussels',
    hours: CET_HOURS, holidays: euronextHolidays('14:05'),
  }),
  defineMarket({
    market: 'PT', name: 'Euronext Lisbon', mic: 'XLIS', country: 'PT', timezone: 'Europe/Lisbon',
    hours: WET_HOURS, holidays: euronextHolidays('13:05'),
  }),
  defineMarket({
    market: 'IE', name: 'Euronext Dublin', mic: 'XDUB', country: 'IE', timezone: 'Europe/Dublin',
    hours: DUBLIN_HOURS, holidays: dublinHolidays,
  }),
];
