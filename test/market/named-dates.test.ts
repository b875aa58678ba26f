// Named real dates per market: holidays, weekends, early closes, lunch breaks, DST weeks and
// trading-hours changes, each checked against the exchange's own published calendar.
import { describe, expect, test } from 'bun:test';
import { holidaysBetween, isOpenAt, sessionsBetween } from '../../src/market/index.ts';

/** The session of one local date as UTC ISO strings, or null when the market is closed. */
function day(code: string, date: string) {
  const [s] = sessionsBetween(code, date, date);
  if (!s) return null;
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString().slice(0, 16));
  return { open: iso(s.openMs), close: iso(s.closeMs), breakStart: iso(s.breakStartMs), breakEnd: iso(s.breakEndMs), early: s.earlyClose };
}
const full = (open: string, close: string) => ({ open, close, breakStart: null, breakEnd: null, early: false });
const early = (open: string, close: string) => ({ open, close, breakStart: null, breakEnd: null, early: true });

describe('closed dates per market', () => {
  test.each([
    ['US', '2024-03-29', 'Good Friday (not a federal holiday)'],
    ['US', '2018-12-05', 'day of mourning for President G. H. W. Bush'],
    ['US', '2025-01-09', 'day of mourning for President Carter'],
    ['US', '2022-06-20', 'Juneteenth observed on Monday'],
    ['GB', '2023-05-08', 'Coronation'],
    ['GB', '2020-05-08', 'VE Day bank holiday'],
    ['GB', '2022-09-19', 'State funeral of Queen Elizabeth II'],
    ['DE', '2024-12-24', 'Christmas Eve'],
    ['DE', '2021-05-24', 'Whit Monday (closed through 2021)'],
    ['FR', '2025-05-01', 'Labour Day'],
    ['NL', '2025-04-18', 'Good Friday'],
    ['BE', '2025-12-26', 'Boxing Day'],
    ['PT', '2025-04-21', 'Easter Monday'],
    ['IE', '2025-12-25', 'Christmas'],
    ['CH', '2025-01-02', "Berchtold's Day"],
    ['CH', '2025-08-01', 'Swiss National Day'],
    ['ES', '2025-04-18', 'Good Friday'],
    ['IT', '2025-08-15', 'Ferragosto'],
    ['SE', '2025-06-20', 'Midsummer Eve'],
    ['SE', '2025-06-06', 'National Day'],
    ['NO', '2024-05-17', 'Constitution Day'],
    ['DK', '2023-05-05', 'Great Prayer Day (last held 2023)'],
    ['FI', '2024-12-06', 'Independence Day'],
    ['AT', '2025-06-09', 'Whit Monday'],
    ['PL', '2025-11-11', 'Independence Day'],
    ['TR', '2024-10-29', 'Republic Day'],
    ['TR', '2024-04-10', 'Ramadan Feast'],
    ['ZA', '2024-05-29', 'general election'],
    ['ZA', '2025-03-21', 'Human Rights Day'],
    ['SA', '2024-02-22', 'Founding Day'],
    ['IL', '2025-10-02', 'Yom Kippur'],
    ['JP', '2025-01-02', 'exchange year-end break'],
    ['JP', '2025-12-31', 'exchange year-end break'],
    ['HK', '2024-02-12', 'Lunar New Year'],
    ['HK', '2023-07-17', 'typhoon signal 8'],
    ['CN', '2024-10-07', 'National Day golden week'],
    ['KR', '2024-04-10', 'National Assembly election'],
    ['KR', '2024-12-31', 'year-end closing day'],
    ['TW', '2024-10-10', 'National Day'],
    ['SG', '2024-08-09', 'National Day'],
    ['IN', '2024-11-01', 'Diwali Laxmi Pujan'],
    ['IN', '2024-01-22', 'special holiday'],
    ['AU', '2025-04-25', 'Anzac Day'],
    ['NZ', '2025-06-20', 'Matariki'],
    ['NZ', '2025-02-06', 'Waitangi Day'],
    ['CA', '2025-05-19', 'Victoria Day'],
    ['CA', '2025-10-13', 'Thanksgiving (US is open)'],
    ['MX', '2025-12-12', 'Virgin of Guadalupe'],
    ['BR', '2025-03-03', 'Carnival Monday'],
    ['BR', '2025-11-20', 'Black Consciousness Day (national from 2024)'],
    ['CL', '2025-09-18', 'Independence Day'],
    ['TH', '2025-04-14', 'Songkran'],
    ['MY', '2025-09-16', 'Malaysia Day'],
    ['ID', '2024-12-31', 'year-end holiday'],
    ['PH', '2025-06-12', 'Independence Day'],
    ['DE', '2025-12-31', "New Year's Eve (Xetra trading calendar)"],
    ['SE', '2025-12-24', 'Christmas Eve (Nasdaq Nordic holidays)'],
    ['TR', '2025-03-31', 'Ramadan Feast day 2 (Borsa Istanbul holidays)'],
    ['SA', '2022-09-22', 'National Day on Friday, made up on Thursday (Tadawul filing)'],
    ['IL', '2025-04-13', 'Passover, first day (TASE trading vacations)'],
    ['HK', '2023-09-01', 'Typhoon Saola, signal 8 (HKEX notice)'],
    ['HK', '2023-09-08', 'black rainstorm warning (HKEX notice)'],
    ['HK', '2023-09-08', 'black rainstorm warning all day (HKEX announcement)'],
    ['CN', '2024-02-09', 'Spring Festival eve: last trading day was 2024-02-08 (SSE notice)'],
    ['CN', '2026-02-23', 'Spring Festival 2026 (SSE notice)'],
    ['KR', '2025-01-28', 'Seollal eve (KRX holidays)'],
    ['KR', '2024-02-09', 'Seollal eve (KRX holidays)'],
    ['KR', '2021-02-11', 'Seollal eve (KRX holidays)'],
    ['KR', '2022-01-31', 'Seollal eve (KRX holidays)'],
    ['KR', '2026-02-16', 'Seollal eve (KRX holidays)'],
    ['TW', '2024-02-06', 'settlement only before Lunar New Year (TWSE schedule)'],
    ['TW', '2024-07-24', 'Typhoon Gaemi (TWSE)'],
    ['TW', '2025-01-27', 'Lunar New Year adjusted holiday (TWSE schedule)'],
    ['TW', '2025-05-30', 'Dragon Boat Festival observed (TWSE schedule)'],
    ['TW', '2025-05-01', 'Labour Day (TWSE schedule)'],
    ['IN', '2026-04-03', 'Good Friday (BSE/NSE 2026 circular)'],
    ['IN', '2026-11-10', 'Diwali Balipratipada (BSE/NSE 2026 circular)'],
    ['PH', '2025-01-29', 'Chinese New Year, special non-working day (PSE)'],
    ['PH', '2024-11-01', "All Saints' Day, special non-working day (PSE)"],
    ['PH', '2025-05-12', 'national elections (PSE)'],
    ['ID', '2024-02-14', 'general election (IDX)'],
    ['ID', '2024-11-27', 'regional elections (IDX)'],
    ['ID', '2025-04-07', 'Eid al-Fitr collective leave (IDX)'],
    ['MY', '2025-02-11', 'Thaipusam (Bursa Malaysia)'],
    ['MY', '2024-02-01', 'Federal Territory Day (Bursa Malaysia)'],
    ['MY', '2025-03-31', 'Hari Raya Aidilfitri day 1 (Bursa Malaysia)'],
    ['MY', '2025-04-01', 'Hari Raya Aidilfitri day 2 (Bursa Malaysia)'],
    ['NZ', '2025-10-27', 'Labour Day (NZX)'],
    ['COMMODITIES', '2025-04-18', 'Good Friday'],
    ['FOREX', '2025-12-25', 'Christmas'],
  ])('%s is closed on %s (%s)', (code, date) => {
    expect(day(code, date)).toBeNull();
    expect(holidaysBetween(code, date, date)).toEqual([expect.objectContaining({ date, status: 'closed', closeMs: null })]);
  });

  test.each([
    ['US', '2025-10-13', 'Columbus Day'],
    ['US', '2025-11-11', 'Veterans Day'],
    ['US', '2021-12-31', 'New Year on Saturday is not observed on Friday'],
    ['DE', '2022-06-06', 'Whit Monday is a trading day since 2022'],
    ['FR', '2025-05-29', 'Ascension'],
    ['DK', '2024-04-26', 'Great Prayer Day abolished'],
    ['GB', '2020-05-04', 'early May bank holiday moved to VE Day'],
    ['KR', '2025-01-31', 'the day after Seollal 2025 was Jan 30'],
    ['CN', '2024-02-08', 'last trading day before the 2024 Spring Festival'],
    ['TW', '2025-01-22', 'last trading day before the 2025 Lunar New Year'],
    ['MY', '2025-03-17', 'Nuzul Al-Quran 2025 was on 03-18'],
    ['PH', '2024-08-21', 'Ninoy Aquino Day 2024 moved to 08-23'],
    ['SA', '2023-09-24', 'National Day on Saturday is not made up (reference sessions XSAU; no Tadawul notice)'],
    ['SA', '2025-02-23', 'Founding Day on Saturday is not made up (reference sessions XSAU; no Tadawul notice)'],
    ['HK', '2018-09-17', 'Typhoon Mangkhut had passed (Business Standard 2018-09-17: Hang Seng closed down 1.3%)'],
  ])('%s trades on %s (%s)', (code, date) => {
    expect(day(code, date)).not.toBeNull();
  });
});

