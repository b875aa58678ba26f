// Dated holiday tables for Asian exchanges that announce their closures each year (lunar and
// government-set dates), plus ad-hoc closures. Weekend dates inside ranges are ignored.
import { parseDatedTable } from '../holiday-rules.ts';

// source: SSE (Shanghai Stock Exchange) annual trading-holiday notices 2015-2026, which follow the
// State Council holiday schedule; weekend make-up workdays are not trading days. 2024: the SSE
// closed from New Year's Eve (Feb 9, the last trading day was Feb 8) although the State Council
// only encouraged that day off.
// 2027 is derived, not announced (the State Council publishes each schedule in the November
// before): the statutory days of the 2024 holiday regulations (New Year's Eve to the 3rd day of the
// Spring Festival and May 1-2 since 2025, Oct 1-3) with statutory days on a weekend made up on the
// following weekdays, plus the Oct 1-7 National Day week every recent year has had; lunar dates
// from the Chinese calendar (Spring Festival 2027-02-06, Dragon Boat 06-09, Mid-Autumn 09-15).
// Bridge days the schedule may add are missing until it is published.
export const CN_CLOSURES = parseDatedTable(`
  @source SSE holiday notices (State Council holiday schedule) of the year; 2027 derived, not announced
  2015-01-01..2015-01-02 New Year's Day
  2015-02-18..2015-02-24 Spring Festival
  2015-04-06 Qingming Festival
  2015-05-01 Labour Day
  2015-06-22 Dragon Boat Festival
  2015-09-03..2015-09-04 War of Resistance Victory Day
  2015-10-01..2015-10-07 National Day
  2016-01-01 New Year's Day
  2016-02-08..2016-02-12 Spring Festival
  2016-04-04 Qingming Festival
  2016-05-02 Labour Day
  2016-06-09..2016-06-10 Dragon Boat Festival
  2016-09-15..2016-09-16 Mid-Autumn Festival
  2016-10-03..2016-10-07 National Day
  2017-01-02 New Year's Day
  2017-01-27..2017-02-02 Spring Festival
  2017-04-03..2017-04-04 Qingming Festival
  2017-05-01 Labour Day
  2017-05-29..2017-05-30 Dragon Boat Festival
  2017-10-02..2017-10-06 National Day
  2018-01-01 New Year's Day
  2018-02-15..2018-02-21 Spring Festival
  2018-04-05..2018-04-06 Qingming Festival
  2018-04-30..2018-05-01 Labour Day
  2018-06-18 Dragon Boat Festival
  2018-09-24 Mid-Autumn Festival
  2018-10-01..2018-10-05 National Day
  2018-12-31..2019-01-01 New Year's Day
  2019-02-04..2019-02-08 Spring Festival
  2019-04-05 Qingming Festival
  2019-05-01..2019-05-03 Labour Day
  2019-06-07 Dragon Boat Festival
  2019-09-13 Mid-Autumn Festival
  2019-10-01..2019-10-07 National Day
  2020-01-01 New Year's Day
  2020-01-24..2020-01-31 Spring Festival (extended for COVID-19)
  2020-04-06 Qingming Festival
  2020-05-01..2020-05-05 Labour Day
  2020-06-25..2020-06-26 Dragon Boat Festival
  2020-10-01..2020-10-08 National Day and Mid-Autumn Festival
  2021-01-01 New Year's Day
  2021-02-11..2021-02-17 Spring Festival
  2021-04-05 Qingming Festival
  2021-05-03..2021-05-05 Labour Day
  2021-06-14 Dragon Boat Festival
  2021-09-20..2021-09-21 Mid-Autumn Festival
  2021-10-01..2021-10-07 National Day
  2022-01-03 New Year's Day
  2022-01-31..2022-02-04 Spring Festival
  2022-04-04..2022-04-05 Qingming Festival
  2022-05-02..2022-05-04 Labour Day
  2022-06-03 Dragon Boat Festival
  2022-09-12 Mid-Autumn Festival
  2022-10-03..2022-10-07 National Day
  2023-01-02 New Year's Day
  2023-01-23..2023-01-27 Spring Festival
  2023-04-05 Qingming Festival
  2023-05-01..2023-05-03 Labour Day
  2023-06-22..2023-06-23 Dragon Boat Festival
  2023-09-29..2023-10-06 Mid-Autumn Festival and National Day
  2024-01-01 New Year's Day
  2024-02-09..2024-02-16 Spring Festival
  2024-04-04..2024-04-05 Qingming Festival
  2024-05-01..2024-05-03 Labour Day
  2024-06-10 Dragon Boat Festival
  2024-09-16..2024-09-17 Mid-Autumn Festival
  2024-10-01..2024-10-07 National Day
  2025-01-01 New Year's Day
  2025-01-28..2025-02-04 Spring Festival
  2025-04-04 Qingming Festival
  2025-05-01..2025-05-05 Labour Day
  2025-06-02 Dragon Boat Festival
  2025-10-01..2025-10-08 National Day and Mid-Autumn Festival
  2026-01-01..2026-01-02 New Year's Day
  2026-02-16..2026-02-23 Spring Festival
  2026-04-06 Qingming Festival
  2026-05-01..2026-05-05 Labour Day
  2026-06-19 Dragon Boat Festival
  2026-09-25 Mid-Autumn Festival
  2026-10-01..2026-10-07 National Day
  2027-01-01 New Year's Day (derived)
  2027-02-05..2027-02-10 Spring Festival (derived: statutory days and their weekday make-up)
  2027-04-05 Qingming Festival (derived)
  2027-05-03..2027-05-05 Labour Day (derived: May 1-2 fall on the weekend)
  2027-06-09 Dragon Boat Festival (derived)
  2027-09-15 Mid-Autumn Festival (derived)
  2027-10-01..2027-10-07 National Day (derived)
`, 'CN');

