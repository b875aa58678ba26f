// Asia-Pacific stock markets. Tokyo, Hong Kong, Seoul, Singapore and Bangkok take public holidays
// from the date-holidays rules plus exchange specifics; Shanghai, Mumbai, Taipei (twse.ts) and
// Jakarta, Kuala Lumpur and Manila (southeast-asia.ts) use announced tables over rules; Sydney
// and Auckland are rules.
import { addDays, easterOffset, isoWeekday, nthWeekday, ymd } from '../civil-date.ts';
import {
  christmasPair, closed, earlyClose, eveOrFridayBefore, ifWeekday, lastWeekdayBefore, mondayisedPair, observedNextMonday, otherHours, parseDatedTable,
  publicHolidays, tableYear,
} from '../holiday-rules.ts';
import type { HolidayEntry, MarketDefinition } from '../types.ts';
import { CN_CLOSURES, HK_AD_HOC, IN_CLOSURES, IN_SATURDAY_SESSIONS, KR_AD_HOC, SG_AD_HOC, SG_RULE_DATES_MOVED } from './asia-tables.ts';
import { defineMarket } from './define-market.ts';
import { SET_YEARS } from './set-tables.ts';
import { bursaHolidays, idxHolidays, pseHolidays } from './southeast-asia.ts';
import { TWSE_SATURDAY_SESSIONS, twseHolidays } from './twse.ts';

// JPX: Japanese public holidays plus the exchange's year-end break (31 Dec to 3 Jan), which the
// date-holidays JP rules carry as bank holidays. source: JPX market holiday page. Ad hoc
// closures and other hours: JP_AD_HOC, one dated line each.
const JP_AD_HOC = parseDatedTable(`
  2020-10-01 Trading halt (arrowhead system failure) | JPX notice of 2020-10-01 (full-day halt after the arrowhead system failure)
`, 'JP');
function jpxHolidays(year: number): HolidayEntry[] {
  return [...publicHolidays('JP', year, true), ...tableYear(JP_AD_HOC, year)];
}

// HKEX: Hong Kong general holidays, half days (close 12:00, no afternoon) on the eves of Lunar
// New Year, Christmas and New Year when they are weekdays, plus severe-weather closures.
function hkexHolidays(year: number): HolidayEntry[] {
  const list = publicHolidays('HK', year);
  const lunarNewYear = list.find((h) => /^Lunar New Year.s Day/.test(h.name));
  const eves = [ymd(year, 12, 24), ymd(year, 12, 31)];
  if (lunarNewYear) eves.push(addDays(lunarNewYear.date, -1));
  for (const eve of eves) for (const d of ifWeekday(eve)) list.push(earlyClose(d, 'Half day (eve of holiday)', '12:00'));
  return [...list, ...tableYear(HK_AD_HOC, year)];
}

// KRX: Korean public holidays, Labour Day, the year-end closing day (31 December, or the last
// weekday before it when it falls on a weekend) and election or temporary holidays. source: KRX
// market holiday notices (e.g. 2025: Jan 28-30 Seollal). Constitution Day (17 July) is not a
// holiday since 2008; the date-holidays rules list it again for 2026, which the reference sessions
// (exchange_calendars XKRX) do not, and no KRX notice was found: it trades.
// Two days a year open an hour late: the first trading day of the year at 10:00 (regular close),
// and the national college entrance exam (CSAT) day, 10:00 to an hour after the regular close.
// source: KRX notices on the opening day and on the CSAT day hours; the reference sessions
// (exchange_calendars XKRX) show both, CSAT 2017 also on the 16th, the original exam date (the
// exam moved to the 23rd after the Pohang earthquake, announced the evening before). The 2026 exam
// (19 November) is left out until KRX announces its hours for it.
const KRX_CSAT_DAYS = parseDatedTable(`
  @source KRX notices on the college entrance exam day hours; the reference sessions (exchange_calendars XKRX)
  2015-11-12 10:00-16:00 College entrance exam day (10:00 open, close an hour late)
  2016-11-17,2017-11-16,2017-11-23,2018-11-15,2019-11-14,2020-12-03,2021-11-18 10:00-16:30 College entrance exam day (10:00 open, close an hour late)
  2022-11-17,2023-11-16,2024-11-14,2025-11-13 10:00-16:30 College entrance exam day (10:00 open, close an hour late)
`, 'KR');
function krxHolidays(year: number): HolidayEntry[] {
  const closures = [
    ...publicHolidays('KR', year).filter((h) => h.name !== 'Constitution Day').map(seollalFromEve),
    closed(ymd(year, 5, 1), 'Labour Day'),
    closed(isoWeekday(ymd(year, 12, 31)) <= 5 ? ymd(year, 12, 31) : lastWeekdayBefore(ymd(year, 12, 31)), 'Year-end closing day'),
    ...tableYear(KR_AD_HOC, year),
  ];
  const closedDates = new Set(closures.map((h) => h.date));
  let firstDay = ymd(year, 1, 2);
  while (isoWeekday(firstDay) > 5 || closedDates.has(firstDay)) firstDay = addDays(firstDay, 1);
  return [
    ...closures,
    otherHours(firstDay, 'First trading day of the year (opens 10:00)', { open: '10:00' }),
    ...tableYear(KRX_CSAT_DAYS, year),
  ];
}

