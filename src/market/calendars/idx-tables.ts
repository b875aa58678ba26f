// Dated IDX (Indonesia Stock Exchange) closures. IDX publishes a "Kalender Libur Bursa" each year
// from the joint ministerial decree (SKB) on national holidays and collective leave (cuti bersama)
// and amends it when the decree changes; it also closes on election days declared holidays and on
// its own 31 December. The lists below are those calendars as the sources cited quote them.
import { parseDatedTable } from '../holiday-rules.ts';

// Complete closure lists, year by year:
// 2015: holidaystracker.com/stock-market/indonesia-stock-exchange-holidays-2015 (the IDX list, citing
//   SKB 5/2014). It predates the 9 December 2015 regional-election holiday, added from the
//   reference sessions (exchange_calendars XIDX).
// 2022: the IDX 2022 calendar (Peng-00291/BEI.POP/09-2021) as listed by tirto.id ("Jadwal Libur
//   Bursa ... April 2022") and liputan6.com (4899409), whose ten closures give the 250 trading days
//   bisnis.com (2021-12-25) reports; plus the Eid al-Fitr collective leave added in April 2022
//   (29 April, 4-6 May: traderharian.com quoting the IDX notice).
// 2023: the IDX 2023 calendar (Peng-00252/BEI.POP/10-2022) as listed by bisnis.com (2022-10-13,
//   "BEI Umumkan Kalender Libur Bursa 2023"), whose month counts (medcom.id: 242 trading days, one
//   closure in September, two in December) place Mawlid on 28 September and Christmas with its
//   collective leave on 25-26 December; amended for Eid al-Fitr to 19-25 April (katadata.co.id,
//   IDX notice of 2023-03-30; 26 April trades) and for Eid al-Adha with 28 and 30 June
//   (Peng-00152/BEI.POP/06-2023: liputan6.com 5325113, beritainvestor.id). 239 trading days.
// 2024-2026: IDX "Hari Libur Bursa" announcements 2024 and 2025. 2026: announcement
//   Peng-00171/BEI.POP/09-2025 (SKB 1497/2/5 of 2025) as listed by mureks.co.id ("BEI Umumkan
//   Kalender Libur Bursa 2026"), liramedia.co.id and jakarta365.net, which agree; those copies
//   break off in December after the 24th, and the 25th and 31st complete the 22 closures (239
//   trading days) the announcement counts.
// Not found complete: 2016-2021 and 2027 (the rules apply, with the dated facts below).
export const IDX_YEARS = parseDatedTable(`
  @source IDX 2015 holiday list (SKB 5/2014) as reproduced by holidaystracker.com; 9 December from the reference sessions (exchange_calendars XIDX)
  2015-01-01 New Year's Day
  2015-02-19 Chinese New Year
  2015-04-03 Good Friday
  2015-05-01 Labour Day
  2015-05-14 Ascension Day
  2015-06-02 Vesak
  2015-07-16 Eid al-Fitr (collective leave)
  2015-07-17 Eid al-Fitr
  2015-07-20..2015-07-21 Eid al-Fitr (collective leave)
  2015-08-17 Independence Day
  2015-09-24 Eid al-Adha
  2015-10-14 Islamic New Year
  2015-12-24 Mawlid
  2015-12-09 Regional elections
  2015-12-25 Christmas Day
  2015-12-31 Year-end holiday
  @source IDX 2022 calendar Peng-00291/BEI.POP/09-2021 (tirto.id, liputan6.com 4899409), amended for the Eid al-Fitr collective leave (traderharian.com)
  2022-02-01 Chinese New Year
  2022-02-28 Isra Mi'raj
  2022-03-03 Nyepi
  2022-04-15 Good Friday
  2022-04-29 Eid al-Fitr (collective leave)
  2022-05-02..2022-05-03 Eid al-Fitr
  2022-05-04..2022-05-06 Eid al-Fitr (collective leave)
  2022-05-16 Vesak
  2022-05-26 Ascension Day
  2022-06-01 Pancasila Day
  2022-08-17 Independence Day
  @source IDX 2023 calendar Peng-00252/BEI.POP/10-2022 (bisnis.com 2022-10-13), amended for Eid al-Fitr (katadata.co.id) and Eid al-Adha (Peng-00152/BEI.POP/06-2023)
  2023-01-23 Chinese New Year (collective leave)
  2023-03-22 Nyepi
  2023-03-23 Nyepi (collective leave)
  2023-04-07 Good Friday
  2023-04-19..2023-04-21 Eid al-Fitr (collective leave)
  2023-04-24..2023-04-25 Eid al-Fitr (collective leave)
  2023-05-01 Labour Day
  2023-05-18 Ascension Day
  2023-06-01 Pancasila Day
  2023-06-02 Vesak (collective leave)
  2023-06-28 Eid al-Adha (collective leave)
  2023-06-29 Eid al-Adha
  2023-06-30 Eid al-Adha (collective leave)
  2023-07-19 Islamic New Year
  2023-08-17 Independence Day
  2023-09-28 Mawlid
  2023-12-25 Christmas Day
  2023-12-26 Christmas (collective leave)
  @source IDX Hari Libur Bursa 2024 announcement
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
  @source IDX Hari Libur Bursa 2025 announcement
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
  2025-08-18 Independence Day (collective leave) | IDX Hari Libur Bursa 2025 announcement, amended for the 18 August 2025 collective leave (SKB amendment on the day after Independence Day)
  2025-09-05 Mawlid
  2025-12-25 Christmas Day
  2025-12-26 Christmas (collective leave)
  2025-12-31 Year-end holiday
  @source IDX announcement Peng-00171/BEI.POP/09-2025 (mureks.co.id, liramedia.co.id, jakarta365.net)
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
`, 'ID');

