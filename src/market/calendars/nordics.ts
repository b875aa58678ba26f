// Nasdaq Nordic (Stockholm, Copenhagen, Helsinki) and Oslo Bors: Easter- and Midsummer-based
// closures, the Christmas and New Year's Eve closures, and Stockholm's 13:00 half days.
import { easterOffset, weekdayOnOrAfter, ymd } from '../civil-date.ts';
import { closed, earlyClose, ifWeekday } from '../holiday-rules.ts';
import type { HolidayEntry, MarketDefinition } from '../types.ts';
import { defineMarket } from './define-market.ts';

function yearEnd(year: number): HolidayEntry[] {
  return [
    closed(ymd(year, 12, 24), 'Christmas Eve'),
    closed(ymd(year, 12, 25), 'Christmas Day'),
    closed(ymd(year, 12, 26), 'Boxing Day'),
    closed(ymd(year, 12, 31), "New Year's Eve"),
  ];
}

// Midsummer Eve is the Friday between 19 and 25 June.
function midsummerEve(year: number): string {
  return weekdayOnOrAfter(ymd(year, 6, 19), 5);
}

// source: Nasdaq Stockholm trading calendar and half-day notices per year.
function stockholmHolidays(year: number): HolidayEntry[] {
  const allSaintsEve = weekdayOnOrAfter(ymd(year, 10, 30), 5);
  return [
    closed(ymd(year, 1, 1), "New Year's Day"),
    closed(ymd(year, 1, 6), 'Epiphany'),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(ymd(year, 5, 1), 'Labour Day'),
    closed(easterOffset(year, 39), 'Ascension Day'),
    closed(ymd(year, 6, 6), 'National Day'),
    closed(midsummerEve(year), 'Midsummer Eve'),
    ...yearEnd(year),
    ...ifWeekday(ymd(year, 1, 5)).map((d) => earlyClose(d, 'Day before Epiphany (half day)', '13:00')),
    earlyClose(easterOffset(year, -3), 'Maundy Thursday (half day)', '13:00'),
    ...ifWeekday(ymd(year, 4, 30)).map((d) => earlyClose(d, 'Walpurgis Night (half day)', '13:00')),
    earlyClose(easterOffset(year, 38), 'Day before Ascension (half day)', '13:00'),
    earlyClose(allSaintsEve, "All Saints' Eve (half day)", '13:00'),
  ];
}

// source: Oslo Bors (Euronext Oslo) holiday calendar per year. The Wednesday before Easter is a
// half day ending 13:00 (Oslo Bors trading calendar; the reference sessions, exchange_calendars
// XOSL 2015-2019, show it every year).
function osloHolidays(year: number): HolidayEntry[] {
  return [
    closed(ymd(year, 1, 1), "New Year's Day"),
    earlyClose(easterOffset(year, -4), 'Wednesday before Easter (early close)', '13:00'),
    closed(easterOffset(year, -3), 'Maundy Thursday'),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(ymd(year, 5, 1), 'Labour Day'),
    closed(ymd(year, 5, 17), 'Constitution Day'),
    closed(easterOffset(year, 39), 'Ascension Day'),
    closed(easterOffset(year, 50), 'Whit Monday'),
    ...yearEnd(year),
  ];
}

// source: Nasdaq Copenhagen trading calendar per year. Great Prayer Day was abolished from 2024.
function copenhagenHolidays(year: number): HolidayEntry[] {
  const list = [
    closed(ymd(year, 1, 1), "New Year's Day"),
    closed(easterOffset(year, -3), 'Maundy Thursday'),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(easterOffset(year, 39), 'Ascension Day'),
    closed(easterOffset(year, 40), 'Bank holiday after Ascension'),
    closed(easterOffset(year, 50), 'Whit Monday'),
    closed(ymd(year, 6, 5), 'Constitution Day'),
    ...yearEnd(year),
  ];
  if (year <= 2023) list.push(closed(easterOffset(year, 26), 'Great Prayer Day'));
  return list;
}

// source: Nasdaq Helsinki trading calendar per year.
function helsinkiHolidays(year: number): HolidayEntry[] {
  return [
    closed(ymd(year, 1, 1), "New Year's Day"),
    closed(ymd(year, 1, 6), 'Epiphany'),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(ymd(year, 5, 1), 'Labour Day'),
    closed(easterOffset(year, 39), 'Ascension Day'),
    closed(midsummerEve(year), 'Midsummer Eve'),
    closed(ymd(year, 12, 6), 'Independence Day'),
    ...yearEnd(year),
  ];
}

export const NORDICS: MarketDefinition[] = [
  defineMarket({
    market: 'SE', name: 'Nasdaq Stockholm', mic: 'XSTO', country: 'SE', timezone: 'Europe/Stockholm',
    hours: [{ from: '2000-01-01', open: '09:00', close: '17:30' }], holidays: stockholmHolidays,
  }),
  defineMarket({
    market: 'NO', name: 'Oslo Bors', mic: 'XOSL', country: 'NO', timezone: 'Europe/Oslo',
    hours: [{ from: '2000-01-01', open: '09:00', close: '16:20' }], holidays: osloHolidays,
  }),
  defineMarket({
    market: 'DK', name: 'Nasdaq Copenhagen', mic: 'XCSE', country: 'DK', timezone: 'Europe/Copenhagen',
    hours: [{ from: '2000-01-01', open: '09:00', close: '17:00' }], holidays: copenhagenHolidays,
  }),
  defineMarket({
    market: 'FI', name: 'Nasdaq Helsinki', mic: 'XHEL', country: 'FI', timezone: 'Europe/Helsinki',
    hours: [{ from: '2000-01-01', open: '10:00', close: '18:30' }], holidays: helsinkiHolidays,
  }),
];
