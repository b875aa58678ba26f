// A reference implementation of the indicators, written from the textbook formulas and sharing no
// code with src/domain/indicators: plain arrays, no running sums, null where a value is undefined.
// - SMA(n) at i: the mean of the n prices ending at i.
// - EMA(n): alpha = 2/(n+1); the first value (at n−1) is the SMA of the first n prices, then
//   EMA_i = EMA_{i−1} + alpha·(p_i − EMA_{i−1}).
// - RSI(n), Wilder: change_k = p_k − p_{k−1}; the first average gain and loss (at n) are the plain
//   means of changes 1..n, then avg_i = (avg_{i−1}·(n−1) + x_i)/n; RSI = 100·avgGain/(avgGain+avgLoss)
//   (the same as 100 − 100/(1+RS)), 50 when both are zero.
// - MACD(s, l, g): line = EMA_s − EMA_l from l−1 on; signal = EMA_g of the line from its first value;
//   histogram = line − signal; reported only where the signal exists.

export type Maybe = number | null;

export function refSma(prices: readonly number[], n: number): Maybe[] {
  return prices.map((_, i) => {
    if (i + 1 < n) return null;
    const slice = prices.slice(i + 1 - n, i + 1);
    return slice.reduce((a, b) => a + b, 0) / n;
  });
}

export function refEma(prices: readonly Maybe[], n: number): Maybe[] {
  const out: Maybe[] = prices.map(() => null);
  const first = prices.findIndex((p) => p !== null);
  if (first < 0 || first + n > prices.length) return out;
  const alpha = 2 / (n + 1);
  const seed = prices.slice(first, first + n) as number[];
  let prev = seed.reduce((a, b) => a + b, 0) / n;
  out[first + n - 1] = prev;
  for (let i = first + n; i < prices.length; i++) {
    prev = prev + alpha * ((prices[i] as number) - prev);
    out[i] = prev;
  }
  return out;
}

export function refRsi(prices: readonly number[], n: number): Maybe[] {
  const out: Maybe[] = prices.map(() => null);
  if (prices.length < n + 1) return out;
  const gains: number[] = [];
  const losses: number[] = [];
  for (let k = 1; k < prices.length; k++) {
    const change = prices[k]! - prices[k - 1]!;
    gains.push(Math.max(change, 0));
    losses.push(Math.max(-change, 0));
  }
  let avgGain = gains.slice(0, n).reduce((a, b) => a + b, 0) / n;
  let avgLoss = losses.slice(0, n).reduce((a, b) => a + b, 0) / n;
  const rsiOf = (g: number, l: number) => (g + l === 0 ? 50 : (100 * g) / (g + l));
  out[n] = rsiOf(avgGain, avgLoss);
  for (let i = n + 1; i < prices.length; i++) {
    avgGain = (avgGain * (n - 1) + gains[i - 1]!) / n;
    avgLoss = (avgLoss * (n - 1) + losses[i - 1]!) / n;
    out[i] = rsiOf(avgGain, avgLoss);
  }
  return out;
}

export interface RefMacd {
  value: Maybe;
  signal: Maybe;
  histogram: Maybe;
}

export function refMacd(prices: readonly number[], s: number, l: number, g: number): RefMacd[] {
  const fast = refEma(prices, s);
  const slow = refEma(prices, l);
  const line: Maybe[] = prices.map((_, i) => (fast[i] !== null && slow[i] !== null ? fast[i]! - slow[i]! : null));
  const signal = refEma(line, g);
  return prices.map((_, i) => (signal[i] === null ? { value: null, signal: null, histogram: null } : { value: line[i]!, signal: signal[i]!, histogram: line[i]! - signal[i]! }));
}

/** Close enough for two computations of the same formula in floating point. */
export function near(a: number, b: number, scale = 1): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b), scale);
}
