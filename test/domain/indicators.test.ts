// The indicator computations against hand-checked examples and, over random price series, against
// the reference implementation written from the formulas (test/support/indicator-reference.ts);
// the parameter parser's 400s say what is allowed.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { ApiError } from '../../src/domain/errors.ts';
import { computeIndicator, ema, macd, minimumBars, rsi, sma, warmupBars, type IndicatorSpec } from '../../src/domain/indicators/compute.ts';
import { parseIndicatorParams } from '../../src/domain/indicators/params.ts';
import { near, refEma, refMacd, refRsi, refSma, type Maybe } from '../support/indicator-reference.ts';

const f64 = (xs: number[]) => new Float64Array(xs);
/** NaN → null, for whole-array comparisons with the reference's nulls. */
const nullable = (xs: Float64Array): Maybe[] => Array.from(xs, (x) => (Number.isNaN(x) ? null : x));

function expectNear(actual: Maybe[], expected: Maybe[]): void {
  expect(actual.map((a) => a === null)).toEqual(expected.map((e) => e === null));
  for (let i = 0; i < actual.length; i++) {
    if (actual[i] !== null && !near(actual[i]!, expected[i]!)) throw new Error(`index ${i}: ${actual[i]} vs reference ${expected[i]}`);
  }
}

describe('hand-checked examples', () => {
  test('SMA(5) of closes 10..15 is 12 then 13, nothing before the fifth bar', () => {
    expect(nullable(sma(f64([10, 11, 12, 13, 14, 15]), 5))).toEqual([null, null, null, null, 12, 13]);
  });

  test('EMA(3) seeds with the mean of the first three, then alpha 1/2', () => {
    // alpha = 2/(3+1) = 0.5; seed (1+2+3)/3 = 2; then 0.5·4 + 0.5·2 = 3; 0.5·10 + 0.5·3 = 6.5.
    expect(nullable(ema(f64([1, 2, 3, 4, 10]), 3))).toEqual([null, null, 2, 3, 6.5]);
  });

  test("RSI(2) with Wilder's smoothing", () => {
    // Changes +1, −1, +1, +2: first averages 0.5 / 0.5 → 50; then gain (0.5+1)/2 = 0.75, loss 0.25 → 75;
    // then gain (0.75+2)/2 = 1.375, loss 0.125 → RS 11 → 91.666…
    const out = nullable(rsi(f64([1, 2, 1, 2, 4]), 2));
    expect(out.slice(0, 4)).toEqual([null, null, 50, 75]);
    expect(out[4]).toBeCloseTo(100 - 100 / 12, 12);
  });

  test('RSI is 100 with no loss and 50 on a flat series', () => {
    expect(nullable(rsi(f64([1, 2, 3, 4]), 2))).toEqual([null, null, 100, 100]);
    expect(nullable(rsi(f64([5, 5, 5]), 2))).toEqual([null, null, 50]);
  });

  test('MACD(2,3,2): line, signal and histogram from the first bar the signal exists', () => {
    // EMA2 (alpha 2/3): 1.5, 2.5, 3.5, 7.5 at 1..4 (7.5 = 3.5 + 2/3·(9.5 − 3.5)); EMA3 (alpha 1/2): 2, 3, 6.25 at 2..4.
    // Line: 0.5, 0.5, 1.25 at 2..4. Signal EMA2 of the line: seed (0.5+0.5)/2 = 0.5 at 3, then 0.5 + 2/3·0.75 = 1 at 4.
    const out = macd(f64([1, 2, 3, 4, 9.5]), 2, 3, 2);
    expect(nullable(out.value)).toEqual([null, null, null, 0.5, 1.25]);
    expect(nullable(out.signal!)).toEqual([null, null, null, 0.5, 1]);
    expect(nullable(out.histogram!)).toEqual([null, null, null, 0, 0.25]);
  });

  test('warm-up and minimum bars per indicator', () => {
    expect([warmupBars({ kind: 'sma', window: 20 }), minimumBars({ kind: 'sma', window: 20 })]).toEqual([19, 20]);
    expect([warmupBars({ kind: 'ema', window: 20 }), minimumBars({ kind: 'ema', window: 20 })]).toEqual([200, 20]);
    expect([warmupBars({ kind: 'rsi', window: 14 }), minimumBars({ kind: 'rsi', window: 14 })]).toEqual([140, 15]);
    const m: IndicatorSpec = { kind: 'macd', shortWindow: 12, longWindow: 26, signalWindow: 9 };
    expect([warmupBars(m), minimumBars(m)]).toEqual([350, 34]);
  });
});

const prices = fc.array(fc.double({ min: 0.01, max: 100_000, noNaN: true, noDefaultInfinity: true }), { minLength: 0, maxLength: 200 });
const window = fc.integer({ min: 1, max: 40 });

