// The adjustment model (src/domain/adjustment.ts) held to the reference model written from the
// formulas (test/support/adjustment-reference.ts) over random action sets, rolled-up bars held to
// their adjusted minutes, the version, and the real AAPL actions of 2020 over invented prices.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { actionsInForce, adjustBar, adjustmentVersion, adjustRecords, buildSchedule, parseAdjustment, type Adjustment, type PreviousClose } from '../../src/domain/adjustment.ts';
import { bucketStart, rollUp, type Bar } from '../../src/domain/bar.ts';
import type { Dividend, Split, SymbolActions } from '../../src/domain/corporate-actions.ts';
import { ApiError } from '../../src/domain/errors.ts';
import { referenceAdjust, type RefAdjustment } from '../support/adjustment-reference.ts';

const DAY = 86_400_000;
const START = Date.UTC(2020, 0, 1);
const dateOf = (t: number) => new Date(t).toISOString().slice(0, 10);

function packed(bars: readonly Bar[]): Float64Array {
  const out = new Float64Array(bars.length * 6);
  bars.forEach((b, i) => out.set([b.t, b.o, b.h, b.l, b.c, b.v ?? NaN], i * 6));
  return out;
}

function unpacked(records: Float64Array): Bar[] {
  const out: Bar[] = [];
  for (let at = 0; at < records.length; at += 6) out.push({ t: records[at]!, o: records[at + 1]!, h: records[at + 2]!, l: records[at + 3]!, c: records[at + 4]!, v: Number.isNaN(records[at + 5]!) ? null : records[at + 5]! });
  return out;
}

/** The previous close as the API reads it: the last daily bar dated before the ex-date. */
function previousCloseIn(daily: readonly Bar[]): (exDate: string) => PreviousClose | null {
  return (exDate) => {
    let prev: Bar | null = null;
    for (const b of daily) if (dateOf(b.t) < exDate) prev = b;
    return prev && { close: prev.c, date: dateOf(prev.t) };
  };
}

/** The model's answer for bars of a symbol whose daily bars are `daily`. */
function modelAdjust(bars: readonly Bar[], daily: readonly Bar[], actions: SymbolActions, adjustment: Adjustment, today = '2099-12-31'): Bar[] {
  const schedule = buildSchedule(adjustment, actions, today, previousCloseIn(daily));
  const records = packed(bars);
  adjustRecords(schedule, records, bars.length);
  return unpacked(records);
}

/** Equal up to the model's rounding of prices to 6 decimals (volume is exact up to float error). */
function close(a: number, b: number): boolean {
  return Math.abs(a - b) <= 5.000001e-7 + 1e-12 * Math.max(Math.abs(a), Math.abs(b));
}

function expectBarsClose(actual: Bar[], expected: Bar[]): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((a, i) => {
    const e = expected[i]!;
    const ok = a.t === e.t && close(a.o, e.o) && close(a.h, e.h) && close(a.l, e.l) && close(a.c, e.c) && (a.v === null ? e.v === null : e.v !== null && close(a.v, e.v));
    if (!ok) throw new Error(`bar ${i}: ${JSON.stringify(a)} is not ${JSON.stringify(e)}`);
  });
}

const price = fc.double({ min: 1, max: 2000, noNaN: true });

/** Daily bars on random distinct days of 2020, prices positive and consistent. */
const dailyBars = fc.uniqueArray(fc.integer({ min: 0, max: 365 }), { minLength: 1, maxLength: 120 }).chain((days) =>
  fc.tuple(fc.constant(days.sort((a, b) => a - b)), fc.array(fc.tuple(price, price, fc.double({ min: 0, max: 20, noNaN: true }), fc.option(fc.integer({ min: 0, max: 1e7 }))), { minLength: days.length, maxLength: days.length })).map(([ds, values]) =>
    ds.map((d, i) => {
      const [o, c, wick, v] = values[i]!;
      return { t: START + d * DAY, o, c, h: Math.max(o, c) + wick, l: Math.max(0.01, Math.min(o, c) - wick), v } satisfies Bar;
    }),
  ),
);

const ratioPart = fc.constantFrom(1, 2, 3, 4, 5, 7, 8, 10, 20);
const splits = fc.uniqueArray(fc.tuple(fc.integer({ min: -10, max: 380 }), ratioPart, ratioPart).filter(([, f, t]) => f !== t), { selector: ([d]) => d, maxLength: 4 }).map((list) => list.map(([d, from, to]) => ({ symbol: 'US:X', date: dateOf(START + d * DAY), from, to }) satisfies Split));
const dividends = fc
  .uniqueArray(fc.tuple(fc.integer({ min: -10, max: 380 }), fc.double({ min: 0.01, max: 60, noNaN: true })), { selector: ([d]) => d, maxLength: 6 })
  .map((list) => list.map(([d, cash]) => ({ symbol: 'US:X', exDate: dateOf(START + d * DAY), cash, payDate: null, recordDate: null, declarationDate: null, frequency: null, dividendType: null }) satisfies Dividend));
