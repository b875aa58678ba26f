// Holidays of the Jakarta, Kuala Lumpur and Manila exchanges. Each follows its government's
// holiday decrees, which the date-holidays rules only approximate: Islamic dates set by sighting,
// Indonesia's collective leave (cuti bersama), Philippine special non-working days and moved
// holidays. Years the exchange published are tables; other years fall back to the rules.
import { ymd } from '../civil-date.ts';
import { closed, holidaysOfTypes, parseDatedTable, publicHolidays, tableYear } from '../holiday-rules.ts';
import type { HolidayEntry } from '../types.ts';

// IDX: complete closure lists (public holidays, cuti bersama, election days and the exchange's
// own 31 December). source: IDX "Hari Libur Bursa" announcements 2024 and 2025, following the
// joint ministerial decrees (SKB) on national holidays and collective leave. 2026: announcement
// Peng-00171/BEI.POP/09-2025 (SKB 1497/2/5 of 2025) as listed by mureks.co.id ("BEI Umumkan
// Kalender Libur Bursa 2026"), liramedia.co.id and jakarta365.net, which agree; those copies
// break off in December after the 24th, and the 25th and 31st complete the 22 closures (239
// trading days) the announcement counts. 2015-2023 and 2027 were not found and stay on the rules.
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
  2026-01-01 New Year's Day
  2026-01-16 Isra Mi'raj
  2026-02-16 Chinese New Year (collective leave)
  2026-02-17 Chinese New Year
  2026-03-18 Nyepi (collective leave)
  2026-03-19 Nyepi
  2026-03-20,2026-03-23,2026-03-24 Eid al-Fitr (collective leave)
  2026-04-03 Good Friday
  2026-05-01 Labour Day
  2026-05-14 Ascension Day
  2026-05-15 Ascension Day (collective leave)
  2026-05-27 Eid al-Adha
  2026-05-28 Eid al-Adha (collective leave)
  2026-06-01 Pancasila Day
  2026-06-16 Islamic New Year
  2026-08-17 Independence Day
  2026-08-25 Mawlid
  2026-12-24 Christmas (collective leave)
  2026-12-25 Christmas Day
  2026-12-31 Year-end holiday
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

// Complete lists where Bursa's own holiday page was found; the rules miss several of these days
// (2015: Thaipusam, Federal Territory Day and Wesak Day observed on Monday, Deepavali).
// source: bursamalaysia.com/corporate/about-us/holidays ("Bursa Malaysia Holidays 2015"; a Sunday
// holiday moves to the Monday). The afternoon closures on the eves of Chinese New Year and Hari
// Raya Puasa that the page also lists are not modelled. 2026: only the Hari Raya Aidilfitri notice
// (malaymail.com, 2026-03-13), which depended on the moon sighting, was found, so 2026 stays on
// the rules; 2016-2023 and 2027 too.
const BURSA_YEARS = parseDatedTable(`
  2015-01-01 New Year's Day
  2015-02-02 Federal Territory Day (observed)
  2015-02-03 Thaipusam
  2015-02-19..2015-02-20 Chinese New Year
  2015-05-01 Workers' Day
  2015-05-04 Wesak Day (observed)
  2015-07-17 Hari Raya Puasa
  2015-08-31 National Day
  2015-09-16 Malaysia Day
  2015-09-24 Hari Raya Haji
  2015-10-14 Awal Muharram
  2015-11-10 Deepavali
  2015-12-24 Birthday of Prophet Muhammad
  2015-12-25 Christmas Day
`);

export function bursaHolidays(year: number): HolidayEntry[] {
  if (BURSA_YEARS.has(year)) return tableYear(BURSA_YEARS, year);
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
