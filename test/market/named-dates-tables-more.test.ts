// Named dates of the IDX, Bursa Malaysia and Tadawul years added after the first tables: for each
// year a closure and the trading day next to it, and the half days' close times. Sources are cited
// next to each table in src/market/calendars (idx-tables.ts, bursa-tables.ts, middle-east-africa.ts).
import { describe, expect, test } from 'bun:test';
import { expectClosedDay, isTradingDay } from '../support/trading-days.ts';
import { holidaysBetween, sessionsBetween } from '../../src/market/index.ts';


describe('IDX lists and dated closures', () => {
  test.each([
    ['2015-07-16', 'Eid al-Fitr collective leave'],
    ['2015-07-21', 'Eid al-Fitr collective leave'],
    ['2015-12-24', 'Mawlid'],
    ['2017-04-19', 'Jakarta gubernatorial election'],
    ['2020-05-22', 'Eid al-Fitr collective leave'],
    ['2020-10-28', 'Mawlid collective leave'],
    ['2020-12-09', 'regional elections'],
    ['2020-12-24', 'Christmas collective leave'],
    ['2021-05-12', 'Eid al-Fitr collective leave'],
    ['2021-08-11', 'Islamic New Year, moved'],
    ['2021-10-20', 'Mawlid, moved'],
    ['2022-04-29', 'Eid al-Fitr collective leave'],
    ['2022-05-06', 'Eid al-Fitr collective leave'],
    ['2022-02-28', "Isra Mi'raj"],
    ['2023-04-19', 'Eid al-Fitr collective leave'],
    ['2023-06-30', 'Eid al-Adha collective leave'],
    ['2023-12-26', 'Christmas collective leave'],
  ])('ID is closed on %s (%s)', (date) => {
    expectClosedDay('ID', date);
  });

  test.each([
    ['2015-07-22', 'trading resumes after Eid al-Fitr 2015'],
    ['2017-04-20', 'the day after the Jakarta runoff'],
    ['2020-05-26', 'trading resumes after Eid al-Fitr 2020 (collective leave moved to December)'],
    ['2020-12-28', 'the December 2020 collective leave was cut back'],
    ['2020-12-30', 'last trading day of 2020'],
    ['2021-05-17', 'collective leave of 2021 cut back'],
    ['2021-08-09', "the rules' Islamic New Year date"],
    ['2021-08-10', 'the decree moved Islamic New Year to the 11th'],
    ['2021-10-19', 'the decree moved Mawlid to the 20th'],
    ['2021-12-24', 'Christmas collective leave 2021 cancelled'],
    ['2022-05-09', 'trading resumes after Eid al-Fitr 2022'],
    ['2022-12-26', 'not in the 2022 calendar'],
    ['2023-04-26', 'Eid al-Fitr collective leave moved forward'],
    ['2023-07-03', 'trading resumes after Eid al-Adha 2023'],
  ])('ID trades on %s (%s)', (date) => {
    expect(isTradingDay('ID', date)).toBe(true);
  });

  // 2015: the IDX list's 245 days less the 9 December regional-election holiday decreed after it.
  test.each([[2015, 244], [2022, 246], [2023, 239]])('IDX %i has %i trading days', (year, days) => {
    expect(sessionsBetween('ID', `${year}-01-01`, `${year}-12-31`)).toHaveLength(days);
  });
});

describe('Bursa Malaysia lists, dated closures and half days', () => {
  test.each([
    ['2016-01-25', 'Thaipusam observed'],
    ['2016-07-07', 'Hari Raya Puasa'],
    ['2016-10-03', 'Awal Muharram observed'],
    ['2016-12-26', 'Christmas observed'],
    ['2017-09-04', 'SEA Games special holiday'],
    ['2021-12-03', 'Federal Territories holiday'],
    ['2022-05-04', 'third day of Hari Raya Aidilfitri'],
    ['2025-09-15', 'Malaysia Day special holiday'],
  ])('MY is closed on %s (%s)', (date) => {
    expectClosedDay('MY', date);
  });

  test.each([
    ['2016-07-08', 'trading resumes after Hari Raya Puasa 2016'],
    ['2016-10-31', "the rules' Deepavali fell on Saturday 29 October"],
    ['2017-09-05', 'trading resumes after the special holiday'],
    ['2021-12-06', 'trading resumes after the Federal Territories holiday'],
    ['2022-05-05', 'trading resumes after Hari Raya Aidilfitri 2022'],
    ['2025-09-12', 'the Friday before the Malaysia Day holidays'],
  ])('MY trades on %s (%s)', (date) => {
    expect(isTradingDay('MY', date)).toBe(true);
  });

  test.each([
    ['2015-02-18', 'Chinese New Year eve'],
    ['2015-07-16', 'Hari Raya Puasa eve'],
    ['2016-07-05', 'Hari Raya Puasa eve'],
    ['2017-01-27', 'Chinese New Year eve'],
  ])('MY closes at 12:30 on %s (%s), without the afternoon session', (date) => {
    const [session] = sessionsBetween('MY', date, date);
    expect(session && new Date(session.openMs).toISOString()).toBe(`${date}T01:00:00.000Z`);
    expect(session && new Date(session.closeMs).toISOString()).toBe(`${date}T04:30:00.000Z`);
    expect(session?.earlyClose).toBe(true);
    expect(holidaysBetween('MY', date, date)).toEqual([expect.objectContaining({ date, status: 'early_close' })]);
  });
});

describe('Tadawul Eid al-Adha 2015', () => {
  test.each([['2015-09-22'], ['2015-09-24'], ['2015-09-27']])('SA is closed on %s', (date) => {
    expect(isTradingDay('SA', date)).toBe(false);
  });
  test.each([['2015-09-21', 'last session'], ['2015-09-28', 'trading resumes']])('SA trades on %s (%s)', (date) => {
    expect(isTradingDay('SA', date)).toBe(true);
  });
});
