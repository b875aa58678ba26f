import { describe, expect, test } from 'bun:test';
import { ApiError } from '../../src/domain/errors.ts';
import { parseRangeParams } from '../../src/domain/range-params.ts';

const path = (multiplier: string, timespan: string, from = '2026-03-01', to = '2026-03-02') => ({ multiplier, timespan, from, to });

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) return err.message;
    throw err;
  }
  throw new Error('expected a 400');
}

describe('parseRangeParams', () => {
  test('defaults: limit 500, offset 0, sort desc; to is inclusive', () => {
    expect(parseRangeParams(path('1', 'minute'), {})).toEqual({ tf: '1m', fromMs: Date.UTC(2026, 2, 1), toMs: Date.UTC(2026, 2, 3), limit: 500, offset: 0, sort: 'desc' });
  });

  test.each([
    ['1', 'minute', '1m'],
    ['5', 'MINUTE', '5m'],
    ['15', 'Minute', '15m'],
    ['1', 'hour', '1h'],
    ['4', 'hour', '4h'],
    ['1', 'day', '1d'],
  ])('%s/%s is %s (timespan case-insensitive)', (m, ts, tf) => {
    expect(parseRangeParams(path(m, ts), {}).tf).toBe(tf as never);
  });

  test('an unknown timespan lists the allowed ones', () => {
    expect(message(() => parseRangeParams(path('1', 'week'), {}))).toBe('invalid timespan "week": allowed values are minute, hour, day');
  });

  test.each([['2', 'minute'], ['4', 'minute'], ['5', 'hour'], ['15', 'day'], ['x', 'day'], ['-1', 'day']])('pair %s/%s lists the valid combinations', (m, ts) => {
    expect(message(() => parseRangeParams(path(m, ts), {}))).toContain('valid combinations are 1/minute, 5/minute, 15/minute, 1/hour, 4/hour, 1/day');
  });

  test.each([
    ['1', 'minute', 31],
    ['5', 'minute', 90],
    ['15', 'minute', 180],
    ['1', 'hour', 365],
    ['4', 'hour', 730],
    ['1', 'day', 5000],
  ])('%s %s allows %d days and not one more', (m, ts, days) => {
    const from = Date.UTC(2000, 0, 1);
    const day = (n: number) => new Date(from + n * 86_400_000).toISOString().slice(0, 10);
    expect(parseRangeParams(path(m, ts, day(0), day(days - 1)), {}).tf).toBeDefined();
    expect(message(() => parseRangeParams(path(m, ts, day(0), day(days)), {}))).toBe(`window of ${days + 1} days exceeds the maximum span of ${days} days for ${m} ${ts} bars`);
  });

  test.each(['2026-02-30', '2026-13-01', '26-01-01', '2026-1-1', 'yesterday', '1969-12-31'])('a malformed date %p is a 400 naming the parameter', (d) => {
    expect(message(() => parseRangeParams(path('1', 'day', d, '2026-03-01'), {}))).toStartWith('invalid from date');
  });

  test('to before from is a 400', () => {
    expect(message(() => parseRangeParams(path('1', 'day', '2026-03-02', '2026-03-01'), {}))).toBe('invalid window: to (2026-03-01) must be on or after from (2026-03-02)');
  });

  test.each([['limit', '0'], ['limit', '5001'], ['limit', '1.5'], ['limit', 'ten'], ['offset', '-1'], ['offset', '99999999999999']])('%s=%s is a 400 with the allowed range', (name, value) => {
    expect(message(() => parseRangeParams(path('1', 'day'), { [name]: value }))).toStartWith(`invalid ${name}`);
  });

  test('sort accepts asc and desc only', () => {
    expect(parseRangeParams(path('1', 'day'), { sort: 'ASC' }).sort).toBe('asc');
    expect(message(() => parseRangeParams(path('1', 'day'), { sort: 'up' }))).toBe('invalid sort "up": allowed values are asc, desc');
  });
});
