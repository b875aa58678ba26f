// Stock markets of the Americas: US (see us.ts), Toronto, Mexico, B3 Sao Paulo and Santiago.
import { easterOffset, nthWeekday, weekdayOnOrAfter, ymd } from '../civil-date.ts';
import {
  christmasPair, closed, earlyClose, ifWeekday, lastWeekdayBefore, observedNextMonday, otherHours, parseDatedTable, publicHolidays, tableYear,
} from '../holiday-rules.ts';
import { isDstOn, hm } from '../zoned-time.ts';
import type { HolidayEntry, MarketDefinition } from '../types.ts';
import { defineMarket, withAdjustedHours } from './define-market.ts';
import { US } from './us.ts';

// BMV keeps its session on the New York clock (09:30-16:00 ET): 08:30-15:00 Mexico City while
// both zones keep the same offset difference, 07:30-14:00 when New York is on daylight time and
// Mexico City is not, which since Mexico abolished daylight time (last change 2022-10-30) is every
// US summer, and before it the weeks between the US and Mexican switch dates. source: BMV trading
// hours notices (horario de operacion) on the US daylight-time switches.
const BMV_BASE = defineMarket({
  market: 'MX', name: 'Bolsa Mexicana de Valores', mic: 'XMEX', country: 'MX', timezone: 'America/Mexico_City',
  hours: [{ from: '2000-01-01', open: '08:30', close: '15:00' }],
  holidays: bmvHolidays,
});
const MX = withAdjustedHours(BMV_BASE, (date, base) => {
  const isEarlier = isDstOn(date, 'America/New_York') && !isDstOn(date, 'America/Mexico_City');
  return isEarlier ? { ...base, openMin: base.openMin - 60, closeMin: base.closeMin - 60 } : base;
});

// source: TSX trading calendar notices (TMX Group) per year; rules stable since Family Day 2008.
function tsxHolidays(year: number): HolidayEntry[] {
  const [christmas, boxing] = christmasPair(year);
  const list = [
    closed(observedNextMonday(ymd(year, 1, 1)), "New Year's Day"),
    closed(nthWeekday(year, 2, 1, 3), 'Family Day'),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(weekdayOnOrAfter(ymd(year, 5, 18), 1), 'Victoria Day'),
    closed(observedNextMonday(ymd(year, 7, 1)), 'Canada Day'),
    closed(nthWeekday(year, 8, 1, 1), 'Civic Holiday'),
    closed(nthWeekday(year, 9, 1, 1), 'Labour Day'),
    closed(nthWeekday(year, 10, 1, 2), 'Thanksgiving Day'),
    closed(christmas, 'Christmas Day'),
    closed(boxing, 'Boxing Day'),
  ];
  // TSX closes at 13:00 on Christmas Eve when it is a weekday.
  for (const date of ifWeekday(ymd(year, 12, 24))) list.push(earlyClose(date, 'Christmas Eve (early close)', '13:00'));
  return list;
}

// source: BMV holiday calendar (calendario de dias inhabiles) per year; weekend holidays are not moved.
const MX_AD_HOC = parseDatedTable(`
  @source BMV holiday calendar (calendario de dias inhabiles) of the year
  2024-10-01 Transfer of Federal Executive Power
`, 'MX');
function bmvHolidays(year: number): HolidayEntry[] {
  return [
    closed(ymd(year, 1, 1), "New Year's Day"),
    closed(nthWeekday(year, 2, 1, 1), 'Constitution Day'),
    closed(nthWeekday(year, 3, 1, 3), "Benito Juarez's Birthday"),
    closed(easterOffset(year, -3), 'Holy Thursday'),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(ymd(year, 5, 1), 'Labour Day'),
    closed(ymd(year, 9, 16), 'Independence Day'),
    closed(ymd(year, 11, 2), "All Souls' Day"),
    closed(nthWeekday(year, 11, 1, 3), 'Revolution Day'),
    closed(ymd(year, 12, 12), 'Day of the Virgin of Guadalupe'),
    closed(ymd(year, 12, 25), 'Christmas Day'),
    ...tableYear(MX_AD_HOC, year),
  ];
}

// source: B3 trading calendar notices (feriados) per year. Sao Paulo's local holidays (Jan 25,
// Jul 9, Nov 20) closed B3 until 2021, except in 2020, when the city and state moved Jul 9 and
// Nov 20 to May against COVID-19 and B3 traded on both dates; Nov 20 (Black Consciousness) is
// national from 2024. B3 is also closed on the last weekday of the year, and on Ash Wednesday the
// session opens at 13:00 (from 2016; the reference shows a full day in 2015). source: B3 notices; the reference sessions (exchange_calendars BVMF)
// show the same days.
function b3Holidays(year: number): HolidayEntry[] {
  const list = [
    closed(ymd(year, 1, 1), "New Year's Day"),
    closed(easterOffset(year, -48), 'Carnival Monday'),
    closed(easterOffset(year, -47), 'Carnival Tuesday'),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(ymd(year, 4, 21), 'Tiradentes'),
    closed(ymd(year, 5, 1), 'Labour Day'),
    closed(easterOffset(year, 60), 'Corpus Christi'),
    closed(ymd(year, 9, 7), 'Independence Day'),
    closed(ymd(year, 10, 12), 'Our Lady of Aparecida'),
    closed(ymd(year, 11, 2), "All Souls' Day"),
    closed(ymd(year, 11, 15), 'Republic Day'),
    closed(ymd(year, 12, 24), 'Christmas Eve'),
    closed(ymd(year, 12, 25), 'Christmas Day'),
    closed(lastWeekdayBefore(ymd(year + 1, 1, 1)), 'Last business day of the year'),
  ];
  if (year >= 2016) list.push(otherHours(easterOffset(year, -46), 'Ash Wednesday (opens 13:00)', { open: '13:00' }));
  if (year <= 2021) list.push(closed(ymd(year, 1, 25), 'Sao Paulo Anniversary'));
  if (year <= 2021 && year !== 2020) list.push(closed(ymd(year, 7, 9), 'Constitutionalist Revolution'));
  if ((year <= 2021 && year !== 2020) || year >= 2024) list.push(closed(ymd(year, 11, 20), 'Black Consciousness Day'));
  return list;
}

