// Named dates of the dated exchange tables (TWSE, Tadawul, IDX, Bursa Malaysia): for each year a
// table covers, a closure and a trading day next to it, so a later change cannot drop a year
// silently. Sources are cited next to each table in src/market/calendars.
import { describe, expect, test } from 'bun:test';
import { expectClosedDay, isTradingDay } from '../support/trading-days.ts';
import { holidaysBetween, isOpenAt, sessionsBetween } from '../../src/market/index.ts';


describe('TWSE schedules', () => {
  test.each([
    ['2015-09-29', 'Typhoon Dujuan'],
    ['2016-02-04', 'settlement only before Lunar New Year'],
    ['2016-02-12', 'Lunar New Year adjusted holiday'],
    ['2017-01-25', 'settlement only before Lunar New Year'],
    ['2017-05-29', 'Dragon Boat Festival adjusted holiday'],
    ['2017-10-09', 'National Day adjusted holiday'],
    ['2018-02-13', 'settlement only before Lunar New Year'],
    ['2018-04-06', 'Tomb Sweeping Day adjusted holiday'],
    ['2018-12-31', 'Founding Day adjusted holiday'],
    ['2019-01-31', 'settlement only before Lunar New Year'],
    ['2019-03-01', 'Peace Memorial Day adjusted holiday'],
    ['2019-10-11', 'National Day adjusted holiday'],
    ['2021-02-08', 'settlement only before Lunar New Year'],
    ['2022-01-27', 'settlement only before Lunar New Year'],
    ['2022-02-04', 'Lunar New Year adjusted holiday'],
    ['2023-01-18', 'settlement only before Lunar New Year'],
    ['2023-06-23', 'Dragon Boat Festival adjusted holiday'],
    ['2023-10-09', 'National Day adjusted holiday'],
  ])('TW is closed on %s (%s)', (date) => {
    expectClosedDay('TW', date);
  });

  test.each([
    ['2015-09-30', 'the day after Typhoon Dujuan'],
    ['2016-02-03', 'last trading day before the 2016 Lunar New Year'],
    ['2016-02-15', 'first trading day after the 2016 Lunar New Year'],
    ['2017-01-24', 'last trading day before the 2017 Lunar New Year'],
    ['2018-02-12', 'last trading day before the 2018 Lunar New Year'],
    ['2018-02-21', 'first trading day after the 2018 Lunar New Year'],
    ['2019-01-30', 'last trading day before the 2019 Lunar New Year'],
    ['2019-02-11', 'first trading day after the 2019 Lunar New Year'],
    ['2021-02-05', 'last trading day before the 2021 Lunar New Year'],
    ['2021-02-17', 'first trading day after the 2021 Lunar New Year'],
    ['2022-01-26', 'last trading day before the 2022 Lunar New Year'],
    ['2022-02-07', 'first trading day after the 2022 Lunar New Year'],
    ['2023-01-17', 'last trading day before the 2023 Lunar New Year'],
    ['2023-01-30', 'first trading day after the 2023 Lunar New Year'],
  ])('TW trades on %s (%s)', (date) => {
    expect(isTradingDay('TW', date)).toBe(true);
  });

  test.each([['2016-01-30'], ['2017-02-18'], ['2017-06-03'], ['2017-09-30'], ['2018-03-31'], ['2018-12-22']])(
    'TW trades on the make-up Saturday %s at the regular hours', (date) => {
      const [session] = sessionsBetween('TW', date, date);
      expect(session && new Date(session.openMs).toISOString()).toBe(`${date}T01:00:00.000Z`);
      expect(session && new Date(session.closeMs).toISOString()).toBe(`${date}T05:30:00.000Z`);
      expect(isOpenAt('TW', Date.parse(`${date}T03:00:00Z`))).toBe(true);
    },
  );

  test('from 2019 make-up Saturdays are neither trading nor settlement days', () => {
    expect(sessionsBetween('TW', '2019-01-19', '2019-01-19')).toEqual([]);
    expect(sessionsBetween('TW', '2023-02-04', '2023-02-04')).toEqual([]);
    // Any other Saturday stays closed.
    expect(sessionsBetween('TW', '2017-02-25', '2017-02-25')).toEqual([]);
  });

  test('2019 has the 244 trading days TWSE announced, less the typhoon days of Lekima and Mitag', () => {
    expect(sessionsBetween('TW', '2019-01-01', '2019-12-31')).toHaveLength(242);
  });
});

