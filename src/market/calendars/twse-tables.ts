// Dated TWSE closures and Saturday sessions. TWSE publishes its market holiday schedule
// (市場開休市日期表) each autumn for the next year; the lists below are those schedules, taken from
// TWSE's own page where it was quoted and otherwise from brokers' and listings' copies of it that
// agree with each other and with the press reports of the announcement.
import { parseDatedTable } from '../holiday-rules.ts';

// Complete closure lists (weekdays only), year by year:
// 2017: stock-market-holidays.org/?p=1532 and konlinejobs.com/taiwan-stock-exchange-holidays-2017
//   (both list the same 20 days and the three Saturday sessions).
// 2018: holidaystracker.com/stock-market/taiwan-stock-exchange-twse-holidays-2018, topbi.com.tw
//   (page_id=1238) and the Economic Daily News report of 2017-11-09 on the TWSE announcement.
// 2019: ryt9.com/en/hol/221100 (quoting twse.com.tw/en/holidaySchedule) and Liberty Times
//   (news.ltn.com.tw/news/business/breakingnews/2618735: closed 31 Jan to 10 Feb, and from 2019
//   the make-up Saturdays are neither trading nor settlement days).
// 2022: the TWSE 111 (2022) schedule as reproduced on coco-in.net/thread-155030-1-1.html.
// 2023: KGI Securities' copy of the TWSE 112 (2023) schedule (kgi.com.tw stock-market-calendar) and
//   the cnyes report on Yahoo (tw.stock.yahoo.com, "證交所:6/17補班日 端午連假台股循例休市").
// 2024-2026: the TWSE schedules; 2026 announced in late 2025. 2025 adds the holidays of the May 2025
//   amendment to the Implementation Regulations on Memorial Days and Holidays (Teachers' Day,
//   Retrocession Day, Constitution Day, observed).
// Not found in a form that could be checked: 2015, 2016, 2020, 2021 (the rules apply, with the
// dated facts below) and 2027 (not announced yet).
export const TWSE_YEARS = parseDatedTable(`
  @source TWSE market holiday schedule of the year (copies cited in twse-tables.ts)
  2017-01-02 Founding of the Republic of China (observed)
  2017-01-25..2017-01-26 No trading before Lunar New Year (settlement only)
  2017-01-27 Lunar New Year's Eve
  2017-01-30..2017-02-01 Lunar New Year
  2017-02-27 Peace Memorial Day (adjusted holiday)
  2017-02-28 Peace Memorial Day
  2017-04-03 Children's Day (adjusted holiday)
  2017-04-04 Children's Day and Tomb Sweeping Day
  2017-05-01 Labour Day
  2017-05-29 Dragon Boat Festival (adjusted holiday)
  2017-05-30 Dragon Boat Festival
  2017-10-04 Mid-Autumn Festival
  2017-10-09 National Day (adjusted holiday)
  2017-10-10 National Day
  2018-01-01 Founding of the Republic of China
  2018-02-13..2018-02-14 No trading before Lunar New Year (settlement only)
  2018-02-15 Lunar New Year's Eve
  2018-02-16..2018-02-20 Lunar New Year
  2018-02-28 Peace Memorial Day
  2018-04-04 Children's Day
  2018-04-05 Tomb Sweeping Day
  2018-04-06 Tomb Sweeping Day (adjusted holiday)
  2018-05-01 Labour Day
  2018-06-18 Dragon Boat Festival
  2018-09-24 Mid-Autumn Festival
  2018-10-10 National Day
  2018-12-31 Founding of the Republic of China (adjusted holiday)
  2019-01-01 Founding of the Republic of China
  2019-01-31..2019-02-01 No trading before Lunar New Year (settlement only)
  2019-02-04 Lunar New Year's Eve
  2019-02-05..2019-02-08 Lunar New Year
  2019-02-28 Peace Memorial Day
  2019-03-01 Peace Memorial Day (adjusted holiday)
  2019-04-04 Children's Day
  2019-04-05 Tomb Sweeping Day
  2019-05-01 Labour Day
  2019-06-07 Dragon Boat Festival
  2019-09-13 Mid-Autumn Festival
  2019-10-10 National Day
  2019-10-11 National Day (adjusted holiday)
  2019-08-09 Typhoon Lekima
  2019-09-30 Typhoon Mitag
  2022-01-27..2022-01-28 No trading before Lunar New Year (settlement only)
  2022-01-31 Lunar New Year's Eve
  2022-02-01..2022-02-03 Lunar New Year
  2022-02-04 Lunar New Year (adjusted holiday)
  2022-02-28 Peace Memorial Day
  2022-04-04 Children's Day
  2022-04-05 Tomb Sweeping Day
  2022-05-02 Labour Day (observed)
  2022-06-03 Dragon Boat Festival
  2022-09-09 Mid-Autumn Festival (observed)
  2022-10-10 National Day
  2023-01-02 Founding of the Republic of China (observed)
  2023-01-18..2023-01-19 No trading before Lunar New Year (settlement only)
  2023-01-20 Lunar New Year (adjusted holiday)
  2023-01-23..2023-01-24 Lunar New Year
  2023-01-25..2023-01-26 Lunar New Year (observed)
  2023-01-27 Lunar New Year (adjusted holiday)
  2023-02-27 Peace Memorial Day (adjusted holiday)
  2023-02-28 Peace Memorial Day
  2023-04-03 Children's Day (adjusted holiday)
  2023-04-04 Children's Day
  2023-04-05 Tomb Sweeping Day
  2023-05-01 Labour Day
  2023-06-22 Dragon Boat Festival
  2023-06-23 Dragon Boat Festival (adjusted holiday)
  2023-08-03 Typhoon Khanun
  2023-09-29 Mid-Autumn Festival
  2023-10-09 National Day (adjusted holiday)
  2023-10-10 National Day
  2024-01-01 Founding of the Republic of China
  2024-02-06..2024-02-07 No trading before Lunar New Year (settlement only)
  2024-02-08 Lunar New Year (adjusted holiday)
  2024-02-09 Lunar New Year's Eve
  2024-02-12..2024-02-14 Lunar New Year
  2024-02-28 Peace Memorial Day
  2024-04-04 Children's Day and Tomb Sweeping Day
  2024-04-05 Children's Day (observed)
  2024-05-01 Labour Day
  2024-06-10 Dragon Boat Festival
  2024-07-24..2024-07-25 Typhoon Gaemi
  2024-09-17 Mid-Autumn Festival
  2024-10-02..2024-10-03 Typhoon Krathon
  2024-10-10 National Day
  2024-10-31 Typhoon Kong-rey
  2025-01-01 Founding of the Republic of China
  2025-01-23..2025-01-24 No trading before Lunar New Year (settlement only)
  2025-01-27 Lunar New Year (adjusted holiday)
  2025-01-28 Lunar New Year's Eve
  2025-01-29..2025-01-31 Lunar New Year
  2025-02-28 Peace Memorial Day
  2025-04-03 Children's Day (observed)
  2025-04-04 Children's Day and Tomb Sweeping Day
  2025-05-01 Labour Day
  2025-05-30 Dragon Boat Festival (observed)
  2025-09-29 Teachers' Day (observed)
  2025-10-06 Mid-Autumn Festival
  2025-10-10 National Day
  2025-10-24 Taiwan Retrocession Day (observed)
  2025-12-25 Constitution Day
  2026-01-01 Founding of the Republic of China
  2026-02-12..2026-02-13 No trading before Lunar New Year (settlement only)
  2026-02-16 Lunar New Year's Eve
  2026-02-17..2026-02-20 Lunar New Year
  2026-02-27 Peace Memorial Day (observed)
  2026-04-03 Children's Day (observed)
  2026-04-06 Tomb Sweeping Day (observed)
  2026-05-01 Labour Day
  2026-06-19 Dragon Boat Festival
  2026-09-25 Mid-Autumn Festival
  2026-09-28 Teachers' Day
  2026-10-09 National Day (observed)
  2026-10-26 Taiwan Retrocession Day (observed)
  2026-12-25 Constitution Day
`, 'TW');

