// The slots a symbol is expected to have, on named real dates (a US Wednesday, a holiday, an early
// close, Tokyo's lunch break, the forex Sunday open, an overnight session), a property over many
// days and markets, and the report's cut at the bar in progress.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import type { Interval } from '../../src/domain/coverage.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, TIMEFRAMES, type Timeframe } from '../../src/domain/timeframes.ts';
import { alignmentFor } from '../../src/market/bar-alignment.ts';
import { coverageOf, expectedSlots, tradingCalendarOf, tradingIntervals, type CoverageSource } from '../../src/market/coverage-slots.ts';

const US_STOCK = { assetClass: 'stocks' as const, market: 'US' };
const CRYPTO = { assetClass: 'crypto' as const, market: null };
const day = (iso: string) => Date.parse(`${iso}T00:00:00Z`);
const at = (iso: string) => Date.parse(iso);

function slotsOf(entry: { assetClass: Parameters<typeof tradingCalendarOf>[0]['assetClass']; market: string | null }, tf: Timeframe, fromDate: string, toDate: string) {
  const fromMs = day(fromDate);
  const toMs = day(toDate) + DAY_MS;
  const trading = tradingIntervals(tradingCalendarOf(entry), fromMs, toMs);
  return expectedSlots(alignmentFor(entry), tf, trading, fromMs, toMs);
}

describe('tradingCalendarOf', () => {
  test('stocks and indices trade on their market; other classes on their class market', () => {
    expect(tradingCalendarOf({ assetClass: 'stocks', market: 'DE' })).toBe('DE');
    expect(tradingCalendarOf({ assetClass: 'indices', market: 'JP' })).toBe('JP');
    expect(tradingCalendarOf({ assetClass: 'etfs', market: 'US' })).toBe('ETFS');
    expect(tradingCalendarOf({ assetClass: 'perpetuals', market: null })).toBe('CRYPTO');
    expect(tradingCalendarOf({ assetClass: 'overnight', market: 'US' })).toBe('OVERNIGHT');
    // A market the calendar does not know falls back to the class's.
    expect(tradingCalendarOf({ assetClass: 'stocks', market: 'ZZ' })).toBe('US');
  });
});

describe('expectedSlots on named dates', () => {
  test('crypto: every minute of the day, and 24 hours', () => {
    const minutes = slotsOf(CRYPTO, '1m', '2026-03-04', '2026-03-04');
    expect(minutes.starts.length).toBe(1440);
    expect(minutes.starts[0]).toBe(day('2026-03-04'));
    expect(minutes.ends.at(-1)).toBe(day('2026-03-05'));
    expect(slotsOf(CRYPTO, '1h', '2026-03-04', '2026-03-04').starts.length).toBe(24);
  });

  test('US stock on Wednesday 2026-03-04: hourly slots from the 09:30 open, the last one cut at the close', () => {
    const hours = slotsOf(US_STOCK, '1h', '2026-03-04', '2026-03-04');
    expect(hours.starts.map((t) => new Date(t).toISOString().slice(11, 16))).toEqual(['14:30', '15:30', '16:30', '17:30', '18:30', '19:30', '20:30']);
    expect(hours.ends.at(-1)).toBe(at('2026-03-04T21:00:00Z'));
    expect(slotsOf(US_STOCK, '4h', '2026-03-04', '2026-03-04')).toEqual({
      starts: [at('2026-03-04T14:30:00Z'), at('2026-03-04T18:30:00Z')],
      ends: [at('2026-03-04T18:30:00Z'), at('2026-03-04T21:00:00Z')],
    });
    expect(slotsOf(US_STOCK, '1m', '2026-03-04', '2026-03-04').starts.length).toBe(390);
    expect(slotsOf(US_STOCK, '1d', '2026-03-04', '2026-03-04')).toEqual({ starts: [day('2026-03-04')], ends: [day('2026-03-05')] });
  });

  test('US stock: no slots on a weekend or on Martin Luther King Jr. Day; 210 minutes on the day after Thanksgiving', () => {
    expect(slotsOf(US_STOCK, '1m', '2026-03-07', '2026-03-08').starts).toEqual([]);
    expect(slotsOf(US_STOCK, '1d', '2026-01-19', '2026-01-19').starts).toEqual([]);
    const early = slotsOf(US_STOCK, '1m', '2026-11-27', '2026-11-27');
    expect(early.starts.length).toBe(210);
    expect(early.ends.at(-1)).toBe(at('2026-11-27T18:00:00Z'));
  });

  test("Tokyo: no minute slots in the lunch break; an hour slot that holds some trading counts", () => {
    const jp = { assetClass: 'stocks' as const, market: 'JP' };
    const minutes = slotsOf(jp, '1m', '2026-03-04', '2026-03-04');
    expect(minutes.starts.length).toBe(330);
    expect(minutes.starts.some((t) => t >= at('2026-03-04T02:30:00Z') && t < at('2026-03-04T03:30:00Z'))).toBe(false);
    expect(slotsOf(jp, '1h', '2026-03-04', '2026-03-04').starts.map((t) => new Date(t).getUTCHours())).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });

  test('forex daily slots: the Sunday that opens the week at 22:00 UTC is one, the Saturday is not', () => {
    const fx = { assetClass: 'forex' as const, market: null };
    expect(slotsOf(fx, '1d', '2026-02-28', '2026-03-02').starts).toEqual([day('2026-03-01'), day('2026-03-02')]);
  });

  test('overnight: the daily slot is the UTC date the session ends on, ending at its close', () => {
    const night = { assetClass: 'overnight' as const, market: 'US' };
    expect(slotsOf(night, '1d', '2026-03-03', '2026-03-03')).toEqual({ starts: [day('2026-03-03')], ends: [at('2026-03-03T09:00:00Z')] });
    expect(slotsOf(night, '1h', '2026-03-03', '2026-03-03').starts.length).toBe(8);
  });
});

