// Dated Bursa Malaysia closures and half days. Bursa closes on the holidays of Kuala Lumpur and
// closes after the morning session (12:30) on the eves of Chinese New Year and Hari Raya Puasa;
// clearing and settlement keep their hours on those half days.
import { parseDatedTable } from '../holiday-rules.ts';

// The Islamic holidays are set by moon sighting, often a day after the rules' calculated date: the
// published dates replace them. source: Bursa Malaysia trading holiday lists 2024 and 2025.
export const BURSA_ISLAMIC = parseDatedTable(`
  @source Bursa Malaysia trading holiday lists 2024 and 2025 (moon-sighting dates)
  2024-03-28 Nuzul Al-Quran | Bursa Malaysia trading holidays 2024 (Nuzul Al-Quran on Thursday 28 March 2024)
  2024-04-10..2024-04-11 Hari Raya Aidilfitri
  2024-06-17 Hari Raya Haji
  2024-07-08 Awal Muharram (observed)
  2024-09-16 Maulidur Rasul
  2025-03-18 Nuzul Al-Quran
  2025-03-31..2025-04-01 Hari Raya Aidilfitri
  2025-06-27 Awal Muharram
  2025-09-05 Maulidur Rasul
`, 'MY');

// Complete lists (weekdays only), with the half days, year by year:
// 2015: bursamalaysia.com/corporate/about-us/holidays ("Bursa Malaysia Holidays 2015"; a Sunday
//   holiday moves to the Monday; half-day closure on the eves of Chinese New Year and Hari Raya
//   Puasa). The rules miss several of these days (Thaipusam, Federal Territory Day and Wesak Day
//   observed on Monday, Deepavali).
// 2016: holidaystracker.com/stock-market/bursa-malaysia-stock-exchange-holidays-2016 (Bursa's
//   2016 list with its notes on Sunday holidays and the half days); the Chinese New Year eve fell
//   on a Sunday, so only the Hari Raya Puasa eve is a half day.
// Not found complete: 2017-2023, 2026 and 2027 (the rules apply, with the dated facts below). For
// 2026 only the Hari Raya Aidilfitri notice (malaymail.com, 2026-03-13) was found; its dates
// depended on the moon sighting, and it keeps normal hours on the eve (no half day).
export const BURSA_YEARS = parseDatedTable(`
  @source Bursa Malaysia Holidays 2015 (bursamalaysia.com/corporate/about-us/holidays)
  2015-01-01 New Year's Day
  2015-02-02 Federal Territory Day (observed)
  2015-02-03 Thaipusam
  2015-02-18 12:30 Chinese New Year Eve (half day)
  2015-02-19..2015-02-20 Chinese New Year
  2015-05-01 Workers' Day
  2015-05-04 Wesak Day (observed)
  2015-07-16 12:30 Hari Raya Puasa Eve (half day)
  2015-07-17 Hari Raya Puasa
  2015-08-31 National Day
  2015-09-16 Malaysia Day
  2015-09-24 Hari Raya Haji
  2015-10-14 Awal Muharram
  2015-11-10 Deepavali
  2015-12-24 Birthday of Prophet Muhammad
  2015-12-25 Christmas Day
  @source Bursa Malaysia's 2016 holiday list as reproduced by holidaystracker.com
  2016-01-01 New Year's Day
  2016-01-25 Thaipusam (observed)
  2016-02-01 Federal Territory Day
  2016-02-08..2016-02-09 Chinese New Year
  2016-05-02 Workers' Day (observed)
  2016-06-22 Nuzul Al-Quran
  2016-07-05 12:30 Hari Raya Puasa Eve (half day)
  2016-07-06..2016-07-07 Hari Raya Puasa
  2016-08-31 National Day
  2016-09-12 Hari Raya Haji
  2016-09-16 Malaysia Day
  2016-10-03 Awal Muharram (observed)
  2016-12-12 Birthday of Prophet Muhammad
  2016-12-26 Christmas Day (observed)
`, 'MY');

// Years on the rules: Bursa's closures and half days the rules miss, source by source:
// 2017-01-27: afternoon closed on Chinese New Year eve (thestar.com.my, 2017-01-20, Bursa statement).
// 2017-09-04: special public holiday after the SEA Games (malaymail, 2017-08-31, Bursa statement).
// 2021-12-03: Federal Territories holiday for the Malaysia Cup (themalaysianreserve.com, 2021-12-02).
// (2022-05-04, closed a third day of Hari Raya Aidilfitri and resuming 5 May, malaymail 2022-05-02,
//   is already a rule date: the Labour Day substitute moves Eid's second day there.)
// 2025-09-15: special public holiday for Malaysia Day (orientaldaily.com.my, 2025-08-26, Bursa
//   statement listing 1, 5, 15 and 16 September).
// 2017-2026 otherwise: the closures of the reference sessions (exchange_calendars XKLS) that the
//   rules miss (Islamic holidays a day after the calculated date, Monday replacement holidays,
//   the 2018 general-election days, the Agong's installation and birthday in 2017 and 2019).
export const BURSA_RULE_YEAR_EXTRA = parseDatedTable(`
  @source the closures of the reference sessions (exchange_calendars XKLS) that the Kuala Lumpur holiday rules miss
  2017-02-09 Thaipusam
  2017-04-24 Installation of the Yang di-Pertuan Agong
  2017-06-27 Hari Raya Aidilfitri (additional day)
  2017-09-22 Awal Muharram
  2017-12-01 Maulidur Rasul
  2018-05-09 General election polling day
  2018-05-10..2018-05-11 Special public holidays (general election)
  2018-08-22 Hari Raya Haji
  2018-09-10 Awal Muharram (observed)
  2019-05-20 Wesak Day (observed)
  2019-06-06 Hari Raya Aidilfitri
  2019-07-30 Installation of the Yang di-Pertuan Agong
  2019-08-12 Hari Raya Haji (observed)
  2019-09-02 Awal Muharram (observed)
  2019-09-09 Birthday of the Yang di-Pertuan Agong
  2020-05-11 Nuzul Al-Quran
  2020-05-26 Hari Raya Aidilfitri (observed)
  2020-06-08 Birthday of the Yang di-Pertuan Agong
  2021-08-10 Awal Muharram
  2021-10-19 Maulidur Rasul
  2022-07-11 Hari Raya Haji (second day)
  2022-10-10 Maulidur Rasul (observed)
  2023-01-24 Chinese New Year (observed)
  2023-04-24 Hari Raya Aidilfitri (observed)
  2023-06-29 Hari Raya Haji
  2023-09-28 Maulidur Rasul
  2026-02-02 Thaipusam (observed)
  2026-03-23 Hari Raya Aidilfitri (observed)
  2017-09-04 Special public holiday
  2021-12-03 Federal Territories public holiday | Bursa Malaysia statement (The Malaysian Reserve 2021-12-02): closed on 3 December 2021, the Federal Territories holiday for the Malaysia Cup final
  2025-09-15 Special public holiday | Bursa Malaysia statement (Oriental Daily 2025-08-26): closed on 1, 5, 15 and 16 September 2025, the 15th a special public holiday for Malaysia Day
`, 'MY');

/** Rule dates Bursa traded on (the rules' calculated Islamic dates and observed days), as above. */
export const BURSA_RULE_DATES_MOVED: ReadonlySet<string> = new Set([
  '2017-02-10', '2017-06-05', '2017-09-21', '2017-11-30', '2018-06-01', '2018-06-04', '2018-08-21', '2019-06-03',
  '2019-06-04', '2020-06-01', '2021-08-09', '2021-10-18', '2022-05-16', '2023-06-28', '2023-09-27',
]);
