// Cell rules of the history readers: epoch numbers in any unit (by magnitude or given), exactly
// floored to ms; ISO-8601 text with and without offsets, read in a zone across DST changes; the
// spellings of numbers the readers take and refuse.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { numberFromText, TimeReader } from '../../../src/ingest/importers/history/cell-values.ts';

describe('epoch numbers', () => {
  const auto = new TimeReader(undefined, 'UTC');

  test('by magnitude: seconds, milliseconds, microseconds, nanoseconds', () => {
    expect(['1704067200', '1704067200123', '1704067200123456', '1704067200123456789'].map((t) => auto.fromText(t))).toEqual([1704067200000, 1704067200123, 1704067200123, 1704067200123]);
    expect(auto.fromText('1704067200.5')).toBe(1704067200500);
    expect(auto.fromText('99999999999')).toBe(99999999999000); // < 1e11: seconds
    expect(auto.fromText('100000000000')).toBe(100000000000); // ≥ 1e11: ms
    expect(auto.fromText('99999999999999')).toBe(99999999999999); // < 1e14: ms
    expect(auto.fromText('100000000000000')).toBe(100000000000); // ≥ 1e14: µs
  });

  test('sub-millisecond parts are floored away, exactly, even past 2^53', () => {
    expect(auto.fromText('1704186000003488999')).toBe(1704186000003);
    expect(auto.fromText('1704186000000999999')).toBe(1704186000000);
    expect(auto.fromBigInt(1704186000000999999n)).toBe(1704186000000);
    expect(auto.fromText('-1500')).toBe(-1500000);
    expect(new TimeReader('us', 'UTC').fromText('-1500')).toBe(-2);
  });

  test('a unit given is used whatever the magnitude', () => {
    expect(new TimeReader('s', 'UTC').fromText('1704067200123')).toBe(1704067200123000);
    expect(new TimeReader('ms', 'UTC').fromText('1704067200')).toBe(1704067200);
    expect(new TimeReader('us', 'UTC').fromNumber(1704067200123456)).toBe(1704067200123);
    expect(new TimeReader('ns', 'UTC').fromText('1704067200123456789')).toBe(1704067200123);
    expect(new TimeReader('iso', 'UTC').fromText('1704067200123')).toBeNaN();
    expect(new TimeReader('iso', 'UTC').fromText('2024-01-01')).toBe(Date.UTC(2024, 0, 1));
  });

  test('JSON numbers: integers by magnitude, fractions through their decimal digits', () => {
    expect(auto.fromNumber(1704067200)).toBe(1704067200000);
    expect(auto.fromNumber(1704067200.123)).toBe(1704067200123);
    expect(auto.fromNumber(1704067200123)).toBe(1704067200123);
    expect(auto.fromNumber(Infinity)).toBeNaN();
  });

  test('property: a ms time written in any unit reads back as that ms', () => {
    fc.assert(
      fc.property(fc.integer({ min: 100_000_000_000, max: 4_000_000_000_000 }), fc.nat({ max: 999_999 }), (ms, below) => {
        expect(auto.fromText(String(ms))).toBe(ms);
        expect(auto.fromText(`${ms}${String(below % 1000).padStart(3, '0')}`)).toBe(ms);
        expect(auto.fromText(`${ms}${String(below).padStart(6, '0')}`)).toBe(ms);
        if (ms % 1000 === 0) expect(auto.fromText(String(ms / 1000))).toBe(ms);
      }),
    );
  });
});

describe('ISO-8601 text', () => {
  const utc = new TimeReader(undefined, 'UTC');
  const ny = new TimeReader(undefined, 'America/New_York');

  test('with an offset or Z the zone does not matter', () => {
    for (const r of [utc, ny]) {
      expect(r.fromText('2024-01-02T14:30:00Z')).toBe(Date.UTC(2024, 0, 2, 14, 30));
      expect(r.fromText('2024-01-02T09:30:00-05:00')).toBe(Date.UTC(2024, 0, 2, 14, 30));
      expect(r.fromText('2024-01-02 20:00:00.1239+0530')).toBe(Date.UTC(2024, 0, 2, 14, 30, 0, 123));
    }
  });

  test('dates and zone-less times are read in the zone, across DST changes', () => {
    expect(utc.fromText('2024-01-02')).toBe(Date.UTC(2024, 0, 2));
    expect(ny.fromText('2024-01-02')).toBe(Date.UTC(2024, 0, 2, 5));
    expect(ny.fromText('2024-07-02 09:30')).toBe(Date.UTC(2024, 6, 2, 13, 30));
    // 2024-03-10: clocks go from 02:00 EST to 03:00 EDT.
    expect(ny.fromText('2024-03-10T01:59:00')).toBe(Date.UTC(2024, 2, 10, 6, 59));
    expect(ny.fromText('2024-03-10T03:00:00')).toBe(Date.UTC(2024, 2, 10, 7, 0));
    // 2024-11-03: clocks go back from 02:00 EDT to 01:00 EST.
    expect(ny.fromText('2024-11-03T00:30:00')).toBe(Date.UTC(2024, 10, 3, 4, 30));
    expect(ny.fromText('2024-11-03T03:00:00')).toBe(Date.UTC(2024, 10, 3, 8, 0));
  });

  test('other ISO forms through luxon; impossible dates and words are not times', () => {
    expect(utc.fromText('20240102T143000Z')).toBe(Date.UTC(2024, 0, 2, 14, 30));
    expect(['2024-02-30', '2023-02-29', '2024-13-01', '2024-01-02T24:00:00', 'yesterday', ''].map((t) => utc.fromText(t))).toEqual([NaN, NaN, NaN, NaN, NaN, NaN]);
    expect(utc.fromText('2024-02-29')).toBe(Date.UTC(2024, 1, 29));
  });

  test('unknown zones are refused', () => {
    expect(TimeReader.isValidZone('Europe/Berlin')).toBe(true);
    expect(TimeReader.isValidZone('UTC')).toBe(true);
    expect(TimeReader.isValidZone('Mars/Olympus')).toBe(false);
  });
});

describe('numbers', () => {
  test('decimals as written; NaN and infinities as values; anything else is not a number', () => {
    expect(['1', '-2.5', '+3', '.5', '5.', '1e3', ' 7 ', 'nan', 'NaN', 'inf', '-Infinity', '+inf'].map(numberFromText)).toEqual([1, -2.5, 3, 0.5, 5, 1000, 7, NaN, NaN, Infinity, -Infinity, Infinity]);
    expect(['', 'abc', '0x10', '1_000', '1,5', '--1', '.', 'e5'].map(numberFromText)).toEqual([undefined, undefined, undefined, undefined, undefined, undefined, undefined, undefined]);
  });
});
