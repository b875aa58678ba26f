// prev and range routes over real HTTP: paging, sorting, windows, settle lag, caching headers,
// US session alignment. The server clock runs from Wed 2026-03-04 15:30 UTC (10:30 New York).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { PrevBarSchema, RangeSchema } from '../../src/domain/schemas.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
// Two weeks of minutes and a year of days: the harness waits for the whole history build, which
// takes a minute and more on a busy 2-core machine.
beforeAll(async () => {
  server = await startServer({ args: ['--history-days', '14', '--history-years', '1'] });
}, 300_000);
afterAll(() => server.stop());

type Bar = { o: number; h: number; l: number; c: number; v: number | null; t: number };
const MIN = 60_000;

describe('range route', () => {
  test('has the spec shape; bars are valid and sorted desc by default', async () => {
    const { status, body } = await server.json('/crypto/agg/BTCUSD/1/minute/2026-03-03/2026-03-04');
    expect(status).toBe(200);
    expect(Value.Check(RangeSchema, body)).toBe(true);
    expect(body.results_count).toBe(500);
    expect(body.total_count).toBeGreaterThan(1440 + 900);
    expect(body.next_offset).toBe(500);
    const bars: Bar[] = body.results;
    for (let i = 0; i < bars.length; i++) {
      const b = bars[i]!;
      expect(Object.keys(b)).toEqual(['o', 'h', 'l', 'c', 'v', 't']);
      expect(b.l).toBeLessThanOrEqual(Math.min(b.o, b.c));
      expect(b.h).toBeGreaterThanOrEqual(Math.max(b.o, b.c));
      if (i > 0) expect(b.t).toBeLessThan(bars[i - 1]!.t);
    }
  });

  // Past days only: a live bar sealed between two pages would move the pages under the reader.
  test('pages with next_offset cover the window exactly once, in both sort orders', async () => {
    for (const sort of ['asc', 'desc']) {
      const seen: number[] = [];
      let offset: number | null = 0;
      let total = 0;
      while (offset !== null) {
        const { body }: { body: { results: Bar[]; next_offset: number | null; total_count: number; results_count: number } } = await server.json(`/crypto/agg/ETHUSD/5/minute/2026-03-01/2026-03-03?limit=200&offset=${offset}&sort=${sort}`);
        expect(body.results_count).toBe(body.results.length);
        seen.push(...body.results.map((b) => b.t));
        total = body.total_count;
        offset = body.next_offset;
      }
      expect(seen.length).toBe(total);
      expect(new Set(seen).size).toBe(total);
      const sorted = [...seen].sort((a, b) => (sort === 'asc' ? a - b : b - a));
      expect(seen).toEqual(sorted);
    }
  });

  test('limit 5000 returns 5000 bars; an offset past the end returns an empty page', async () => {
    // Days before the clock's: no live minute ends between the two requests and changes the count.
    const full = await server.json('/crypto/agg/BTCUSD/1/minute/2026-02-20/2026-03-03?limit=5000');
    expect(full.body.results_count).toBe(5000);
    const past = await server.json(`/crypto/agg/BTCUSD/1/minute/2026-02-20/2026-03-03?offset=${full.body.total_count}`);
    expect(past.body).toEqual({ symbol: 'BTCUSD', results_count: 0, total_count: full.body.total_count, results: [], next_offset: null });
  });

  test('dates are inclusive UTC days', async () => {
    const { body } = await server.json('/crypto/agg/BTCUSD/1/hour/2026-03-03/2026-03-03?sort=asc');
    expect(body.total_count).toBe(24);
    expect(body.results[0].t).toBe(Date.UTC(2026, 2, 3));
    expect(body.results[23].t).toBe(Date.UTC(2026, 2, 3, 23));
  });

  test('coarse bars equal the roll-up of the 1-minute bars of the same window', async () => {
    const minutes: Bar[] = (await server.json('/crypto/agg/SOLUSD/1/minute/2026-03-03/2026-03-03?sort=asc&limit=5000')).body.results;
    const hours: Bar[] = (await server.json('/crypto/agg/SOLUSD/1/hour/2026-03-03/2026-03-03?sort=asc')).body.results;
    for (const h of hours) {
      const inside = minutes.filter((m) => m.t >= h.t && m.t < h.t + 3_600_000);
      expect(h).toEqual({
        o: inside[0]!.o,
        h: Math.max(...inside.map((m) => m.h)),
        l: Math.min(...inside.map((m) => m.l)),
        c: inside.at(-1)!.c,
        v: Math.round(inside.reduce((s, m) => s + m.v!, 0) * 1e8) / 1e8,
        t: h.t,
      });
    }
  });

  test('US stock hourly bars start at 09:30 New York, 4-hour bars at 09:30 and 13:30, minutes only in the session', async () => {
    const hours: Bar[] = (await server.json('/stocks/agg/US:AAPL/1/hour/2026-03-03/2026-03-03?sort=asc')).body.results;
    // 2026-03-03 is EST (UTC-5): 09:30 New York = 14:30 UTC.
    expect(hours.map((b) => new Date(b.t).toISOString().slice(11, 16))).toEqual(['14:30', '15:30', '16:30', '17:30', '18:30', '19:30', '20:30']);
    const fours: Bar[] = (await server.json('/stocks/agg/US:AAPL/4/hour/2026-03-03/2026-03-03?sort=asc')).body.results;
    expect(fours.map((b) => new Date(b.t).toISOString().slice(11, 16))).toEqual(['14:30', '18:30']);
    const minutes: Bar[] = (await server.json('/stocks/agg/US:AAPL/1/minute/2026-03-03/2026-03-03?sort=asc&limit=5000')).body.results;
    expect(minutes.length).toBe(390);
    expect(new Date(minutes[0]!.t).toISOString()).toBe('2026-03-03T14:30:00.000Z');
    expect(new Date(minutes.at(-1)!.t).toISOString()).toBe('2026-03-03T20:59:00.000Z');
    expect(minutes.every((m) => typeof m.v === 'number' && m.v > 0)).toBe(true);
  });

  test('forex and index bars have null volume; commodity bars a number', async () => {
    for (const [path, isNull] of [['/forex/agg/EURUSD/1/hour/2026-03-03/2026-03-03', true], ['/indices/agg/US500/1/hour/2026-03-03/2026-03-03', true], ['/commodities/agg/XAUUSD/1/hour/2026-03-03/2026-03-03', false]] as const) {
      const bars: Bar[] = (await server.json(path)).body.results;
      expect(bars.length).toBeGreaterThan(0);
      expect(bars.every((b) => (b.v === null) === isNull)).toBe(true);
    }
  });

  test('the raw forex line has candles of its own', async () => {
    const [raw, cons] = await Promise.all([server.json('/forex/agg/EURUSD.RAW/1/hour/2026-03-03/2026-03-03'), server.json('/forex/agg/EURUSD/1/hour/2026-03-03/2026-03-03')]);
    expect(raw.body.symbol).toBe('EURUSD.RAW');
    expect(raw.body.total_count).toBe(cons.body.total_count);
    expect(raw.body.results).not.toEqual(cons.body.results);
  });

  test.each([
    ['/crypto/agg/BTCUSD/1/week/2026-03-01/2026-03-02', 'invalid timespan "week": allowed values are minute, hour, day'],
    ['/crypto/agg/BTCUSD/2/minute/2026-03-01/2026-03-02', 'unsupported multiplier/timespan pair 2/minute: valid combinations are 1/minute, 5/minute, 15/minute, 1/hour, 4/hour, 1/day'],
    ['/crypto/agg/BTCUSD/1/minute/2026-01-01/2026-03-01', 'window of 60 days exceeds the maximum span of 31 days for 1 minute bars'],
    ['/crypto/agg/BTCUSD/1/day/2026-03-02/2026-03-01', 'invalid window: to (2026-03-01) must be on or after from (2026-03-02)'],
    ['/crypto/agg/BTCUSD/1/day/2026-02-30/2026-03-01', 'invalid from date "2026-02-30": expected a calendar date YYYY-MM-DD from 1970 on'],
    ['/crypto/agg/BTCUSD/1/day/2026-03-01/2026-03-02?limit=0', 'invalid limit "0": expected an integer from 1 to 5000'],
    ['/crypto/agg/BTCUSD/1/day/2026-03-01/2026-03-02?limit=5001', 'invalid limit "5001": expected an integer from 1 to 5000'],
    ['/crypto/agg/BTCUSD/1/day/2026-03-01/2026-03-02?offset=-1', 'invalid offset "-1": expected an integer from 0 to 1000000000'],
    ['/crypto/agg/BTCUSD/1/day/2026-03-01/2026-03-02?sort=random', 'invalid sort "random": allowed values are asc, desc'],
  ])('%s → 400 %p', async (path, message) => {
    const { status, body } = await server.json(path);
    expect(status).toBe(400);
    expect(body.error).toBe(message);
  });

  test('timespan is case-insensitive', async () => {
    expect((await server.json('/crypto/agg/BTCUSD/1/DAY/2026-03-01/2026-03-02')).status).toBe(200);
  });
});

