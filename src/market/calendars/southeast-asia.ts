// Holidays of the Jakarta, Kuala Lumpur and Manila exchanges. Each follows its government's
// holiday decrees, which the date-holidays rules only approximate: Islamic dates set by sighting,
// Indonesia's collective leave (cuti bersama), Philippine special non-working days and moved
// holidays. Years the exchange published are tables; other years fall back to the rules.
import { ymd } from '../civil-date.ts';
import { closed, holidaysOfTypes, parseDatedTable, publicHolidays, tableYear } from '../holiday-rules.ts';
import type { HolidayEntry } from '../types.ts';

// IDX: complete closure lists (public holidays, cuti bersama, election days and the exchange's
// own 31 December). source: IDX "Hari Libur Bursa" announcements 2024 and 2025, following the
// joint ministerial decrees (SKB) on national holidays and collective leave.
const IDX_YEARS = parseDatedTable(`
  2024-01-01 New Year's Day
  2024-02-08 Isra Mi'raj
  2024-02-09 Chinese New Year (collective leave)
  2024-02-14 General election
  2024-03-11 Nyepi
  2024-03-12 Nyepi (collective leave)
  2024-03-29 Good Friday
  2024-04-08..2024-04-09 Eid al-Fitr (collective leave)
  2024-04-10..2024-04-11 Eid al-Fitr
  2024-04-12,2024-04-15 Eid al-Fitr (collective leave)
  2024-05-01 Labour Day
  2024-05-09 Ascension Day
  2024-05-10 Ascension Day (collective leave)
  2024-05-23 Vesak
  2024-05-24 Vesak (collective leave)
  2024-06-17 Eid al-Adha
  2024-06-18 Eid al-Adha (collective leave)
  2024-09-16 Mawlid
  2024-11-27 Regional elections
  2024-12-25 Christmas Day
  2024-12-26 Christmas (collective leave)
  2024-12-31 Year-end holiday
  2025-01-01 New Year's Day
  2025-01-27 Isra Mi'raj
  2025-01-28 Chinese New Year (collective leave)
  2025-01-29 Chinese New Year
  2025-03-28 Nyepi (collective leave)
  2025-03-31..2025-04-01 Eid al-Fitr
  2025-04-02..2025-04-07 Eid al-Fitr (collective leave)
  2025-04-18 Good Friday
  2025-05-01 Labour Day
  2025-05-12 Vesak
  2025-05-13 Vesak (collective leave)
  2025-05-29 Ascension Day
  2025-05-30 Ascension Day (collective leave)
  2025-06-06 Eid al-Adha
  2025-06-09 Eid al-Adha (collective leave)
  2025-06-27 Islamic New Year
  2025-08-18 Independence Day (collective leave)
  2025-09-05 Mawlid
  2025-12-25 Christmas Day
  2025-12-26 Christmas (collective leave)
  2025-12-31 Year-end holiday
`);

/** Other years: public holidays of the rules plus 31 December; cuti bersama is missing. */
export function idxHolidays(year: number): HolidayEntry[] {
  if (IDX_YEARS.has(year)) return tableYear(IDX_YEARS, year);
  return [...publicHolidays('ID', year), closed(ymd(year, 12, 31), 'Year-end holiday')];
}

// Bursa Malaysia closes on the holidays of Kuala Lumpur (federal holidays plus Thaipusam and
// Federal Territory Day, Sunday holidays moved to Monday). The Islamic holidays are set by moon
// sighting, often a day after the rules' calculated date: the published dates replace them.
// source: Bursa Malaysia trading holiday lists 2024 and 2025.
const BURSA_ISLAMIC = parseDatedTable(`
  2024-03-28 Nuzul Al-Quran
  2024-04-10..2024-04-11 Hari Raya Aidilfitri
  2024-06-17 Hari Raya Haji
  2024-07-08 Awal Muharram (observed)
  2024-09-16 Maulidur Rasul
  2025-03-18 Nuzul Al-Quran
  2025-03-31..2025-04-01 Hari Raya Aidilfitri
  2025-06-27 Awal Muharram
  2025-09-05 Maulidur Rasul
`);
const ISLAMIC = /Nuzul|Eid|Islamic New Year|Mawlid/;

export function bursaHolidays(year: number): HolidayEntry[] {
  const list = publicHolidays('MY/14', year);
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