const adjustments = fc.constantFrom<Adjustment>('raw', 'split', 'dividend', 'all');

describe('adjustment model', () => {
  test('every adjusted daily bar equals the reference model over random action sets', () => {
    fc.assert(
      fc.property(dailyBars, splits, dividends, adjustments, (daily, s, d, adjustment) => {
        expectBarsClose(modelAdjust(daily, daily, { splits: s, dividends: d }, adjustment), referenceAdjust(daily, daily, s, d, adjustment as RefAdjustment));
      }),
      { numRuns: 400 },
    );
  });

  test('only actions dated on or before today are in force', () => {
    fc.assert(
      fc.property(dailyBars, splits, dividends, adjustments, fc.integer({ min: 0, max: 365 }), (daily, s, d, adjustment, todayDay) => {
        const today = dateOf(START + todayDay * DAY);
        // Split-adjustment only of splits in force; a dividend's close restated by any split before its ex-date (all in force with it).
        const reference = referenceAdjust(daily, daily, s.filter((x) => x.date <= today), d.filter((x) => x.exDate <= today), adjustment as RefAdjustment);
        expectBarsClose(modelAdjust(daily, daily, { splits: s, dividends: d }, adjustment, today), reference);
      }),
      { numRuns: 200 },
    );
  });

  test('a rolled-up bar adjusted equals its adjusted minutes rolled up (every timeframe bucket lies in one UTC date)', () => {
    // Minutes inside the US regular session (13:30-20:00 UTC) of random days, as stock bars are.
    const minutes = fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 810, max: 1199 })), { selector: ([d, m]) => d * 1440 + m, minLength: 1, maxLength: 300 }).chain((keys) =>
      fc.tuple(fc.constant(keys.map(([d, m]) => START + d * DAY + m * 60_000).sort((a, b) => a - b)), fc.array(fc.tuple(price, price, fc.integer({ min: 0, max: 1000 })), { minLength: keys.length, maxLength: keys.length })).map(([ts, values]) =>
        ts.map((t, i) => ({ t, o: values[i]![0], c: values[i]![1], h: Math.max(values[i]![0], values[i]![1]), l: Math.min(values[i]![0], values[i]![1]), v: values[i]![2] }) satisfies Bar),
      ),
    );
    const nearSplits = splits.map((list) => list.map((s) => ({ ...s, date: dateOf(START + (Date.parse(s.date) - START) / 10) })));
    fc.assert(
      fc.property(minutes, nearSplits, dividends, adjustments, fc.constantFrom('1d', '1h', '4h', '15m'), (mins, s, d, adjustment, tf) => {
        const daily = rollUp(mins, (t) => bucketStart(t, '1d'));
        const anchor = (t: number) => bucketStart(t, tf as '1d', tf === '1d' ? 0 : bucketStart(t, '1d') + 810 * 60_000);
        const actions = { splits: s, dividends: d };
        const adjustedRollUp = modelAdjust(rollUp(mins, anchor), daily, actions, adjustment);
        const rolledAdjusted = rollUp(modelAdjust(mins, daily, actions, adjustment), anchor);
        expectBarsClose(adjustedRollUp, rolledAdjusted);
      }),
      { numRuns: 200 },
    );
  });

  test('the version identifies the set of actions in force: order-free, changed by a new action, not by a pay date', () => {
    const split: Split = { symbol: 'US:AAPL', date: '2020-08-31', from: 1, to: 4 };
    const dividend: Dividend = { symbol: 'US:AAPL', exDate: '2020-08-07', cash: 0.82, payDate: '2020-08-13', recordDate: null, declarationDate: null, frequency: 4, dividendType: 'CD' };
    const both = adjustmentVersion({ splits: [split], dividends: [dividend] });
    expect(both).toMatch(/^[0-9a-f]{12}$/);
    expect(adjustmentVersion({ splits: [split], dividends: [{ ...dividend, payDate: '2020-08-14' }] })).toBe(both);
    expect(adjustmentVersion({ splits: [split], dividends: [] })).not.toBe(both);
    const more = { ...dividend, exDate: '2020-11-06', cash: 0.205 };
    expect(adjustmentVersion({ splits: [split], dividends: [dividend, more] })).toBe(adjustmentVersion({ splits: [split], dividends: [more, dividend] }));
    expect(adjustmentVersion({ splits: [split], dividends: [dividend, more] })).not.toBe(both);
    // A split-adjusted answer does not change with a dividend.
    const actions = { splits: [split], dividends: [dividend, more] };
    expect(adjustmentVersion(actionsInForce(actions, 'split', '2021-01-01'))).toBe(adjustmentVersion({ splits: [split], dividends: [] }));
    expect(adjustmentVersion(actionsInForce(actions, 'all', '2020-09-30'))).toBe(both);
  });

  test('the adjustment parameter: raw by default; a bad value is a 400 naming the allowed ones', () => {
    expect(parseAdjustment(undefined)).toBe('raw');
    expect(parseAdjustment('ALL')).toBe('all');
    try {
      parseAdjustment('splits');
      throw new Error('accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect((err as ApiError).message).toBe('invalid adjustment "splits": allowed values are raw, split, dividend, all');
    }
  });
});

