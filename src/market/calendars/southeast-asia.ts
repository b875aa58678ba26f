// Holidays of the Jakarta, Kuala Lumpur and Manila exchanges. Each follows its government's
// holiday decrees, which the date-holidays rules only approximate: Islamic dates set by sighting,
// Indonesia's collective leave (cuti bersama), Philippine special non-working days and moved
// holidays. Years the exchange published are tables; other years fall back to the rules.
import { addDays, ymd } from '../civil-date.ts';
import { closed, earlyClose, holidaysOfTypes, ifWeekday, parseDatedTable, publicHolidays, tableYear } from '../holiday-rules.ts';
import type { HolidayEntry } from '../types.ts';
import { BURSA_ISLAMIC, BURSA_RULE_DATES_MOVED, BURSA_RULE_YEAR_EXTRA, BURSA_YEARS } from './bursa-tables.ts';
import { IDX_RULE_DATES_MOVED, IDX_RULE_YEAR_CLOSURES, IDX_YEARS } from './idx-tables.ts';

/**
 * IDX: the published lists (idx-tables.ts). Other years: public holidays of the rules plus
 * 31 December and the dated closures found; the rest of their collective leave is missing.
 */
export function idxHolidays(year: number): HolidayEntry[] {
  if (IDX_YEARS.has(year)) return tableYear(IDX_YEARS, year);
  const rules = publicHolidays('ID', year).filter((h) => !IDX_RULE_DATES_MOVED.has(h.date));
  return [...rules, closed(ymd(year, 12, 31), 'Year-end holiday'), ...tableYear(IDX_RULE_YEAR_CLOSURES, year)];
}

// Bursa Malaysia closes on the holidays of Kuala Lumpur (federal holidays plus Thaipusam and
// Federal Territory Day, Sunday holidays moved to Monday). The dated lists and half days and their
// sources are in bursa-tables.ts.
const ISLAMIC = /Nuzul|Eid|Islamic New Year|Mawlid/;

export function bursaHolidays(year: number): HolidayEntry[] {
  if (BURSA_YEARS.has(year)) return tableYear(BURSA_YEARS, year);
  const rules = publicHolidays('MY/14', year).filter((h) => !BURSA_RULE_DATES_MOVED.has(h.date));
  const list = [...rules, ...tableYear(BURSA_RULE_YEAR_EXTRA, year)];
  const withIslamic = BURSA_ISLAMIC.has(year) ? [...list.filter((h) => !ISLAMIC.test(h.name)), ...tableYear(BURSA_ISLAMIC, year)] : list;
  return [...withIslamic, ...bursaEveHalfDays(year, withIslamic)];
}

/**
 * The morning-only eves of Chinese New Year and Hari Raya Aidilfitri (close 12:30), on the day
 * before the first day of the feast when that is a weekday; none in 2026 for Hari Raya (the
 * Bursa notice keeps normal hours on its eve). source: Bursa Malaysia trading-hours notices for
 * the eves; the reference sessions (exchange_calendars XKLS) show the same half days 2018-2026.
 */
function bursaEveHalfDays(year: number, holidays: readonly HolidayEntry[]): HolidayEntry[] {
  const firstOf = (name: RegExp) => holidays.filter((h) => name.test(h.name)).map((h) => h.date).sort()[0];
  const feasts = [firstOf(/^Chinese New Year/), year === 2023 || year === 2026 ? undefined : firstOf(/Eid al-Fitr|Aidilfitri/)];
  return feasts.flatMap((first) => (first === undefined ? [] : ifWeekday(addDays(first, -1))))
    .map((eve) => earlyClose(eve, 'Half day (eve of the feast)', '12:30'));
}

