// The coverage classification against a plain per-slot reference: every slot is classified exactly
// once, the counts add up, ranges are ordered, disjoint and merged as far as they can be; and the
// parameters' defaults, limits and 400 messages.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { classifyCoverage, mergeIntervals, subtractIntervals, type CoverageKind, type Interval } from '../../src/domain/coverage.ts';
import { parseCoverageParams } from '../../src/domain/coverage-params.ts';
import { ApiError } from '../../src/domain/errors.ts';

/** Sorted, non-overlapping slots on small integer times; some touch, some leave room between them. */
const slotsArb = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 6 })), { maxLength: 40 }).map((steps) => {
  const starts: number[] = [];
  const ends: number[] = [];
  let t = 0;
  for (const [gap, length] of steps) {
    t += gap;
    starts.push(t);
    ends.push(t + length);
    t += length;
  }
  return { starts, ends, horizon: t + 4 };
});

const intervalsArb = (horizon: number) =>
  fc.array(fc.tuple(fc.integer({ min: -2, max: horizon }), fc.integer({ min: 0, max: 12 })), { maxLength: 12 }).map((pairs) => pairs.map(([from, length]) => ({ fromMs: from, toMs: from + length })));

const inputArb = slotsArb.chain(({ starts, ends, horizon }) =>
  fc.record({
    starts: fc.constant(starts),
    ends: fc.constant(ends),
    barTimes: fc.uniqueArray(fc.integer({ min: -2, max: horizon }), { maxLength: 30 }).map((ts) => ts.sort((a, b) => a - b)),
    trading: intervalsArb(horizon).map(mergeIntervals),
    live: intervalsArb(horizon),
  }),
);

const covers = (intervals: readonly Interval[], x: number) => intervals.some((i) => x >= i.fromMs && x < i.toMs);

/** The rule stated plainly, slot by slot, instant by instant (integer times make instants countable). */
function referenceKind(from: number, to: number, barTimes: number[], trading: Interval[], live: Interval[]): CoverageKind {
  if (barTimes.some((t) => t >= from && t < to)) return 'bars';
  for (let x = from; x < to; x++) if (covers(trading, x) && !covers(live, x)) return 'gap';
  return 'quiet';
}

describe('classifyCoverage', () => {
  test('every slot is classified once, as the plain rule says, and the counts add up', () => {
    fc.assert(
      fc.property(inputArb, ({ starts, ends, barTimes, trading, live }) => {
        const { ranges, totals } = classifyCoverage({ slotStarts: starts, slotEnds: ends, barTimes, trading, live });
        // Walk the slots through the ranges: each range holds exactly `count` consecutive slots.
        const kinds: CoverageKind[] = [];
        let i = 0;
        for (const r of ranges) {
          expect(starts[i]).toBe(r.fromMs);
          for (let k = 0; k < r.count; k++, i++) {
            expect(starts[i]! >= r.fromMs && ends[i]! <= r.toMs).toBe(true);
            kinds.push(r.kind);
          }
          expect(ends[i - 1]).toBe(r.toMs);
        }
        expect(i).toBe(starts.length);
        expect(kinds).toEqual(starts.map((s, k) => referenceKind(s, ends[k]!, barTimes, trading, live)));
        expect(totals).toEqual({
          slots: starts.length,
          bars: kinds.filter((k) => k === 'bars').length,
          quiet: kinds.filter((k) => k === 'quiet').length,
          gaps: kinds.filter((k) => k === 'gap').length,
          pending: 0,
        });
      }),
      { numRuns: 400 },
    );
  });

  test('ranges are ordered and disjoint; two that touch differ in kind', () => {
    fc.assert(
      fc.property(inputArb, ({ starts, ends, barTimes, trading, live }) => {
        const { ranges } = classifyCoverage({ slotStarts: starts, slotEnds: ends, barTimes, trading, live });
        for (let k = 0; k < ranges.length; k++) {
          const r = ranges[k]!;
          expect(r.fromMs < r.toMs && r.count > 0).toBe(true);
          const next = ranges[k + 1];
          if (!next) continue;
          expect(r.toMs <= next.fromMs).toBe(true);
          if (r.toMs === next.fromMs) expect(next.kind).not.toBe(r.kind);
        }
      }),
      { numRuns: 400 },
    );
  });

  test('a worked day: bars, a quiet hour under a live feed, a gap where the feed was down', () => {
    const HOUR = 3_600_000;
    const starts = Array.from({ length: 6 }, (_, h) => h * HOUR);
    const ends = starts.map((s) => s + HOUR);
    const result = classifyCoverage({
      slotStarts: starts,
      slotEnds: ends,
      barTimes: [0, HOUR, 4 * HOUR],
      trading: [{ fromMs: 0, toMs: 6 * HOUR }],
      // Live over hour 2 but only half of hour 3; hour 5 has no feed at all.
      live: [{ fromMs: 2 * HOUR, toMs: 3.5 * HOUR }],
    });
    expect(result).toEqual({
      ranges: [
        { fromMs: 0, toMs: 2 * HOUR, kind: 'bars', count: 2 },
        { fromMs: 2 * HOUR, toMs: 3 * HOUR, kind: 'quiet', count: 1 },
        { fromMs: 3 * HOUR, toMs: 4 * HOUR, kind: 'gap', count: 1 },
        { fromMs: 4 * HOUR, toMs: 5 * HOUR, kind: 'bars', count: 1 },
        { fromMs: 5 * HOUR, toMs: 6 * HOUR, kind: 'gap', count: 1 },
      ],
      totals: { slots: 6, bars: 3, quiet: 1, gaps: 2, pending: 0 },
    });
  });

  test('an empty slot in time the history build has not reached is pending, not a gap; a slot with a bar there is bars', () => {
    const HOUR = 3_600_000;
    const starts = Array.from({ length: 6 }, (_, h) => h * HOUR);
    const result = classifyCoverage({
      slotStarts: starts,
      slotEnds: starts.map((s) => s + HOUR),
      barTimes: [1 * HOUR, 4 * HOUR],
      trading: [{ fromMs: 0, toMs: 6 * HOUR }],
      live: [{ fromMs: 5 * HOUR, toMs: 6 * HOUR }],
      // The build has reached back to hour 3; a slot reaching into that time is pending.
      unbuilt: [{ fromMs: -10 * HOUR, toMs: 2.5 * HOUR }],
    });
    expect(result).toEqual({
      ranges: [
        { fromMs: 0, toMs: HOUR, kind: 'pending', count: 1 },
        { fromMs: HOUR, toMs: 2 * HOUR, kind: 'bars', count: 1 },
        { fromMs: 2 * HOUR, toMs: 3 * HOUR, kind: 'pending', count: 1 },
        { fromMs: 3 * HOUR, toMs: 4 * HOUR, kind: 'gap', count: 1 },
        { fromMs: 4 * HOUR, toMs: 5 * HOUR, kind: 'bars', count: 1 },
        { fromMs: 5 * HOUR, toMs: 6 * HOUR, kind: 'quiet', count: 1 },
      ],
      totals: { slots: 6, bars: 2, quiet: 1, gaps: 1, pending: 2 },
    });
  });

  test('a slot needs a live feed only over its trading time (a daily slot of a market open a few hours)', () => {
    const result = classifyCoverage({ slotStarts: [0], slotEnds: [100], barTimes: [], trading: [{ fromMs: 40, toMs: 60 }], live: [{ fromMs: 30, toMs: 65 }] });
    expect(result.ranges).toEqual([{ fromMs: 0, toMs: 100, kind: 'quiet', count: 1 }]);
  });

  test('slots that do not touch (a night between sessions) are never merged', () => {
    const result = classifyCoverage({ slotStarts: [0, 10, 30], slotEnds: [10, 20, 40], barTimes: [0, 10, 30], trading: [], live: [] });
    expect(result.ranges.map((r) => [r.fromMs, r.toMs, r.count])).toEqual([
      [0, 20, 2],
      [30, 40, 1],
    ]);
  });
});