describe('weekend rules', () => {
  test('Saudi Exchange trades Sunday and rests Friday-Saturday', () => {
    expect(day('SA', '2025-03-09')).toEqual(full('2025-03-09T07:00', '2025-03-09T12:00'));
    expect(day('SA', '2025-03-14')).toBeNull();
    expect(day('SA', '2025-03-15')).toBeNull();
  });

  test('TASE trades Sunday (closing 15:40) until 2026 and Friday (closing 13:50) from 2026-01-05', () => {
    expect(day('IL', '2025-03-16')).toEqual(full('2025-03-16T07:59', '2025-03-16T13:40'));
    expect(day('IL', '2025-03-14')).toBeNull();
    expect(day('IL', '2026-01-04')).not.toBeNull();
    expect(day('IL', '2026-01-11')).toBeNull();
    expect(day('IL', '2026-01-09')).toEqual(full('2026-01-09T07:59', '2026-01-09T11:50'));
  });

  test('stock markets rest on Saturday and Sunday', () => {
    expect(sessionsBetween('US', '2025-03-15', '2025-03-16')).toEqual([]);
    expect(sessionsBetween('JP', '2025-03-15', '2025-03-16')).toEqual([]);
  });
});

describe('early closes', () => {
  test.each([
    ['US', '2025-11-28', early('2025-11-28T14:30', '2025-11-28T18:00'), 'day after Thanksgiving, 13:00 ET'],
    ['US', '2024-12-24', early('2024-12-24T14:30', '2024-12-24T18:00'), 'Christmas Eve, 13:00 ET'],
    ['US', '2025-07-03', early('2025-07-03T13:30', '2025-07-03T17:00'), 'eve of Independence Day, 13:00 EDT'],
    ['GB', '2024-12-24', early('2024-12-24T08:00', '2024-12-24T12:30'), 'Christmas Eve, 12:30'],
    ['GB', '2024-12-31', early('2024-12-31T08:00', '2024-12-31T12:30'), "New Year's Eve, 12:30"],
    ['FR', '2024-12-24', early('2024-12-24T08:00', '2024-12-24T13:05'), 'Euronext 14:05 CET'],
    ['PT', '2024-12-31', early('2024-12-31T08:00', '2024-12-31T13:05'), 'Euronext 14:05 CET in Lisbon'],
    ['ES', '2025-12-24', early('2025-12-24T08:00', '2025-12-24T13:00'), 'BME 14:00'],
    ['TR', '2024-10-28', early('2024-10-28T07:00', '2024-10-28T09:30'), 'Republic Day eve, 12:30'],
    ['AU', '2024-12-24', early('2024-12-23T23:00', '2024-12-24T03:10'), 'ASX 14:10 AEDT'],
    ['CA', '2024-12-24', early('2024-12-24T14:30', '2024-12-24T18:00'), 'TSX 13:00'],
    ['SG', '2024-12-24', early('2024-12-24T01:00', '2024-12-24T04:00'), 'SGX half day'],
    ['SE', '2025-04-17', early('2025-04-17T07:00', '2025-04-17T11:00'), 'Maundy Thursday, 13:00 CEST'],
    ['DE', '2025-12-30', early('2025-12-30T08:00', '2025-12-30T13:00'), 'last trading day of the year, 14:00 CET'],
    ['TR', '2024-04-09', early('2024-04-09T07:00', '2024-04-09T09:30'), 'Ramadan Feast eve, 12:30'],
    ['NZ', '2024-12-24', early('2024-12-23T21:00', '2024-12-23T23:45'), 'NZX 12:45 NZDT'],
    ['IL', '2025-04-15', early('2025-04-15T06:59', '2025-04-15T11:15'), 'Passover intermediate day, 14:15'],
    ['ETFS', '2025-11-28', early('2025-11-28T09:00', '2025-11-28T22:00'), 'late session ends 17:00 ET'],
  ])('%s closes early on %s', (code, date, expected) => {
    expect(day(code as string, date as string)).toEqual(expected);
    expect(holidaysBetween(code as string, date as string, date as string)).toEqual([
      expect.objectContaining({ status: 'early_close', closeMs: Date.parse(`${expected.close}:00Z`) }),
    ]);
  });

  test('a Hong Kong half day ends at noon and drops the lunch break', () => {
    expect(day('HK', '2024-02-09')).toEqual(early('2024-02-09T01:30', '2024-02-09T04:00'));
  });
});