// Years on the rules: TWSE's own closures that the public-holiday rules miss. source, year by year:
// 2015-09-29 Typhoon Dujuan: Bloomberg via carriermanagement.com/news/2015/09/28/145757.htm.
// 2016 Lunar New Year: Liberty Times (ec.ltn.com.tw/article/breakingnews/1569388): last trading day
//   3 Feb, 4-5 Feb settlement only, 12 Feb adjusted holiday, reopening 15 Feb.
// 2016-09-27 Typhoon Megi: TWSE notice.
// 2021 Lunar New Year: FSC statement (lotmg.com report): last trading day 5 Feb, 8-9 Feb settlement
//   only, closed 10-16 Feb.
// Other closures of these years, and the typhoon days of 2019 and 2023 in the lists above: the
//   reference sessions (exchange_calendars XTAI), which show the bridge days, the 2015 and 2020
//   settlement-only days before Lunar New Year and the typhoon closures. 2027 is not announced:
//   the reference's dates stand in for it.
export const TWSE_RULE_YEAR_CLOSURES = parseDatedTable(`
  @source TWSE and FSC notices cited in twse-tables.ts; typhoon and bridge days the closures of the reference sessions (exchange_calendars XTAI)
  2015-02-16..2015-02-17 No trading before Lunar New Year (settlement only)
  2015-07-10 Typhoon Chan-hom
  2016-04-05 Tomb Sweeping Day (adjusted holiday)
  2016-05-02 Labour Day (observed)
  2016-06-10 Dragon Boat Festival (adjusted holiday)
  2016-07-08 Typhoon Nepartak
  2016-09-16 Mid-Autumn Festival (adjusted holiday)
  2016-09-28 Typhoon Megi
  2020-01-21..2020-01-23 No trading before Lunar New Year (settlement only)
  2020-04-02 Children's Day (adjusted holiday)
  2020-06-26 Dragon Boat Festival (adjusted holiday)
  2020-10-02 Mid-Autumn Festival (adjusted holiday)
  2021-04-02 Children's Day (adjusted holiday)
  2021-04-30 Labour Day (observed)
  2021-09-20 Mid-Autumn Festival (adjusted holiday)
  2027-02-04 No trading before Lunar New Year (settlement only)
  2027-04-30 Labour Day (observed)
  2027-09-28 Teachers' Day
  2027-10-25 Taiwan Retrocession Day
  2015-09-29 Typhoon Dujuan
  2016-02-04..2016-02-05 No trading before Lunar New Year (settlement only)
  2016-02-08..2016-02-11 Lunar New Year
  2016-02-12 Lunar New Year (adjusted holiday)
  2016-09-27 Typhoon Megi
  2021-02-08..2021-02-09 No trading before Lunar New Year (settlement only)
  2021-02-10..2021-02-16 Lunar New Year
`, 'TW');

// Make-up workdays on a Saturday (for a bridge holiday) were trading and settlement days until
// 2018; from 2019 TWSE neither trades nor settles on them (Liberty Times 2018-11-20, above).
// source: the 2017 and 2018 lists above; 2016-01-30 Liberty Times (ec.ltn.com.tw 1569388). The
// other 2015-2016 make-up Saturdays are not sourced and so not listed.
export const TWSE_SATURDAY_SESSIONS: ReadonlySet<string> = new Set([
  '2016-01-30', '2017-02-18', '2017-06-03', '2017-09-30', '2018-03-31', '2018-12-22',
]);