describe('interval helpers', () => {
  test('mergeIntervals covers the same instants with sorted, disjoint, non-touching intervals', () => {
    fc.assert(
      fc.property(intervalsArb(40), (intervals) => {
        const merged = mergeIntervals(intervals);
        for (let k = 1; k < merged.length; k++) expect(merged[k - 1]!.toMs < merged[k]!.fromMs).toBe(true);
        for (let x = -3; x < 55; x++) expect(covers(merged, x)).toBe(covers(intervals, x));
      }),
    );
  });

  test('subtractIntervals leaves exactly the instants of base that cut does not cover', () => {
    fc.assert(
      fc.property(intervalsArb(40), intervalsArb(40), (a, b) => {
        const base = mergeIntervals(a);
        const cut = mergeIntervals(b);
        const rest = subtractIntervals(base, cut);
        for (let k = 1; k < rest.length; k++) expect(rest[k - 1]!.toMs <= rest[k]!.fromMs).toBe(true);
        for (let x = -3; x < 55; x++) expect(covers(rest, x)).toBe(covers(base, x) && !covers(cut, x));
      }),
    );
  });
});

function message(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) return err.message;
    throw err;
  }
  throw new Error('expected a 400');
}

describe('parseCoverageParams', () => {
  const NOW = Date.UTC(2026, 2, 4, 15, 30);

  test('defaults: 1m over today (the clock date)', () => {
    expect(parseCoverageParams({}, NOW)).toEqual({ tf: '1m', fromMs: Date.UTC(2026, 2, 4), toMs: Date.UTC(2026, 2, 5) });
  });

  test('from defaults to the to date; dates are inclusive UTC days', () => {
    expect(parseCoverageParams({ to: '2026-03-01' }, NOW)).toEqual({ tf: '1m', fromMs: Date.UTC(2026, 2, 1), toMs: Date.UTC(2026, 2, 2) });
    expect(parseCoverageParams({ timeframe: '1h', from: '2026-02-01', to: '2026-03-01' }, NOW)).toEqual({ tf: '1h', fromMs: Date.UTC(2026, 1, 1), toMs: Date.UTC(2026, 2, 2) });
  });

  test('a timeframe the store lacks lists the allowed ones', () => {
    expect(message(() => parseCoverageParams({ timeframe: '2m' }, NOW))).toBe('invalid timeframe "2m": allowed values are 1m, 5m, 15m, 1h, 4h, 1d');
  });

  test("the range route's date format, order and maximum spans apply, with its messages", () => {
    expect(message(() => parseCoverageParams({ from: '2026-3-1' }, NOW))).toBe('invalid from date "2026-3-1": expected a calendar date YYYY-MM-DD from 1970 on');
    expect(message(() => parseCoverageParams({ from: '2026-03-05', to: '2026-03-04' }, NOW))).toBe('invalid window: to (2026-03-04) must be on or after from (2026-03-05)');
    expect(message(() => parseCoverageParams({ from: '2026-02-01', to: '2026-03-04' }, NOW))).toBe('window of 32 days exceeds the maximum span of 31 days for 1 minute bars');
    expect(parseCoverageParams({ timeframe: '5m', from: '2026-02-01', to: '2026-03-04' }, NOW).tf).toBe('5m');
  });
});