// Seollal closes the day before, the day of and the day after the lunar new year, but the
// date-holidays span starts on the new year itself (its Chuseok span is right): move the three
// days one day earlier. Substitute days are separate entries and stay as they are.
function seollalFromEve(entry: HolidayEntry): HolidayEntry {
  return entry.name === 'Korean New Year' ? { ...entry, date: addDays(entry.date, -1) } : entry;
}

// SGX: Singapore public holidays (Sunday moves to Monday), polling days, and half days (close
// 12:00) on the eves of Chinese New Year, Christmas and New Year. source: SGX trading calendar.
function sgxHolidays(year: number): HolidayEntry[] {
  const list = publicHolidays('SG', year).filter((h) => !SG_RULE_DATES_MOVED.has(h.date));
  const chineseNewYear = list.find((h) => h.name === 'Chinese New Year');
  const eves = [ymd(year, 12, 24), ymd(year, 12, 31)];
  if (chineseNewYear) eves.push(addDays(chineseNewYear.date, -1));
  for (const eve of eves) for (const d of ifWeekday(eve)) list.push(earlyClose(d, 'Half day (eve of holiday)', '12:00'));
  return [...list, ...tableYear(SG_AD_HOC, year)];
}

// BSE: the fixed-date national holidays and Good Friday as rules; the movable festivals from the
// table. Muhurat trading (a one-hour evening session on Diwali, often on a holiday or a weekend)
// is not modelled: a session here is the regular day session.
function bseHolidays(year: number): HolidayEntry[] {
  return [
    closed(ymd(year, 1, 26), 'Republic Day'),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(ymd(year, 4, 14), 'Dr. Baba Saheb Ambedkar Jayanti'),
    closed(ymd(year, 5, 1), 'Maharashtra Day'),
    closed(ymd(year, 8, 15), 'Independence Day'),
    closed(ymd(year, 10, 2), 'Mahatma Gandhi Jayanti'),
    closed(ymd(year, 12, 25), 'Christmas'),
    ...tableYear(IN_CLOSURES, year),
  ];
}

// ASX: national holidays of New South Wales that close the exchange; Anzac Day is not moved when
// it falls on a weekend. 14:10 close on Christmas Eve and New Year's Eve, on the Friday before when
// the eve is a weekend day (2016, 2017, 2023), but normal hours on Fridays 23 and 30 December 2022.
// source: ASX trading calendar; ASX notice 1252.22.11 (2022: normal day session hours on both
// Fridays); the reference sessions (exchange_calendars XASX) show the same days.
const AU_AD_HOC = parseDatedTable(`
  @source ASX trading calendar; ASX notice 1252.22.11 (2022)
  2022-09-22 National Day of Mourning for Queen Elizabeth II
`, 'AU');
function asxHolidays(year: number): HolidayEntry[] {
  const [christmas, boxing] = christmasPair(year);
  return [
    closed(observedNextMonday(ymd(year, 1, 1)), "New Year's Day"),
    closed(observedNextMonday(ymd(year, 1, 26)), 'Australia Day'),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(ymd(year, 4, 25), 'Anzac Day'),
    closed(nthWeekday(year, 6, 1, 2), "King's Birthday"),
    closed(christmas, 'Christmas Day'),
    closed(boxing, 'Boxing Day'),
    ...(year === 2022 ? [] : [
      earlyClose(eveOrFridayBefore(ymd(year, 12, 24)), 'Christmas Eve (early close)', '14:10'),
      earlyClose(eveOrFridayBefore(ymd(year, 12, 31)), "New Year's Eve (early close)", '14:10'),
    ]),
    ...tableYear(AU_AD_HOC, year),
  ];
}