describe('Tadawul Eid closures', () => {
  test.each([
    ['2015-07-16', 'Eid al-Fitr'],
    ['2015-07-21', 'Eid al-Fitr'],
    ['2024-04-07', 'Eid al-Fitr'],
    ['2024-04-11', 'Eid al-Fitr'],
    ['2025-06-05', 'Eid al-Adha'],
    ['2025-06-10', 'Eid al-Adha'],
  ])('SA is closed on %s (%s)', (date) => {
    expectClosedDay('SA', date);
  });

  test.each([
    ['2015-07-15', 'last session before Eid al-Fitr 2015'],
    ['2015-07-22', 'trading resumes after Eid al-Fitr 2015'],
    ['2024-04-04', 'last session before Eid al-Fitr 2024'],
    ['2024-04-14', 'trading resumes after Eid al-Fitr 2024'],
    ['2025-06-04', 'last session before Eid al-Adha 2025'],
    ['2025-06-11', 'trading resumes after Eid al-Adha 2025'],
  ])('SA trades on %s (%s)', (date) => {
    expect(isTradingDay('SA', date)).toBe(true);
  });

  test('a feast without an announcement still takes the rules (Eid al-Adha 2024)', () => {
    expect(holidaysBetween('SA', '2024-06-16', '2024-06-18').map((h) => h.date)).toEqual(['2024-06-16', '2024-06-17', '2024-06-18']);
  });
});

describe('IDX and Bursa Malaysia lists', () => {
  test.each([
    ['ID', '2026-01-16', "Isra Mi'raj"],
    ['ID', '2026-02-16', 'Chinese New Year collective leave'],
    ['ID', '2026-03-23', 'Eid al-Fitr collective leave'],
    ['ID', '2026-05-15', 'Ascension Day collective leave'],
    ['ID', '2026-12-24', 'Christmas collective leave'],
    ['ID', '2026-12-31', 'year-end holiday'],
    ['MY', '2015-02-02', 'Federal Territory Day observed'],
    ['MY', '2015-02-03', 'Thaipusam'],
    ['MY', '2015-05-04', 'Wesak Day observed'],
    ['MY', '2015-09-24', 'Hari Raya Haji'],
    ['MY', '2015-11-10', 'Deepavali'],
    ['MY', '2015-12-24', 'Birthday of Prophet Muhammad'],
  ])('%s is closed on %s (%s)', (code, date) => {
    expectClosedDay(code, date);
  });

  test.each([
    ['ID', '2026-02-18', 'trading resumes after Chinese New Year'],
    ['ID', '2026-03-25', 'trading resumes after Eid al-Fitr'],
    ['ID', '2026-05-29', 'the day after Eid al-Adha collective leave'],
    ['ID', '2026-12-30', 'last trading day of 2026'],
    ['MY', '2015-06-01', "the rules' King's Birthday date; Bursa's fell on Saturday 6 June"],
    ['MY', '2015-09-23', 'the day before Hari Raya Haji'],
    ['MY', '2015-12-23', "the rules' Mawlid date; Bursa's was the 24th"],
  ])('%s trades on %s (%s)', (code, date) => {
    expect(isTradingDay(code, date)).toBe(true);
  });

  test('IDX 2026 has the 239 trading days of its announcement', () => {
    expect(sessionsBetween('ID', '2026-01-01', '2026-12-31')).toHaveLength(239);
  });
});