describe('against the reference implementation', () => {
  test('SMA', () => {
    fc.assert(fc.property(prices, window, (xs, n) => expectNear(nullable(sma(f64(xs), n)), refSma(xs, n))));
  });

  test('EMA', () => {
    fc.assert(fc.property(prices, window, (xs, n) => expectNear(nullable(ema(f64(xs), n)), refEma(xs, n))));
  });

  test('RSI', () => {
    fc.assert(fc.property(prices, window, (xs, n) => expectNear(nullable(rsi(f64(xs), n)), refRsi(xs, n))));
  });

  test('MACD', () => {
    const windows = fc.tuple(fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 15 })).map(([s, d, g]) => [s, s + d, g] as const);
    fc.assert(
      fc.property(prices, windows, (xs, [s, l, g]) => {
        const out = macd(f64(xs), s, l, g);
        const ref = refMacd(xs, s, l, g);
        expectNear(nullable(out.value), ref.map((r) => r.value));
        expectNear(nullable(out.signal!), ref.map((r) => r.signal));
        expectNear(nullable(out.histogram!), ref.map((r) => r.histogram));
      }),
    );
  });

  test('no indicator gives a value before its minimum number of bars, and each gives one from there on', () => {
    const spec: fc.Arbitrary<IndicatorSpec> = fc.oneof(
      fc.record({ kind: fc.constantFrom('sma' as const, 'ema' as const, 'rsi' as const), window }),
      fc.tuple(fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 10 }), fc.integer({ min: 1, max: 10 })).map(([s, d, g]) => ({ kind: 'macd' as const, shortWindow: s, longWindow: s + d, signalWindow: g })),
    );
    fc.assert(
      fc.property(prices, spec, (xs, sp) => {
        const values = computeIndicator(sp, f64(xs)).value;
        const min = minimumBars(sp);
        for (let i = 0; i < xs.length; i++) expect(Number.isNaN(values[i]!)).toBe(i + 1 < min);
      }),
    );
  });
});

describe('parameters', () => {
  const NOW = Date.UTC(2026, 2, 4, 15, 30);
  const message = (name: string, q: Record<string, string>) => {
    try {
      parseIndicatorParams(name, q, NOW);
    } catch (error) {
      if (error instanceof ApiError && error.status === 400) return error.message;
      throw error;
    }
    throw new Error('no 400');
  };

  test('defaults: daily bars, close, the documented windows, desc pages of 500, the longest window ending today', () => {
    expect(parseIndicatorParams('RSI', {}, NOW)).toEqual({
      spec: { kind: 'rsi', window: 14 },
      series: 'close',
      tf: '1d',
      fromMs: Date.UTC(2026, 2, 4) - 4999 * 86_400_000,
      toMs: Date.UTC(2026, 2, 5),
      limit: 500,
      offset: 0,
      sort: 'desc',
    });
    expect(parseIndicatorParams('sma', {}, NOW).spec).toEqual({ kind: 'sma', window: 50 });
    expect(parseIndicatorParams('ema', { timespan: 'minute', to: '2026-03-04' }, NOW).fromMs).toBe(Date.UTC(2026, 1, 2));
    expect(parseIndicatorParams('macd', {}, NOW).spec).toEqual({ kind: 'macd', shortWindow: 12, longWindow: 26, signalWindow: 9 });
  });

  test.each([
    ['wma', {}, 'unknown indicator "wma": allowed values are sma, ema, rsi, macd'],
    ['sma', { window: '0' }, 'invalid window "0": expected an integer from 1 to 500'],
    ['ema', { window: '501' }, 'invalid window "501": expected an integer from 1 to 500'],
    ['rsi', { window: 'ten' }, 'invalid window "ten": expected an integer from 1 to 500'],
    ['macd', { short_window: '26', long_window: '12' }, 'invalid windows: short_window (26) must be less than long_window (12)'],
    ['macd', { window: '10' }, 'invalid parameter window for macd: use short_window, long_window and signal_window'],
    ['sma', { signal_window: '9' }, 'invalid parameter signal_window for sma: only macd takes it; sma takes window'],
    ['sma', { series_type: 'vwap' }, 'invalid series_type "vwap": allowed values are close, open, high, low'],
    ['sma', { timespan: 'week' }, 'invalid timespan "week": allowed values are minute, hour, day'],
    ['sma', { timespan: 'minute', multiplier: '2' }, 'unsupported multiplier/timespan pair 2/minute: valid combinations are 1/minute, 5/minute, 15/minute, 1/hour, 4/hour, 1/day'],
    ['sma', { sort: 'up' }, 'invalid sort "up": allowed values are asc, desc'],
    ['sma', { limit: '5001' }, 'invalid limit "5001": expected an integer from 1 to 5000'],
    ['sma', { timespan: 'minute', from: '2026-01-01', to: '2026-03-04' }, 'window of 63 days exceeds the maximum span of 31 days for 1 minute bars'],
  ] as const)('%s %o → 400', (name, q, expected) => {
    expect(message(name, q)).toBe(expected);
  });
});