// Years on the rules: IDX closures the public-holiday rules miss, and rule dates the decree moved.
// 2017-04-19: Jakarta gubernatorial runoff, declared a bourse holiday (metrotvnews.com, quoting IDX).
// 2020: Eid al-Fitr collective leave cut to 22 May and Mawlid collective leave on 28 and 30 October
//   (Peng-00116/BEI.POP/04-2020: katadata.co.id, indonesiabei.blogspot.com); regional elections on
//   9 December (Peng-00365/BEI.POP/11-2020: cnbcindonesia.com); Christmas collective leave on
//   24 December and 31 December as the remaining Eid replacement day (Peng-00367/BEI.POP/12-2020:
//   bisnis.com 2020-12-25, cnbcindonesia.com). 21 August collective leave is not sourced.
// 2021: Eid al-Fitr collective leave on 12 May only (liputan6.com 4556809; Peng-00049/BEI.POP/
//   02-2021 on inews.id: 12 March, 17-19 May and 27 December trade); Islamic New Year moved to
//   11 August and Mawlid to 20 October, 24 December trades (bisnis.tempo.co 1475443, trenasia.com).
// 2016-2020 collective leave and the Hijri holidays where the rules are a day off: the closures of
//   the reference sessions (exchange_calendars XIDX), which agree with the SKB decrees of those
//   years (Eid collective leave around the feast, 26 December or 24 December Christmas leave,
//   regional elections of 15 February 2017 and the general election of 17 April 2019).
export const IDX_RULE_YEAR_CLOSURES = parseDatedTable(`
  @source IDX notices and SKB decrees of the year as cited in idx-tables.ts; 2016-2020 the closures of the reference sessions (exchange_calendars XIDX)
  2016-05-06 Isra Mi'raj
  2016-07-04..2016-07-05 Eid al-Fitr (collective leave)
  2016-07-08 Eid al-Fitr (collective leave)
  2016-09-12 Eid al-Adha
  2016-12-12 Mawlid
  2016-12-26 Christmas (collective leave)
  2017-01-02 New Year (collective leave)
  2017-02-15 Regional elections
  2017-06-23 Eid al-Fitr (collective leave)
  2017-06-27..2017-06-30 Eid al-Fitr (collective leave)
  2017-12-01 Mawlid
  2017-12-26 Christmas (collective leave)
  2018-06-11..2018-06-14 Eid al-Fitr (collective leave)
  2018-06-18..2018-06-19 Eid al-Fitr (collective leave)
  2018-08-22 Eid al-Adha
  2018-12-24 Christmas (collective leave)
  2019-04-17 General election
  2019-06-03 Eid al-Fitr (collective leave)
  2019-06-06..2019-06-07 Eid al-Fitr (collective leave)
  2019-12-24 Christmas (collective leave)
  2020-08-21 Islamic New Year (collective leave)
  2017-04-19 Jakarta gubernatorial election
  2020-05-22 Eid al-Fitr (collective leave)
  2020-10-28 Mawlid (collective leave)
  2020-10-30 Mawlid (collective leave)
  2020-12-09 Regional elections
  2020-12-24 Christmas (collective leave)
  2021-05-12 Eid al-Fitr (collective leave)
  2021-08-11 Islamic New Year (moved)
  2021-10-20 Mawlid (moved)
`, 'ID');
/**
 * Rule dates that traded: the 2021 holidays the decree moved (above); Hijri holidays the rules
 * place a day early (2016-05-04, 2017-11-30, 2018-04-13, 2018-08-21); Pancasila Day before it
 * became a holiday in 2017 (2016-06-01); and the 2027 rule dates the reference sessions trade on
 * (2027 is not announced yet).
 */
export const IDX_RULE_DATES_MOVED: ReadonlySet<string> = new Set([
  '2016-05-04', '2016-06-01', '2017-11-30', '2018-04-13', '2018-08-21', '2021-08-09', '2021-10-18',
  '2027-01-05', '2027-03-08', '2027-03-09', '2027-03-10', '2027-05-20',
]);
