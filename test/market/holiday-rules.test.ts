// Date rules the calendars are built from: Easter, nth weekdays, observed-day shifts and the
// dated-table format.
import { describe, expect, test } from 'bun:test';
import { easterSunday, isValidDate, lastWeekday, nthWeekday, weekdayOnOrAfter } from '../../src/market/civil-date.ts';
import { christmasPair, mondayisedPair, observedNearestWeekday, parseDatedTable } from '../../src/market/holiday-rules.ts';

describe('civil dates', () => {
  test.each([[2015, '2015-04-05'], [2019, '2019-04-21'], [2024, '2024-03-31'], [2025, '2025-04-20'], [2027, '2027-03-28']])(
    'Easter Sunday %i is %s', (year, date) => expect(easterSunday(year)).toBe(date),
  );

  test('nth and last weekday of a month', () => {
    expect(nthWeekday(2025, 11, 4, 4)).toBe('2025-11-27'); // Thanksgiving
    expect(nthWeekday(2025, 1, 1, 3)).toBe('2025-01-20'); // MLK Day
    expect(lastWeekday(2025, 5, 1)).toBe('2025-05-26'); // Memorial Day
    expect(weekdayOnOrAfter('2025-06-19', 5)).toBe('2025-06-20'); // Midsummer Eve
  });

  test('rejects impossible dates', () => {
    expect(isValidDate('2025-02-29')).toBe(false);
    expect(isValidDate('2024-02-29')).toBe(true);
    expect(isValidDate('2024-2-29')).toBe(false);
  });
});

describe('observed-day shifts', () => {
  test('US style: Saturday to Friday, Sunday to Monday', () => {
    expect(observedNearestWeekday('2026-07-04')).toBe('2026-07-03');
    expect(observedNearestWeekday('2021-07-04')).toBe('2021-07-05');
  });

  test('Commonwealth Christmas and Boxing Day substitutes', () => {
    expect(christmasPair(2021)).toEqual(['2021-12-27', '2021-12-28']); // Saturday Christmas
    expect(christmasPair(2022)).toEqual(['2022-12-27', '2022-12-26']); // Sunday Christmas
    expect(christmasPair(2020)).toEqual(['2020-12-25', '2020-12-28']); // Boxing Day on Saturday
    expect(mondayisedPair('2022-01-01')).toEqual(['2022-01-03', '2022-01-04']);
  });
});

describe('dated tables', () => {
  test('ranges, lists and early closes expand per date and per year', () => {
    const table = parseDatedTable(`
      # comment
      2018-12-31..2019-01-01 New Year
      2024-03-01,2024-03-04 Festival
      2024-12-24 12:00 Half day
    `);
    expect(table.get(2018)).toEqual([{ date: '2018-12-31', name: 'New Year' }]);
    expect(table.get(2019)).toEqual([{ date: '2019-01-01', name: 'New Year' }]);
    expect(table.get(2024)).toEqual([
      { date: '2024-03-01', name: 'Festival' },
      { date: '2024-03-04', name: 'Festival' },
      { date: '2024-12-24', name: 'Half day', closeMin: 720 },
    ]);
  });

  test('sources: @source covers the lines after it, "| source" one line; two times are other hours', () => {
    const table = parseDatedTable(`
      2023-01-02 No source yet
      @source Notice A
      2023-02-01 Closure
      2023-02-02 11:01 Halted | Notice B
      2023-02-03 09:00-12:45 Short day
    `);
    expect(table.get(2023)).toEqual([
      { date: '2023-01-02', name: 'No source yet' },
      { date: '2023-02-01', name: 'Closure', source: 'Notice A' },
      { date: '2023-02-02', name: 'Halted', closeMin: 661, source: 'Notice B' },
      { date: '2023-02-03', name: 'Short day', openMin: 540, closeMin: 765, source: 'Notice A' },
    ]);
  });

  test('a malformed line is rejected when the table loads', () => {
    expect(() => parseDatedTable('24-12-2024 Christmas')).toThrow('bad holiday table line');
  });
});