describe('lunch breaks', () => {
  test.each([
    ['JP', '2025-03-12', '2025-03-12T02:30', '2025-03-12T03:30'],
    ['HK', '2025-03-12', '2025-03-12T04:00', '2025-03-12T05:00'],
    ['CN', '2025-03-12', '2025-03-12T03:30', '2025-03-12T05:00'],
    ['MY', '2025-03-12', '2025-03-12T04:30', '2025-03-12T06:30'],
    ['TH', '2025-03-12', '2025-03-12T05:30', '2025-03-12T07:30'],
    ['ID', '2025-03-14', '2025-03-14T04:30', '2025-03-14T07:00'],
  ])('%s pauses for lunch on %s', (code, date, breakStart, breakEnd) => {
    expect(day(code, date)).toEqual(expect.objectContaining({ breakStart, breakEnd }));
    const middle = (Date.parse(`${breakStart}:00Z`) + Date.parse(`${breakEnd}:00Z`)) / 2;
    expect(isOpenAt(code, middle)).toBe(false);
    expect(isOpenAt(code, Date.parse(`${breakStart}:00Z`) - 60_000)).toBe(true);
    expect(isOpenAt(code, Date.parse(`${breakEnd}:00Z`))).toBe(true);
  });
});

describe('daylight saving time', () => {
  test('in the March weeks when New York has switched and London has not, the gap narrows by an hour', () => {
    expect(day('US', '2025-03-07')?.open).toBe('2025-03-07T14:30');
    expect(day('US', '2025-03-10')?.open).toBe('2025-03-10T13:30');
    expect(day('GB', '2025-03-10')?.open).toBe('2025-03-10T08:00');
    expect(day('GB', '2025-03-31')?.open).toBe('2025-03-31T07:00');
    expect(day('DE', '2025-03-28')?.close).toBe('2025-03-28T16:30');
    expect(day('DE', '2025-03-31')?.close).toBe('2025-03-31T15:30');
  });

  test('in autumn Europe falls back a week before New York', () => {
    expect(day('GB', '2024-10-25')?.open).toBe('2024-10-25T07:00');
    expect(day('GB', '2024-10-28')?.open).toBe('2024-10-28T08:00');
    expect(day('US', '2024-11-01')?.open).toBe('2024-11-01T13:30');
    expect(day('US', '2024-11-04')?.open).toBe('2024-11-04T14:30');
  });

  test('Sydney leaves daylight time in April (southern hemisphere)', () => {
    expect(day('AU', '2025-04-04')?.open).toBe('2025-04-03T23:00');
    expect(day('AU', '2025-04-07')?.open).toBe('2025-04-07T00:00');
  });

  test('BMV trades 08:30-15:00 Mexico City in US winter and 07:30-14:00 while only New York is on daylight time', () => {
    // Mexico abolished daylight time in 2022; BMV keeps the New York session (09:30-16:00 ET).
    expect(day('MX', '2023-03-10')).toEqual(full('2023-03-10T14:30', '2023-03-10T21:00'));
    expect(day('MX', '2023-03-13')).toEqual(full('2023-03-13T13:30', '2023-03-13T20:00'));
    expect(day('MX', '2023-11-06')).toEqual(full('2023-11-06T14:30', '2023-11-06T21:00'));
    // Before 2022 both zones switched, on different dates: aligned in summer, an hour apart in March.
    expect(day('MX', '2021-07-01')).toEqual(full('2021-07-01T13:30', '2021-07-01T20:00'));
    expect(day('MX', '2021-03-16')).toEqual(full('2021-03-16T13:30', '2021-03-16T20:00'));
  });

  test('B3 closes at 17:00 while New York is on daylight time and at 18:00 otherwise', () => {
    expect(day('BR', '2025-07-01')?.close).toBe('2025-07-01T20:00');
    expect(day('BR', '2025-12-01')?.close).toBe('2025-12-01T21:00');
  });
});

describe('trading-hours changes', () => {
  test('Tokyo closes at 15:00 until 2024-11-01 and at 15:30 from 2024-11-05', () => {
    expect(day('JP', '2024-11-01')?.close).toBe('2024-11-01T06:00');
    expect(day('JP', '2024-11-05')?.close).toBe('2024-11-05T06:30');
  });

  test('Korea Exchange closes at 15:00 until July 2016 and at 15:30 from 2016-08-01', () => {
    expect(day('KR', '2016-07-29')?.close).toBe('2016-07-29T06:00');
    expect(day('KR', '2016-08-01')?.close).toBe('2016-08-01T06:30');
  });
});