describe('prev route', () => {
  test('without interval: the last completed UTC daily bar, no interval fields', async () => {
    const { status, body, headers } = await server.json('/crypto/agg/BTCUSD/prev');
    expect(status).toBe(200);
    expect(Value.Check(PrevBarSchema, body)).toBe(true);
    expect(Object.keys(body)).toEqual(['symbol', 'result']);
    expect(body.result.t).toBe(Date.UTC(2026, 2, 3));
    expect(headers.get('etag')).toBeTruthy();
    expect(headers.get('cache-control')).toMatch(/max-age=\d+/);
    const day = (await server.json('/crypto/agg/BTCUSD/1/day/2026-03-03/2026-03-03')).body.results[0];
    expect(body.result).toEqual(day);
  });

  test.each(['1m', '5m', '15m', '1h', '4h', '1d'])('with interval=%s: the latest settled bar, the same one the range route returns', async (interval) => {
    const { status, body } = await server.json(`/crypto/agg/BTCUSD/prev?interval=${interval}`);
    expect(status).toBe(200);
    expect(Value.Check(PrevBarSchema, body)).toBe(true);
    expect(body.interval).toBe(interval);
    expect(body.bar_start).toBe(body.result.t);
    const size = { '1m': MIN, '5m': 5 * MIN, '15m': 15 * MIN, '1h': 60 * MIN, '4h': 240 * MIN, '1d': 1440 * MIN }[interval]!;
    expect(body.bar_end).toBe(body.bar_start + size);
    expect(body.as_of).toBeGreaterThan(body.bar_end);
    expect(body.as_of - body.bar_end).toBeLessThan(60_000);
    const [m, ts] = { '1m': [1, 'minute'], '5m': [5, 'minute'], '15m': [15, 'minute'], '1h': [1, 'hour'], '4h': [4, 'hour'], '1d': [1, 'day'] }[interval]!;
    const day = new Date(body.bar_start).toISOString().slice(0, 10);
    const range = (await server.json(`/crypto/agg/BTCUSD/${m}/${ts}/${day}/${day}?sort=asc&limit=5000`)).body.results as Bar[];
    expect(range.find((b) => b.t === body.bar_start)).toEqual(body.result);
    // Settled: its end is in the past, and the bar after it (if any) has not settled yet.
    expect(body.bar_end).toBeLessThan(Date.parse('2026-03-04T15:30:00Z') + 10 * 60_000);
  });

  test('If-None-Match with the ETag gets 304; the response says when it can change', async () => {
    const first = await server.get('/crypto/agg/BTCUSD/prev?interval=1h');
    const etag = first.headers.get('etag')!;
    const maxAge = Number(/max-age=(\d+)/.exec(first.headers.get('cache-control')!)![1]);
    expect(maxAge).toBeGreaterThan(0);
    expect(maxAge).toBeLessThanOrEqual(3600 + 5);
    const again = await server.get('/crypto/agg/BTCUSD/prev?interval=1h', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.headers.get('etag')).toBe(etag);
    expect(await again.text()).toBe('');
  });

  test('a closed market returns its last real bar, labelled with its own bar_start', async () => {
    // Tokyo is closed at 15:30 UTC: the last settled hourly bar is from its afternoon session.
    const { body } = await server.json('/stocks/agg/JP:7203/prev?interval=1h');
    expect(new Date(body.bar_start).toISOString().slice(0, 10)).toBe('2026-03-04');
    expect(body.bar_start).toBeLessThan(Date.UTC(2026, 2, 4, 7));
    expect(body.bar_start).toBe(body.result.t);
  });

  test('an unknown interval is a 400 that lists the allowed values', async () => {
    const { status, body } = await server.json('/crypto/agg/BTCUSD/prev?interval=2m');
    expect(status).toBe(400);
    expect(body.error).toBe('invalid interval "2m": allowed values are 1m, 5m, 15m, 1h, 4h, 1d');
  });
});
