// European stock markets outside Euronext and the Nordics: London, Xetra, SIX, Madrid, Milan,
// Vienna and Warsaw. Their holidays follow fixed dates and Easter, plus a few dated exceptions.
import { easterOffset, lastWeekday, nthWeekday, ymd } from '../civil-date.ts';
import { christmasPair, closed, earlyClose, eveOrFridayBefore, ifWeekday, lastWeekdayBefore, observedNextMonday, parseDatedTable, tableYear } from '../holiday-rules.ts';
import type { HolidayEntry, MarketDefinition } from '../types.ts';
import { defineMarket } from './define-market.ts';
import { EURONEXT } from './euronext.ts';
import { NORDICS } from './nordics.ts';

// source: LSE trading calendar notices per year; UK bank holidays with the moved ones of 2020
// (VE Day) and 2022 (Platinum Jubilee), and the Queen's funeral and the Coronation.
const GB_AD_HOC = parseDatedTable(`
  @source LSE trading calendar notices
  2022-06-03 Platinum Jubilee
  2022-09-19 State Funeral of Queen Elizabeth II
  2023-05-08 Coronation of King Charles III
`, 'GB');
function lseHolidays(year: number): HolidayEntry[] {
  const [christmas, boxing] = christmasPair(year);
  const earlyMay = year === 2020 ? ymd(2020, 5, 8) : nthWeekday(year, 5, 1, 1);
  const springBank = year === 2022 ? ymd(2022, 6, 2) : lastWeekday(year, 5, 1);
  return [
    closed(observedNextMonday(ymd(year, 1, 1)), "New Year's Day"),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(earlyMay, 'Early May Bank Holiday'),
    closed(springBank, 'Spring Bank Holiday'),
    closed(lastWeekday(year, 8, 1), 'Summer Bank Holiday'),
    closed(christmas, 'Christmas Day'),
    closed(boxing, 'Boxing Day'),
    earlyClose(eveOrFridayBefore(ymd(year, 12, 24)), 'Christmas Eve (early close)', '12:30'),
    earlyClose(eveOrFridayBefore(ymd(year, 12, 31)), "New Year's Eve (early close)", '12:30'),
    ...tableYear(GB_AD_HOC, year),
  ];
}

// source: Deutsche Boerse Xetra trading calendar per year. Whit Monday and German Unity Day
// closed Xetra from 2015 and 2014 through 2021 and are trading days since 2022; Reformation Day
// 2017 was a one-off national holiday. The last trading day of the year ends at 14:00.
// Xetra's ad hoc closures, one dated line each.
const DE_AD_HOC = parseDatedTable(`
  2017-10-31 Reformation Day (500th anniversary) | Deutsche Boerse trading calendar 2017 (a one-off nationwide holiday); the reference sessions (exchange_calendars XETR)
`, 'DE');

function xetraHolidays(year: number): HolidayEntry[] {
  const list = [
    closed(ymd(year, 1, 1), "New Year's Day"),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(ymd(year, 5, 1), 'Labour Day'),
    closed(ymd(year, 12, 24), 'Christmas Eve'),
    closed(ymd(year, 12, 25), 'Christmas Day'),
    closed(ymd(year, 12, 26), 'Boxing Day'),
    closed(ymd(year, 12, 31), "New Year's Eve"),
  ];
  if (year >= 2015 && year <= 2021) list.push(closed(easterOffset(year, 50), 'Whit Monday'));
  if (year >= 2014 && year <= 2021) list.push(closed(ymd(year, 10, 3), 'Day of German Unity'));
  list.push(...tableYear(DE_AD_HOC, year));
  // Last weekday before Dec 31 (Dec 24-26 are closed anyway, so this lands on Dec 27-30).
  list.push(earlyClose(lastWeekdayBefore(ymd(year, 12, 31)), 'Last trading day of the year (early close)', '14:00'));
  return list;
}

