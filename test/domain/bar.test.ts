import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { bucketStart, foldPrice, openBar, rollUp, type Bar } from '../../src/domain/bar.ts';
import { MINUTE_MS, TIMEFRAME_INFO, TIMEFRAMES, type Timeframe } from '../../src/domain/timeframes.ts';

/** Ascending 1-minute bars with valid OHLC, at random minutes of a few days. */
const minuteBars = fc
  .uniqueArray(fc.integer({ min: 0, max: 4 * 1440 }), { minLength: 1, maxLength: 400 })
  .chain((minutes) =>
    fc.tuple(
      fc.constant(minutes.sort((a, b) => a - b)),
      fc.array(fc.tuple(fc.double({ min: 1, max: 1000, noNaN: true }), fc.double({ min: 1, max: 1000, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true }), fc.integer({ min: 0, max: 1000 })), {
        minLength: minutes.length,
        maxLength: minutes.length,
      }),
    ),
  )
  .map(([minutes, values]) =>
    minutes.map((m, i) => {
      const [o, c, wick, v] = values[i]!;
      return { t: 1_760_000_000_000 - (1_760_000_000_000 % 86_400_000) + m * MINUTE_MS, o, c, h: Math.max(o, c) + wick, l: Math.min(o, c) - wick / 2, v } satisfies Bar;
    }),
  );

function naive(bars: Bar[], tf: Timeframe): Bar[] {
  const groups = new Map<number, Bar[]>();
  for (const b of bars) {
    const t = bucketStart(b.t, tf);
    groups.set(t, [...(groups.get(t) ?? []), b]);
  }
  return [...groups.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([t, g]) => ({
      t,
      o: g[0]!.o,
      h: Math.max(...g.map((b) => b.h)),
      l: Math.min(...g.map((b) => b.l)),
      c: g[g.length - 1]!.c,
      v: g.reduce((s, b) => s + (b.v ?? 0), 0),
    }));
}

describe('rollUp', () => {
  test.each(TIMEFRAMES.filter((tf) => tf !== '1m'))('every %s bar equals a naive aggregation of its 1-minute bars', (tf) => {
    fc.assert(
      fc.property(minuteBars, (bars) => {
        const rolled = rollUp(bars, (t) => bucketStart(t, tf));
        const expected = naive(bars, tf);
        expect(rolled.length).toBe(expected.length);
        rolled.forEach((bar, i) => {
          const e = expected[i]!;
          expect(bar.t).toBe(e.t);
          expect([bar.o, bar.h, bar.l, bar.c]).toEqual([e.o, e.h, e.l, e.c]);
          expect(bar.v).toBeCloseTo(e.v!, 6);
        });
      }),
    );
  });

  test('rolled bars keep l ≤ min(o,c) ≤ max(o,c) ≤ h and ascending t', () => {
    fc.assert(
      fc.property(minuteBars, fc.constantFrom(...TIMEFRAMES), (bars, tf) => {
        const rolled = rollUp(bars, (t) => bucketStart(t, tf));
        for (let i = 0; i < rolled.length; i++) {
          const b = rolled[i]!;
          expect(b.l).toBeLessThanOrEqual(Math.min(b.o, b.c));
          expect(Math.max(b.o, b.c)).toBeLessThanOrEqual(b.h);
          if (i > 0) expect(b.t).toBeGreaterThan(rolled[i - 1]!.t);
        }
      }),
    );
  });

  test('rolling 1m → 5m → 1h equals rolling 1m → 1h', () => {
    fc.assert(
      fc.property(minuteBars, (bars) => {
        const via5m = rollUp(rollUp(bars, (t) => bucketStart(t, '5m')), (t) => bucketStart(t, '1h'));
        const direct = rollUp(bars, (t) => bucketStart(t, '1h'));
        expect(via5m.map((b) => [b.t, b.o, b.h, b.l, b.c])).toEqual(direct.map((b) => [b.t, b.o, b.h, b.l, b.c]));
      }),
    );
  });
});

describe('bucketStart', () => {
  test('is at or before the instant, within one bar, and aligned', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4_000_000_000_000 }), fc.constantFrom(...TIMEFRAMES), (ts, tf) => {
        const t = bucketStart(ts, tf);
        expect(t).toBeLessThanOrEqual(ts);
        expect(ts - t).toBeLessThan(TIMEFRAME_INFO[tf].durationMs);
        expect(t % TIMEFRAME_INFO[tf].durationMs).toBe(0);
      }),
    );
  });

  test('an anchor moves hourly buckets to the session open (US 09:30 → :30 bars)', () => {
    const open = Date.UTC(2026, 2, 4, 14, 30);
    expect(bucketStart(Date.UTC(2026, 2, 4, 15, 10), '1h', open)).toBe(Date.UTC(2026, 2, 4, 14, 30));
    expect(bucketStart(Date.UTC(2026, 2, 4, 18, 29), '4h', open)).toBe(Date.UTC(2026, 2, 4, 14, 30));
    expect(bucketStart(Date.UTC(2026, 2, 4, 18, 30), '4h', open)).toBe(Date.UTC(2026, 2, 4, 18, 30));
  });
});

describe('foldPrice', () => {
  test('folds prices into high, low, close and volume', () => {
    const bar = openBar(0, 10, 1);
    foldPrice(bar, 12, 2);
    foldPrice(bar, 9, null);
    foldPrice(bar, 11, 3);
    expect(bar).toEqual({ t: 0, o: 10, h: 12, l: 9, c: 11, v: 6 });
  });
});