// NZX: New Zealand national holidays with Mondayisation (Waitangi and Anzac Day since 2014),
// Matariki (dated by law from 2022) and 12:45 closes on Christmas Eve and New Year's Eve (on the
// Friday before when the eve is a weekend day, as the reference sessions of XNZE show).
// source: NZX market holidays notices; Te Kahui o Matariki Public Holiday Act 2022.
const NZ_DATED = parseDatedTable(`
  @source NZX market holiday notices; Te Kahui o Matariki Public Holiday Act 2022
  2022-06-24 Matariki
  2022-09-26 Queen Elizabeth II Memorial Day
  2023-07-14 Matariki
  2024-06-28 Matariki
  2025-06-20 Matariki
  2026-07-10 Matariki
  2027-06-25 Matariki
`, 'NZ');
function nzxHolidays(year: number): HolidayEntry[] {
  const [newYear, dayAfter] = mondayisedPair(ymd(year, 1, 1));
  const [christmas, boxing] = christmasPair(year);
  return [
    closed(newYear, "New Year's Day"),
    closed(dayAfter, "Day after New Year's Day"),
    closed(observedNextMonday(ymd(year, 2, 6)), 'Waitangi Day'),
    closed(easterOffset(year, -2), 'Good Friday'),
    closed(easterOffset(year, 1), 'Easter Monday'),
    closed(observedNextMonday(ymd(year, 4, 25)), 'Anzac Day'),
    closed(nthWeekday(year, 6, 1, 1), "King's Birthday"),
    closed(nthWeekday(year, 10, 1, 4), 'Labour Day'),
    closed(christmas, 'Christmas Day'),
    closed(boxing, 'Boxing Day'),
    earlyClose(eveOrFridayBefore(ymd(year, 12, 24)), 'Christmas Eve (early close)', '12:45'),
    earlyClose(eveOrFridayBefore(ymd(year, 12, 31)), "New Year's Eve (early close)", '12:45'),
    ...tableYear(NZ_DATED, year),
  ];
}

// SET: the dated lists of set-tables.ts; later years the public-holiday rules plus Labour Day and
// New Year's Eve, on which SET closes every year.
function setHolidays(year: number): HolidayEntry[] {
  if (SET_YEARS.has(year)) return tableYear(SET_YEARS, year);
  return [...publicHolidays('TH', year), closed(ymd(year, 5, 1), 'Labour Day'), closed(ymd(year, 12, 31), "New Year's Eve")];
}