describe('AAPL 2020: the 4-for-1 split of 2020-08-31 and the $0.82 dividend ex 2020-08-07 (invented prices)', () => {
  const day = (date: string, o: number, h: number, l: number, c: number, v: number): Bar => ({ t: Date.parse(`${date}T00:00:00Z`), o, h, l, c, v });
  const daily = [
    day('2020-08-05', 437.51, 441.57, 435.59, 440.25, 30_498_000),
    day('2020-08-06', 441.62, 457.65, 439.19, 455.61, 50_607_200),
    day('2020-08-07', 452.82, 454.7, 441.17, 444.45, 49_511_400),
    day('2020-08-28', 504.05, 505.77, 498.31, 499.23, 46_907_500),
    day('2020-08-31', 127.58, 131.0, 126.0, 129.04, 225_702_700),
  ];
  const actions: SymbolActions = {
    splits: [{ symbol: 'US:AAPL', date: '2020-08-31', from: 1, to: 4 }],
    dividends: [{ symbol: 'US:AAPL', exDate: '2020-08-07', cash: 0.82, payDate: '2020-08-13', recordDate: '2020-08-10', declarationDate: '2020-07-30', frequency: 4, dividendType: 'CD' }],
  };
  const byDate = (bars: Bar[]) => Object.fromEntries(bars.map((b) => [dateOf(b.t), b]));

  test('split: pre-split prices ÷ 4, volume × 4; the split day and after unchanged', () => {
    const s = byDate(modelAdjust(daily, daily, actions, 'split'));
    expect(s['2020-08-28']).toEqual({ t: daily[3]!.t, o: 126.0125, h: 126.4425, l: 124.5775, c: 124.8075, v: 187_630_000 });
    expect(s['2020-08-05']!.c).toBe(110.0625);
    expect(s['2020-08-31']).toEqual(daily[4]!);
  });

  test('dividend: bars before the ex-date × (1 − 0.82 ÷ 455.61); the ex-date and after unchanged', () => {
    const f = 1 - 0.82 / 455.61;
    const d = byDate(modelAdjust(daily, daily, actions, 'dividend'));
    expect(d['2020-08-06']!.c).toBeCloseTo(455.61 * f, 5);
    expect(d['2020-08-05']!.o).toBeCloseTo(437.51 * f, 5);
    expect(d['2020-08-05']!.v).toBe(30_498_000);
    expect(d['2020-08-07']).toEqual(daily[2]!);
    expect(d['2020-08-28']).toEqual(daily[3]!);
  });

  test('all: both; the 2020-08-06 close becomes 455.61 ÷ 4 × (1 − 0.82 ÷ 455.61) = 113.6975', () => {
    const a = byDate(modelAdjust(daily, daily, actions, 'all'));
    expect(a['2020-08-06']!.c).toBeCloseTo((455.61 - 0.82) / 4, 5);
    expect(a['2020-08-06']!.v).toBe(50_607_200 * 4);
    expect(a['2020-08-07']!.c).toBe(444.45 / 4);
    expect(a['2020-08-31']).toEqual(daily[4]!);
    expect(adjustBar(buildSchedule('all', actions, '2020-12-31', previousCloseIn(daily)), daily[1]!).c).toBeCloseTo(113.6975, 5);
  });

  test('before the split date arrives the split is not in force', () => {
    const early = byDate(modelAdjust(daily, daily, actions, 'split', '2020-08-30'));
    expect(early['2020-08-28']).toEqual(daily[3]!);
  });
});