// B3's cash equities session: 10:00-17:00 until 2019-11-01 (fixed local hours while Brazil kept
// its own daylight time; the reference sessions agree). From 2019-11-04, after Brazil dropped
// daylight time, B3 aligns its close with New York every year: 17:00 Sao Paulo while New York is
// on daylight time and 18:00 otherwise. source: B3 notices as reported by Exame 2021-03 (10:00-
// 17:00 from 15 March 2021, 18:00 since 3 November 2020), Folhapress 2022-03-14 ("an adjustment
// made every year"), Metropoles 2024 (17:00 from 11 March 2024) and 2025 (17:00 from 10 March
// 2025). Not modelled: the 17:55 winter close reported from November 2023 (the reference keeps
// 18:00) and the five-minute closing call inside these hours.
const B3_BASE = defineMarket({
  market: 'BR', name: 'B3 (Sao Paulo)', mic: 'BVMF', country: 'BR', timezone: 'America/Sao_Paulo',
  hours: [
    { from: '2000-01-01', open: '10:00', close: '17:00' },
    { from: '2019-11-04', open: '10:00', close: '18:00' },
  ],
  holidays: b3Holidays,
});
const B3_NEW_YORK_CLOSE_FROM = '2019-11-04';
const BR = withAdjustedHours(B3_BASE, (date, base) =>
  (date >= B3_NEW_YORK_CLOSE_FROM && isDstOn(date, 'America/New_York') ? { ...base, closeMin: hm('17:00') } : base));

// Santiago: Chile's public holidays (moved by law, from the date-holidays rules) plus the bank
// holiday on Dec 31, on which the exchange is closed; half days ending 13:30 on Holy Thursday and
// on 17 September (eve of the national holidays) and 12:30 on 24 and 30 December; one-off
// closures for the 2017 census and the papal visit of 2018. The rules' 2021-09-17 and 2023-01-02
// holidays were trading days (17 September 2021 as a half day). source: Bolsa de Santiago
// trading calendars; the reference sessions (exchange_calendars XSGO, 2015-2025) show these days.
const SANTIAGO_AD_HOC = parseDatedTable(`
  @source Bolsa de Santiago trading calendars; the closures of the reference sessions (exchange_calendars XSGO)
  2017-04-19 National census
  2018-01-16 Papal visit (Santiago)
`, 'CL');
const SANTIAGO_TRADED = new Set(['2021-09-17', '2023-01-02']);
function santiagoHolidays(year: number): HolidayEntry[] {
  return [
    ...publicHolidays('CL', year, true).filter((h) => !SANTIAGO_TRADED.has(h.date)),
    earlyClose(easterOffset(year, -3), 'Holy Thursday (early close)', '13:30'),
    earlyClose(ymd(year, 9, 17), 'Eve of the national holidays (early close)', '13:30'),
    earlyClose(ymd(year, 12, 24), 'Christmas Eve (early close)', '12:30'),
    earlyClose(ymd(year, 12, 30), 'Last trading day of the year (early close)', '12:30'),
    ...tableYear(SANTIAGO_AD_HOC, year),
  ];
}

// The close follows the season: 16:00 from 1 March, 17:00 from 1 November (Chilean summer).
// source: Bolsa de Santiago trading hours; the reference sessions (XSGO) agree for 2015-2025.
const SANTIAGO_BASE = defineMarket({
  market: 'CL', name: 'Bolsa de Santiago', mic: 'XSGO', country: 'CL', timezone: 'America/Santiago',
  hours: [{ from: '2000-01-01', open: '09:30', close: '16:00' }],
  holidays: santiagoHolidays,
});
const CL = withAdjustedHours(SANTIAGO_BASE, (date, base) => {
  const monthDay = date.slice(5);
  return monthDay >= '03-01' && monthDay < '11-01' ? base : { ...base, closeMin: hm('17:00') };
});

export const AMERICAS: MarketDefinition[] = [
  US,
  defineMarket({
    market: 'CA', name: 'Toronto Stock Exchange', mic: 'XTSE', country: 'CA', timezone: 'America/Toronto',
    hours: [{ from: '2000-01-01', open: '09:30', close: '16:00' }],
    holidays: tsxHolidays,
  }),
  MX,
  BR,
  CL,
];