// PSE closes on regular holidays and on the special non-working days (Chinese New Year, Ninoy
// Aquino Day, All Saints' Day, Immaculate Conception from 2018 under RA 10966, Christmas Eve and
// New Year's Eve, which date-holidays types `optional`), on national election days and on its
// own 31 December. Not taken from the rules: All Souls' Day and EDSA anniversary (special days
// only in some years). source: PSE trading-holiday notices and the holiday proclamations; the
// proclaimed special days of 2015-2025 are those of the reference sessions (exchange_calendars
// XPHS), which close PSE on them.
const PSE_SPECIAL = /^(Chinese New Year|Ninoy Aquino Day|All Saints' Day|Christmas Eve|New Year's Eve)$/;
const PSE_EXTRA = parseDatedTable(`
  @source Philippine holiday proclamations as PSE closed on them (the closures of the reference sessions, exchange_calendars XPHS)
  2015-01-15..2015-01-16 Papal visit (special non-working days)
  2015-09-25 Eid al-Adha (proclamation)
  2015-11-18..2015-11-19 APEC Leaders' Meeting (special non-working days)
  2016-02-25 EDSA Revolution Anniversary
  2016-09-12 Eid al-Adha (proclamation)
  2016-10-31 Special non-working day (proclamation)
  2016-12-26 Additional special non-working day (proclamation)
  2017-01-02 Additional special non-working day (proclamation)
  2017-04-28 ASEAN Summit (special non-working day)
  2017-06-26 Eid al-Fitr (proclamation)
  2017-09-12 Special non-working day (proclamation)
  2017-10-16 Suspension of government work (proclamation)
  2017-10-31 Special non-working day (proclamation)
  2017-12-08 Feast of the Immaculate Conception (RA 10966)
  2017-12-26 Additional special non-working day (proclamation)
  2018-01-02 Additional special non-working day (proclamation)
  2018-05-14 Barangay and SK elections
  2018-11-02 All Souls' Day (special non-working day)
  2019-02-25 EDSA Revolution Anniversary
  2019-06-05 Eid al-Fitr (proclamation)
  2019-08-12 Eid al-Adha (proclamation)
  2020-02-25 EDSA Revolution Anniversary
  2020-05-25 Eid al-Fitr (proclamation)
  2020-11-02 All Souls' Day (special non-working day)
  2021-02-25 EDSA Revolution Anniversary
  2022-05-03 Eid al-Fitr (proclamation)
  2022-10-31 Special non-working day (proclamation)
  2023-01-02 Additional special non-working day (proclamation)
  2023-02-24 EDSA Revolution Anniversary (moved by proclamation)
  2023-04-10 Araw ng Kagitingan (moved by proclamation)
  2023-10-30 Barangay and SK elections
  2023-11-02 All Souls' Day (special non-working day)
  2023-11-27 Bonifacio Day (moved by proclamation)
  2023-12-26 Additional special non-working day (proclamation)
  2024-02-09 Additional special non-working day (proclamation)
  2025-10-31 Special non-working day (proclamation)
  2016-05-09 National elections
  2019-05-13 National elections
  2022-05-09 National elections
  2024-06-17 Eid al-Adha (proclamation)
  2024-08-23 Ninoy Aquino Day (moved by proclamation)
  2025-04-01 Eid al-Fitr (proclamation)
  2025-05-12 National elections
  # Ad hoc closures and other hours, each with the notice (or the report quoting it) it follows.
  2020-03-17..2020-03-18 Trading suspended (enhanced community quarantine of Luzon) | PSE memorandum of 16 March 2020 (Philstar 2020-03-17: no trading from 17 March "until further notice"; Manila Bulletin 2020-03-18: resuming Thursday 19 March)
  2020-03-19..2020-04-14 09:00-12:45 Shortened hours (COVID-19): open 09:00, pre-close 12:45 | PSE schedule for 17 March to 14 April 2020 (Rappler 2020-03-15: market open 09:00, pre-close 12:45, close 13:00); DWIZ 2020-03-18 (trading resumes 19 March, 09:00 to 13:00)
  2021-12-24,2021-12-31 11:55 Half day (pre-close 11:55, run-off to 12:10) | PSE memorandum (ABS-CBN 2021-12-15: half-day trading on 24 and 31 December 2021, which the President made special working days)
  2022-01-14..2022-02-28 12:45 Shortened hours (COVID-19): pre-close at 12:45 | PSE circular of January 2022 (notice of 2022-01-11 on mytrade.com.ph: 14 to 31 January, pre-close 12:45, close 13:00); Manila Bulletin 2022-01-26 (the return to full days on 2 February was announced, then withdrawn: status quo until further notice); ABS-CBN 2022-02-23 (full days again from 1 March 2022)
`, 'PH');
/**
 * Holidays a proclamation moved away from the rules' date (Bonifacio Day 2023, Ninoy Aquino Day
 * 2024), Eid dates the rules place a day or two early, and 24 and 31 December 2021 (made special
 * working days; PSE traded half days, in PSE_EXTRA); PSE traded on these dates.
 */
const PSE_MOVED_AWAY = new Set(['2015-09-23', '2019-06-04', '2021-12-24', '2021-12-31', '2022-05-02', '2023-11-30', '2024-08-21']);

export function pseHolidays(year: number): HolidayEntry[] {
  const special = holidaysOfTypes('PH', year, ['optional']).filter((h) =>
    PSE_SPECIAL.test(h.name) || (h.name.startsWith('Feast of the Immaculate Conception') && year >= 2018));
  const rules = [...publicHolidays('PH', year), ...special, closed(ymd(year, 12, 31), 'Year-end holiday')]
    .filter((h) => !PSE_MOVED_AWAY.has(h.date));
  return [...rules, ...tableYear(PSE_EXTRA, year)];
}
