// Technical indicators over one price series, as pure functions: SMA, EMA, RSI (Wilder) and MACD.
// Each returns one value per input point and NaN where the points up to it are too few for a value,
// so a caller never mistakes a value of a short series for a full one (docs/rest.md: Indicators).

export const INDICATORS = ['sma', 'ema', 'rsi', 'macd'] as const;
export type IndicatorName = (typeof INDICATORS)[number];

export function isIndicator(value: string): value is IndicatorName {
  return (INDICATORS as readonly string[]).includes(value);
}

/** What to compute: a single-window indicator, or MACD with its three windows. */
export type IndicatorSpec =
  | { kind: 'sma' | 'ema' | 'rsi'; window: number }
  | { kind: 'macd'; shortWindow: number; longWindow: number; signalWindow: number };

/** One value per input point (NaN: none); MACD adds its signal line and histogram. */
export interface IndicatorValues {
  value: Float64Array;
  signal: Float64Array | null;
  histogram: Float64Array | null;
}

/**
 * Bars read before the first requested bar. SMA needs exactly window − 1. EMA, RSI and MACD depend
 * on every earlier bar; 10 windows of history shrink the weight of their seed at the first value
 * to about 1e-4 (RSI, the slowest: e^-9), so a value barely moves with where the read began.
 */
export const WARMUP_WINDOWS = 10;

export function warmupBars(spec: IndicatorSpec): number {
  switch (spec.kind) {
    case 'sma':
      return spec.window - 1;
    case 'ema':
    case 'rsi':
      return WARMUP_WINDOWS * spec.window;
    case 'macd':
      return WARMUP_WINDOWS * (spec.longWindow + spec.signalWindow);
  }
}

/** The fewest points a value needs (itself included): fewer give NaN, never a partial value. */
export function minimumBars(spec: IndicatorSpec): number {
  switch (spec.kind) {
    case 'sma':
    case 'ema':
      return spec.window;
    case 'rsi':
      return spec.window + 1;
    case 'macd':
      return spec.longWindow + spec.signalWindow - 1;
  }
}

export function computeIndicator(spec: IndicatorSpec, x: Float64Array): IndicatorValues {
  switch (spec.kind) {
    case 'sma':
      return { value: sma(x, spec.window), signal: null, histogram: null };
    case 'ema':
      return { value: ema(x, spec.window), signal: null, histogram: null };
    case 'rsi':
      return { value: rsi(x, spec.window), signal: null, histogram: null };
    case 'macd':
      return macd(x, spec.shortWindow, spec.longWindow, spec.signalWindow);
  }
}

/** Mean of the last n points. The sum is recomputed every n points so rounding cannot build up. */
export function sma(x: Float64Array, n: number): Float64Array {
  const out = new Float64Array(x.length).fill(NaN);
  let sum = 0;
  for (let i = 0; i < x.length; i++) {
    if (i % n === 0 && i >= n) {
      sum = 0;
      for (let j = i - n + 1; j <= i; j++) sum += x[j]!;
    } else {
      sum += x[i]!;
      if (i >= n) sum -= x[i - n]!;
    }
    if (i >= n - 1) out[i] = sum / n;
  }
  return out;
}

/**
 * EMA with alpha 2/(n+1), seeded with the SMA of the first n points from `start`: the value at
 * start+n−1 is that mean, each later one alpha·x + (1−alpha)·previous. NaN before the seed.
 */
export function ema(x: Float64Array, n: number, start = 0): Float64Array {
  const out = new Float64Array(x.length).fill(NaN);
  const seedAt = start + n - 1;
  if (seedAt >= x.length) return out;
  let sum = 0;
  for (let i = start; i <= seedAt; i++) sum += x[i]!;
  let e = sum / n;
  out[seedAt] = e;
  const alpha = 2 / (n + 1);
  for (let i = seedAt + 1; i < x.length; i++) {
    e = alpha * x[i]! + (1 - alpha) * e;
    out[i] = e;
  }
  return out;
}

/**
 * RSI with Wilder's smoothing: the first average gain and loss are the means of the first n
 * changes (a value at point n), each later one (previous·(n−1) + change)/n. RSI = 100 − 100/(1+RS);
 * with no loss it is 100, and with neither gain nor loss (a flat series) 50.
 */
export function rsi(x: Float64Array, n: number): Float64Array {
  const out = new Float64Array(x.length).fill(NaN);
  if (x.length <= n) return out;
  let gain = 0;
  let loss = 0;
  for (let i = 1; i <= n; i++) {
    const d = x[i]! - x[i - 1]!;
    if (d > 0) gain += d;
    else loss -= d;
  }
  gain /= n;
  loss /= n;
  out[n] = rsiOf(gain, loss);
  for (let i = n + 1; i < x.length; i++) {
    const d = x[i]! - x[i - 1]!;
    gain = (gain * (n - 1) + (d > 0 ? d : 0)) / n;
    loss = (loss * (n - 1) + (d < 0 ? -d : 0)) / n;
    out[i] = rsiOf(gain, loss);
  }
  return out;
}

function rsiOf(gain: number, loss: number): number {
  if (loss === 0) return gain === 0 ? 50 : 100;
  return 100 - 100 / (1 + gain / loss);
}

/**
 * MACD line = EMA(short) − EMA(long); signal = EMA(signal window) of the line, seeded from the
 * line's first value; histogram = line − signal. All three only where the signal exists.
 */
export function macd(x: Float64Array, shortWindow: number, longWindow: number, signalWindow: number): IndicatorValues {
  const fast = ema(x, shortWindow);
  const slow = ema(x, longWindow);
  const line = new Float64Array(x.length).fill(NaN);
  for (let i = longWindow - 1; i < x.length; i++) line[i] = fast[i]! - slow[i]!;
  const signal = ema(line, signalWindow, longWindow - 1);
  const value = new Float64Array(x.length).fill(NaN);
  const histogram = new Float64Array(x.length).fill(NaN);
  for (let i = 0; i < x.length; i++) {
    if (Number.isNaN(signal[i]!)) continue;
    value[i] = line[i]!;
    histogram[i] = line[i]! - signal[i]!;
  }
  return { value, signal, histogram };
}