// source: BSE/NSE annual holiday circulars 2015-2026 (movable Hindu, Islamic, Sikh and Jain
// festivals and election days; 2026: NSE circular of December 2025). The fixed-date closures and
// Good Friday are rules in asia-pacific.ts. 2027 is not published yet (the circular comes each
// December), so 2027 has the rule closures only. 2026-01-15: the Mumbai municipal election
// holiday, which the reference sessions (exchange_calendars XBOM) also close.
/**
 * Saturday sessions at regular hours: 20 January 2024 (a full trading day in place of Monday the
 * 22nd, the Ram Mandir holiday) and 1 February 2025 (Union Budget day). source: BSE/NSE circulars
 * of January 2024 and January 2025; the reference sessions (XBOM) show both.
 */
export const IN_SATURDAY_SESSIONS: ReadonlySet<string> = new Set(['2024-01-20', '2025-02-01']);

export const IN_CLOSURES = parseDatedTable(`
  @source BSE/NSE holiday circulars of the year
  2015-02-17,2015-03-06,2015-04-02,2015-04-03,2015-09-17,2015-09-25,2015-10-22,2015-11-11,2015-11-12,2015-11-25 Festival holiday
  2016-03-07,2016-03-24,2016-03-25,2016-04-15,2016-04-19,2016-07-06,2016-09-05,2016-09-13,2016-10-11,2016-10-12,2016-10-31,2016-11-14 Festival holiday
  2017-02-24,2017-03-13,2017-04-04,2017-06-26,2017-08-25,2017-10-19,2017-10-20 Festival holiday
  2018-02-13,2018-03-02,2018-03-29,2018-03-30,2018-08-22,2018-09-13,2018-09-20,2018-10-18,2018-11-07,2018-11-08,2018-11-23 Festival holiday
  2019-03-04,2019-03-21,2019-04-17,2019-04-19,2019-06-05,2019-08-12,2019-09-02,2019-09-10,2019-10-08,2019-10-28,2019-11-12 Festival holiday
  2020-02-21,2020-03-10,2020-04-02,2020-04-06,2020-04-10,2020-05-25,2020-11-16,2020-11-30 Festival holiday
  2021-03-11,2021-03-29,2021-04-02,2021-04-21,2021-05-13,2021-07-21,2021-08-19,2021-09-10,2021-10-15,2021-11-04,2021-11-05,2021-11-19 Festival holiday
  2022-03-01,2022-03-18,2022-04-15,2022-05-03,2022-08-09,2022-08-31,2022-10-05,2022-10-24,2022-10-26,2022-11-08 Festival holiday
  2023-03-07,2023-03-30,2023-04-04,2023-04-07,2023-06-29,2023-09-19,2023-10-24,2023-11-14,2023-11-27 Festival holiday
  2024-03-08,2024-03-25,2024-03-29,2024-04-11,2024-04-17,2024-06-17,2024-07-17,2024-11-01,2024-11-15 Festival holiday
  2025-02-26,2025-03-14,2025-03-31,2025-04-10,2025-04-18,2025-08-27,2025-10-21,2025-10-22,2025-11-05 Festival holiday
  2026-01-15 Municipal Corporation elections (Maharashtra)
  2026-03-03 Holi
  2026-03-26 Shri Ram Navami
  2026-03-31 Shri Mahavir Jayanti
  2026-05-28 Bakri Id
  2026-06-26 Muharram
  2026-09-14 Ganesh Chaturthi
  2026-10-20 Dussehra
  2026-11-10 Diwali Balipratipada
  2026-11-24 Guru Nanak Jayanti
  2019-04-29 General Elections (Mumbai)
  2019-10-21 Maharashtra Assembly Elections
  2024-01-22 Ram Mandir consecration (special holiday)
  2024-05-20 General Elections (Mumbai)
  2024-11-20 Maharashtra Assembly Elections
`, 'IN');