export const ASIA_PACIFIC: MarketDefinition[] = [
  defineMarket({
    market: 'JP', name: 'Tokyo Stock Exchange', mic: 'XTKS', country: 'JP', timezone: 'Asia/Tokyo',
    // The afternoon session was extended to 15:30 on 2024-11-05 (arrowhead renewal). source: JPX.
    hours: [
      { from: '2000-01-01', open: '09:00', close: '15:00', lunch: ['11:30', '12:30'] },
      { from: '2024-11-05', open: '09:00', close: '15:30', lunch: ['11:30', '12:30'] },
    ],
    holidays: jpxHolidays,
  }),
  defineMarket({
    market: 'HK', name: 'Hong Kong Stock Exchange', mic: 'XHKG', country: 'HK', timezone: 'Asia/Hong_Kong',
    hours: [{ from: '2012-03-05', open: '09:30', close: '16:00', lunch: ['12:00', '13:00'] }],
    holidays: hkexHolidays,
  }),
  defineMarket({
    market: 'CN', name: 'Shanghai Stock Exchange', mic: 'XSHG', country: 'CN', timezone: 'Asia/Shanghai',
    hours: [{ from: '2000-01-01', open: '09:30', close: '15:00', lunch: ['11:30', '13:00'] }],
    holidays: (year) => tableYear(CN_CLOSURES, year),
  }),
  defineMarket({
    market: 'KR', name: 'Korea Exchange', mic: 'XKRX', country: 'KR', timezone: 'Asia/Seoul',
    // The close moved from 15:00 to 15:30 on 2016-08-01. source: KRX notice 2016.
    hours: [
      { from: '2000-01-01', open: '09:00', close: '15:00' },
      { from: '2016-08-01', open: '09:00', close: '15:30' },
    ],
    holidays: krxHolidays,
  }),
  defineMarket({
    market: 'TW', name: 'Taiwan Stock Exchange', mic: 'XTAI', country: 'TW', timezone: 'Asia/Taipei',
    hours: [{ from: '2000-01-01', open: '09:00', close: '13:30' }],
    holidays: twseHolidays,
    weekendSessions: TWSE_SATURDAY_SESSIONS,
  }),
  defineMarket({
    market: 'SG', name: 'Singapore Exchange', mic: 'XSES', country: 'SG', timezone: 'Asia/Singapore',
    // SGX removed its midday break on 2011-08-01.
    hours: [{ from: '2011-08-01', open: '09:00', close: '17:00' }],
    holidays: sgxHolidays,
  }),
  defineMarket({
    market: 'IN', name: 'BSE (Bombay Stock Exchange)', mic: 'XBOM', country: 'IN', timezone: 'Asia/Kolkata',
    hours: [{ from: '2010-01-04', open: '09:15', close: '15:30' }],
    holidays: bseHolidays,
    weekendSessions: IN_SATURDAY_SESSIONS,
  }),
  defineMarket({
    market: 'AU', name: 'Australian Securities Exchange', mic: 'XASX', country: 'AU', timezone: 'Australia/Sydney',
    hours: [{ from: '2000-01-01', open: '10:00', close: '16:00' }],
    holidays: asxHolidays,
  }),
  defineMarket({
    market: 'NZ', name: 'NZX', mic: 'XNZE', country: 'NZ', timezone: 'Pacific/Auckland',
    hours: [{ from: '2000-01-01', open: '10:00', close: '16:45' }],
    holidays: nzxHolidays,
  }),
  defineMarket({
    market: 'TH', name: 'Stock Exchange of Thailand', mic: 'XBKK', country: 'TH', timezone: 'Asia/Bangkok',
    hours: [{ from: '2000-01-01', open: '10:00', close: '16:30', lunch: ['12:30', '14:30'] }],
    holidays: setHolidays,
  }),
  defineMarket({
    market: 'MY', name: 'Bursa Malaysia', mic: 'XKLS', country: 'MY', timezone: 'Asia/Kuala_Lumpur',
    hours: [{ from: '2000-01-01', open: '09:00', close: '17:00', lunch: ['12:30', '14:30'] }],
    holidays: bursaHolidays,
  }),
  defineMarket({
    market: 'ID', name: 'Indonesia Stock Exchange', mic: 'XIDX', country: 'ID', timezone: 'Asia/Jakarta',
    // Friday prayers: a longer Friday break. The session's close is the end of continuous trading,
    // 15:50, when the pre-closing auction (15:50-16:00) starts. source: IDX trading hours; the
    // reference sessions (exchange_calendars XIDX) close at 15:50 in every year. The shortened
    // hours of the 2020 pandemic months and of Ramadan are not modelled.
    hours: [
      { from: '2000-01-01', open: '09:00', close: '15:50', lunch: ['12:00', '13:30'] },
      { from: '2000-01-01', open: '09:00', close: '15:50', lunch: ['11:30', '14:00'], weekdays: [5] },
    ],
    holidays: idxHolidays,
  }),
  defineMarket({
    market: 'PH', name: 'Philippine Stock Exchange', mic: 'XPHS', country: 'PH', timezone: 'Asia/Manila',
    // What `close` means here: the end of continuous trading, when PSE's pre-close auction starts;
    // the run-off (trading at last, at the closing price) that follows until the "market close" of
    // PSE's memoranda is not part of the session, as for every market (docs/markets.md).
    // 2012 schedule: 09:30-12:00 and 13:30-15:30 (Inquirer 2011-09-27, the regular close still
    // 15:30 in March 2020: Rappler 2020-03-15).
    // From 2020-03-16 (pandemic): one morning session to the pre-close at 12:45 (run-off to 13:00).
    // source: PSE memorandum (Rappler 2020-03-15: from 16 March pre-close 12:45, market close 13:00);
    // Philstar 2021-11-23 (trading "shortened to end by 1 p.m. since March 16 last year" until the
    // return to full days on 6 December 2021). The days with other hours are in PSE_EXTRA.
    // From 2021-12-06: 09:30-12:00 and 13:00 to the pre-close at 14:45 (pre-close no cancel 14:48,
    // run-off 14:50, market close 15:00). source: PSE memorandum of 2021-11-22 (ABS-CBN 2021-11-23)
    // and of 2022-02 (ABS-CBN 2022-02-23).
    hours: [
      { from: '2000-01-01', open: '09:30', close: '15:30', lunch: ['12:00', '13:30'] },
      { from: '2020-03-16', open: '09:30', close: '12:45' },
      { from: '2021-12-06', open: '09:30', close: '14:45', lunch: ['12:00', '13:00'] },
    ],
    holidays: pseHolidays,
  }),
];