// source: SIX Swiss Exchange trading calendar per year.
function sixHolidays(year: number): HolidayEntry[] {
  return [
    closed(ymd(year, 1, 1), "New Year's Day"),
    closed(ymd(year, 1, 2), "Berchtold's Day"),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(ymd(year, 5, 1), 'Labour Day'),
    closed(easterOffset(year, 39), 'Ascension Day'),
    closed(easterOffset(year, 50), 'Whit Monday'),
    closed(ymd(year, 8, 1), 'Swiss National Day'),
    closed(ymd(year, 12, 24), 'Christmas Eve'),
    closed(ymd(year, 12, 25), 'Christmas Day'),
    closed(ymd(year, 12, 26), "St. Stephen's Day"),
    closed(ymd(year, 12, 31), "New Year's Eve"),
  ];
}

// source: BME (Bolsa de Madrid) trading calendar per year; 14:00 close on 24 and 31 December.
function bmeHolidays(year: number): HolidayEntry[] {
  return [
    closed(ymd(year, 1, 1), "New Year's Day"),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(ymd(year, 5, 1), 'Labour Day'),
    closed(ymd(year, 12, 25), 'Christmas Day'),
    closed(ymd(year, 12, 26), "St. Stephen's Day"),
    ...ifWeekday(ymd(year, 12, 24)).map((d) => earlyClose(d, 'Christmas Eve (early close)', '14:00')),
    ...ifWeekday(ymd(year, 12, 31)).map((d) => earlyClose(d, "New Year's Eve (early close)", '14:00')),
    ...tableYear(BME_AD_HOC, year),
  ];
}

// BME did not trade on 24 and 31 December 2021 (both Fridays). source: the reference sessions
// (exchange_calendars XMAD); no BME notice found that says otherwise.
const BME_AD_HOC = parseDatedTable(`
  @source the closures of the reference sessions (exchange_calendars XMAD); no BME notice found that says otherwise
  2021-12-24,2021-12-31 Christmas and New Year's Eve closure
`, 'ES');

// source: Borsa Italiana trading calendar per year (closed on Ferragosto and both year-end eves).
function borsaItalianaHolidays(year: number): HolidayEntry[] {
  return [
    closed(ymd(year, 1, 1), "New Year's Day"),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(ymd(year, 5, 1), 'Labour Day'),
    closed(ymd(year, 8, 15), 'Assumption Day'),
    closed(ymd(year, 12, 24), 'Christmas Eve'),
    closed(ymd(year, 12, 25), 'Christmas Day'),
    closed(ymd(year, 12, 26), "St. Stephen's Day"),
    closed(ymd(year, 12, 31), "New Year's Eve"),
  ];
}

// Wiener Boerse closed on the Austrian public holidays until 2018 (Epiphany, Ascension, Corpus
// Christi, Assumption, All Saints, Immaculate Conception) and trades on them from 2019; it still
// closes on National Day (26 October) and on Whit Monday (a trading day in 2023 only, as the
// reference shows; the 2024 and later calendars list it as closed again). From 2017 the last trading
// day before 31 December ends at 14:15. source: Wiener Boerse trading calendars (Handelskalender)
// per year; the reference sessions (exchange_calendars XWBO, 2015-2024) show the same days.
function wienerBoerseHolidays(year: number): HolidayEntry[] {
  const list = [
    closed(ymd(year, 1, 1), "New Year's Day"),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(ymd(year, 5, 1), 'Labour Day'),
    closed(ymd(year, 10, 26), 'National Day'),
    closed(ymd(year, 12, 24), 'Christmas Eve'),
    closed(ymd(year, 12, 25), 'Christmas Day'),
    closed(ymd(year, 12, 26), "St. Stephen's Day"),
    closed(ymd(year, 12, 31), "New Year's Eve"),
  ];
  if (year !== 2023) list.push(closed(easterOffset(year, 50), 'Whit Monday'));
  if (year <= 2018) {
    list.push(
      closed(ymd(year, 1, 6), 'Epiphany'),
      closed(easterOffset(year, 39), 'Ascension Day'),
      closed(easterOffset(year, 60), 'Corpus Christi'),
      closed(ymd(year, 8, 15), 'Assumption Day'),
      closed(ymd(year, 11, 1), "All Saints' Day"),
      closed(ymd(year, 12, 8), 'Immaculate Conception'),
    );
  }
  if (year >= 2017) list.push(earlyClose(lastWeekdayBefore(ymd(year, 12, 31)), 'Last trading day of the year (early close)', '14:15'));
  return list;
}