// source: HKEX market communications on typhoon / black-rainstorm closures and special holidays.
// From 2024-09-23 HKEX keeps trading through severe weather, so no new entries are expected.
// Only full-day closures: before that date a signal lowered by noon let the afternoon trade, and
// such morning-only cancellations are not modelled. Typhoon Mangkhut (16 September 2018) was over
// by Monday the 17th, a trading day (the reference sessions, exchange_calendars XHKG, agree).
// 2015-04-07 was a general holiday (Ching Ming fell on Easter Sunday), which the rules miss.
export const HK_AD_HOC = parseDatedTable(`
  @source HKEX market communications on typhoon and black-rainstorm closures and special holidays
  2015-04-07 The day following Easter Monday (Ching Ming on Easter Sunday)
  2015-09-03 70th Anniversary of the War of Resistance Victory
  2016-08-02 Typhoon Nida (Signal No. 8)
  2016-10-21 Typhoon Haima (Signal No. 8)
  2017-08-23 Typhoon Hato (Signal No. 8)
  2020-10-13 Typhoon Nangka (Signal No. 8)
  2021-10-13 Typhoon Kompasu (Signal No. 8)
  2023-07-17 Typhoon Talim (Signal No. 8)
  2023-09-01 Typhoon Saola (Signal No. 8)
  2023-09-08 Black rainstorm warning
  2024-09-06 Typhoon Yagi (Signal No. 8)
`, 'HK');

// source: KRX notices: election days and temporary public holidays designated by the government.
export const KR_AD_HOC = parseDatedTable(`
  @source KRX notices on election days and government-designated temporary holidays
  2015-08-14 Temporary holiday (70th Liberation anniversary)
  2016-04-13 National Assembly election
  2016-05-06 Temporary holiday
  2017-05-09 Presidential election
  2017-10-02 Temporary holiday
  2018-06-13 Local elections
  2020-04-15 National Assembly election
  2020-08-17 Temporary holiday
  2022-03-09 Presidential election
  2022-06-01 Local elections
  2023-10-02 Temporary holiday
  2024-04-10 National Assembly election
  2024-10-01 Armed Forces Day (temporary holiday)
  2025-01-27 Temporary holiday
  2025-06-03 Presidential election
  2026-06-03 Local elections
`, 'KR');

/** The rules' calculated Hari Raya dates on which SGX traded (the feast fell a day later). */
export const SG_RULE_DATES_MOVED: ReadonlySet<string> = new Set(['2015-09-23', '2018-08-21', '2019-06-04']);

// source: SGX notices on polling-day closures; the SG50 holiday of 2015 and the Hari Raya days the
// rules miss (a day after the calculated date, or the Monday after a Sunday feast) from the
// reference sessions (exchange_calendars XSES), which follow the gazetted public holidays.
export const SG_AD_HOC = parseDatedTable(`
  @source SGX notices on polling-day closures; Hari Raya days the closures of the reference sessions (exchange_calendars XSES)
  2015-08-07 SG50 Public Holiday
  2015-09-24 Hari Raya Haji
  2016-09-12 Hari Raya Haji
  2017-06-26 Hari Raya Puasa (observed)
  2018-08-22 Hari Raya Haji
  2019-06-05 Hari Raya Puasa
  2019-08-12 Hari Raya Haji (observed)
  2020-05-25 Hari Raya Puasa (observed)
  2022-07-11 Hari Raya Haji (observed)
  2024-06-17 Hari Raya Haji
  2015-09-11 Polling Day
  2020-07-10 Polling Day
`, 'SG');
