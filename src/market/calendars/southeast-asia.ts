// Holidays of the Jakarta, Kuala Lumpur and Manila exchanges. Each follows its government's
// holiday decrees, which the date-holidays rules only approximate: Islamic dates set by sighting,
// Indonesia's collective leave (cuti bersama), Philippine special non-working days and moved
// holidays. Years the exchange published are tables; other years fall back to the rules.
import { ymd } from '../civil-date.ts';
import { closed, holidaysOfTypes, parseDatedTable, publicHolidays, tableYear } from '../holiday-rules.ts';
import type { HolidayEntry } from '../types.ts';
import { BURSA_ISLAMIC, BURSA_RULE_YEAR_EXTRA, BURSA_YEARS } from './bursa-tables.ts';
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
  const list = [...publicHolidays('MY/14', year), ...tableYear(BURSA_RULE_YEAR_EXTRA, year)];
  if (!BURSA_ISLAMIC.has(year)) return list;
  return [...list.filter((h) => !ISLAMIC.test(h.name)), ...tableYear(BURSA_ISLAMIC, year)];
}

// PSE closes on regular holidays and on the special non-working days (Chinese New Year, Ninoy
// Aquino Day, All Saints' Day, Immaculate Conception from 2018 under RA 10966, Christmas Eve and
// New Year's Eve, which date-holidays types `optional`), on national election days and on its
// own 31 December. Not taken from the rules: All Souls' Day and EDSA anniversary (special days
// only in some years). source: PSE trading-holiday notices and the holiday proclamations.
const PSE_SPECIAL = /^(Chinese New Year|Ninoy Aquino Day|All Saints' Day|Christmas Eve|New Year's Eve)$/;
const PSE_EXTRA = parseDatedTable(`
  2016-05-09 National elections
  2019-05-13 National elections
  2022-05-09 National elections
  2024-06-17 Eid al-Adha (proclamation)
  2024-08-23 Ninoy Aquino Day (moved by proclamation)
  2025-04-01 Eid al-Fitr (proclamation)
  2025-05-12 National elections
`);
/** Holidays a proclamation moved away from their usual date. */
const PSE_MOVED_AWAY = new Set(['2024-08-21']);

export function pseHolidays(year: number): HolidayEntry[] {
  const special = holidaysOfTypes('PH', year, ['optional']).filter((h) =>
    PSE_SPECIAL.test(h.name) || (h.name.startsWith('Feast of the Immaculate Conception') && year >= 2018));
  return [...publicHolidays('PH', year), ...special, closed(ymd(year, 12, 31), 'Year-end holiday'), ...tableYear(PSE_EXTRA, year)]
    .filter((h) => !PSE_MOVED_AWAY.has(h.date));
}