// source: GPW (Warsaw Stock Exchange) session calendar per year; 2018-11-12 was a one-off holiday and
// 2018-01-02 a session-free day (the reference sessions, exchange_calendars XWAR, agree).
// GPW's ad hoc closures, one dated line each.
const PL_AD_HOC = parseDatedTable(`
  @source GPW session calendar 2018; the reference sessions (exchange_calendars XWAR)
  2018-01-02 Session-free day
  2018-11-12 Independence Centenary
`, 'PL');

function gpwHolidays(year: number): HolidayEntry[] {
  const list = [
    closed(ymd(year, 1, 1), "New Year's Day"),
    closed(ymd(year, 1, 6), 'Epiphany'),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(ymd(year, 5, 1), 'Labour Day'),
    closed(ymd(year, 5, 3), 'Constitution Day'),
    closed(easterOffset(year, 60), 'Corpus Christi'),
    closed(ymd(year, 8, 15), 'Assumption Day'),
    closed(ymd(year, 11, 1), "All Saints' Day"),
    closed(ymd(year, 11, 11), 'Independence Day'),
    closed(ymd(year, 12, 24), 'Christmas Eve'),
    closed(ymd(year, 12, 25), 'Christmas Day'),
    closed(ymd(year, 12, 26), 'Second Day of Christmas'),
    closed(ymd(year, 12, 31), "New Year's Eve"),
  ];
  return [...list, ...tableYear(PL_AD_HOC, year)];
}

const CET_0900_1730 = [{ from: '2000-01-01', open: '09:00', close: '17:30' }];

export const EUROPE: MarketDefinition[] = [
  defineMarket({
    market: 'GB', name: 'London Stock Exchange', mic: 'XLON', country: 'GB', timezone: 'Europe/London',
    hours: [{ from: '2000-01-01', open: '08:00', close: '16:30' }], holidays: lseHolidays,
  }),
  defineMarket({
    market: 'DE', name: 'Deutsche Boerse Xetra', mic: 'XETR', country: 'DE', timezone: 'Europe/Berlin',
    hours: CET_0900_1730, holidays: xetraHolidays,
  }),
  ...EURONEXT,
  defineMarket({
    market: 'CH', name: 'SIX Swiss Exchange', mic: 'XSWX', country: 'CH', timezone: 'Europe/Zurich',
    hours: CET_0900_1730, holidays: sixHolidays,
  }),
  defineMarket({
    market: 'ES', name: 'Bolsa de Madrid', mic: 'XMAD', country: 'ES', timezone: 'Europe/Madrid',
    hours: CET_0900_1730, holidays: bmeHolidays,
  }),
  defineMarket({
    market: 'IT', name: 'Borsa Italiana', mic: 'XMIL', country: 'IT', timezone: 'Europe/Rome',
    hours: CET_0900_1730, holidays: borsaItalianaHolidays,
  }),
  ...NORDICS,
  defineMarket({
    market: 'AT', name: 'Wiener Boerse', mic: 'XWBO', country: 'AT', timezone: 'Europe/Vienna',
    hours: CET_0900_1730, holidays: wienerBoerseHolidays,
  }),
  defineMarket({
    market: 'PL', name: 'Warsaw Stock Exchange', mic: 'XWAR', country: 'PL', timezone: 'Europe/Warsaw',
    hours: [{ from: '2000-01-01', open: '09:00', close: '17:00' }], holidays: gpwHolidays,
  }),
];