describe('expectedSlots, any day and market', () => {
  const placed = [
    US_STOCK,
    CRYPTO,
    { assetClass: 'stocks' as const, market: 'JP' },
    { assetClass: 'stocks' as const, market: 'DE' },
    { assetClass: 'forex' as const, market: null },
    { assetClass: 'etfs' as const, market: 'US' },
    { assetClass: 'commodities' as const, market: null },
    { assetClass: 'overnight' as const, market: 'US' },
  ];

  test('slots are ordered, disjoint, inside the window, each over some trading time, and every trading minute is in one', () => {
    fc.assert(
      fc.property(fc.constantFrom(...placed), fc.constantFrom(...TIMEFRAMES), fc.integer({ min: 0, max: 700 }), fc.integer({ min: 0, max: 3 }), (entry, tf, offset, span) => {
        const fromMs = day('2025-01-01') + offset * DAY_MS;
        const toMs = fromMs + (span + 1) * DAY_MS;
        const trading = tradingIntervals(tradingCalendarOf(entry), fromMs, toMs);
        const { starts, ends } = expectedSlots(alignmentFor(entry), tf, trading, fromMs, toMs);
        const overlapsTrading = (a: number, b: number) => trading.some((i: Interval) => i.fromMs < b && i.toMs > a);
        for (let k = 0; k < starts.length; k++) {
          expect(starts[k]! >= fromMs && starts[k]! < toMs && ends[k]! > starts[k]!).toBe(true);
          if (k > 0) expect(ends[k - 1]! <= starts[k]!).toBe(true);
          expect(overlapsTrading(starts[k]!, ends[k]!)).toBe(true);
        }
        // Minute by minute (every session edge is a whole minute), one in ten minutes to keep it quick.
        for (const piece of trading) {
          for (let x = piece.fromMs; x < piece.toMs; x += 10 * MINUTE_MS) {
            expect(starts.some((s, k) => x >= s && x < ends[k]!)).toBe(true);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('coverageOf', () => {
  const entry = { id: 7, ...CRYPTO };
  const params = { tf: '1h' as const, fromMs: day('2026-03-04'), toMs: day('2026-03-05') };
  const asked: [string, number, number][] = [];
  const source: CoverageSource = {
    barTimes: (_id, _tf, from, to) => (asked.push(['bars', from, to]), [0, 1, 2, 3].map((h) => params.fromMs + h * HOUR_MS).filter((t) => t >= from && t < to)),
    liveIntervals: (_id, from, to) => (asked.push(['live', from, to]), [{ fromMs: params.fromMs + 5 * HOUR_MS, toMs: params.fromMs + 9 * HOUR_MS }]),
  };

  test('classifies only the slots that ended by the cut: the bar in progress and the future are left out', () => {
    asked.length = 0;
    const cut = params.fromMs + 10 * HOUR_MS + 30 * MINUTE_MS;
    const report = coverageOf(source, entry, params, cut);
    expect(report).toEqual({
      ranges: [
        { fromMs: params.fromMs, toMs: params.fromMs + 4 * HOUR_MS, kind: 'bars', count: 4 },
        { fromMs: params.fromMs + 4 * HOUR_MS, toMs: params.fromMs + 5 * HOUR_MS, kind: 'gap', count: 1 },
        { fromMs: params.fromMs + 5 * HOUR_MS, toMs: params.fromMs + 9 * HOUR_MS, kind: 'quiet', count: 4 },
        { fromMs: params.fromMs + 9 * HOUR_MS, toMs: params.fromMs + 10 * HOUR_MS, kind: 'gap', count: 1 },
      ],
      totals: { slots: 10, bars: 4, quiet: 4, gaps: 2, pending: 0 },
      classifiedToMs: cut,
    });
    // Reads stop at the end of the last slot classified.
    expect(asked).toEqual([
      ['bars', params.fromMs, params.fromMs + 10 * HOUR_MS],
      ['live', params.fromMs, params.fromMs + 10 * HOUR_MS],
    ]);
  });

  test('a window wholly past is classified to its end; one wholly ahead classifies nothing and reads nothing', () => {
    expect(coverageOf(source, entry, params, params.toMs + DAY_MS).classifiedToMs).toBe(params.toMs);
    asked.length = 0;
    expect(coverageOf(source, entry, params, params.fromMs - DAY_MS)).toEqual({ ranges: [], totals: { slots: 0, bars: 0, quiet: 0, gaps: 0, pending: 0 }, classifiedToMs: params.fromMs });
    expect(asked).toEqual([]);
  });
});
