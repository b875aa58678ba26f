// Bars as the pipeline and store see them, and the pure aggregation rules: bucket starts, folding
// prices into a bar, rolling finer bars up. Property-tested against naive aggregation.
import { DAY_MS, TIMEFRAME_INFO, type Timeframe } from './timeframes.ts';

/** One OHLCV bar. `v` is null when the class publishes no volume. */
export interface Bar {
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number | null;
}

/**
 * Says where a bar of a timeframe starts for an instant. Most series align to UTC multiples of the
 * bar size; US stocks align hourly and 4-hour bars to the 09:30 session open (spec: "Hourly bars
 * start at 09:30; 4-hour bars start at 09:30 and 13:30"), which `anchorMs` expresses.
 */
export function bucketStart(tsMs: number, tf: Timeframe, anchorMs = 0): number {
  const size = TIMEFRAME_INFO[tf].durationMs;
  if (tf === '1d') return tsMs - mod(tsMs, DAY_MS);
  return tsMs - mod(tsMs - anchorMs, size);
}

function mod(a: number, n: number): number {
  const r = a % n;
  return r < 0 ? r + n : r;
}

/** A new bar opened by one price. */
export function openBar(t: number, price: number, size: number | null): Bar {
  return { t, o: price, h: price, l: price, c: price, v: size };
}

/** Folds one more price into a bar in place (hot path: no allocation). */
export function foldPrice(bar: Bar, price: number, size: number | null): void {
  if (price > bar.h) bar.h = price;
  if (price < bar.l) bar.l = price;
  bar.c = price;
  if (size !== null) bar.v = roundVolume((bar.v ?? 0) + size);
}

/** Volumes are sums of decimal sizes: keep them free of binary float noise (8 decimals). */
export function roundVolume(v: number): number {
  return Math.round(v * 1e8) / 1e8;
}

/** Folds a finer bar into a coarser one in place. */
export function foldBar(into: Bar, bar: Bar): void {
  if (bar.h > into.h) into.h = bar.h;
  if (bar.l < into.l) into.l = bar.l;
  into.c = bar.c;
  if (bar.v !== null) into.v = roundVolume((into.v ?? 0) + bar.v);
}

/**
 * Rolls time-ordered finer bars into coarser ones; `bucketOf` gives the coarse bar start of a time.
 * With `bucketEndOf` (the end of the bucket that starts at a time), a bar before the current
 * bucket's end is folded without asking `bucketOf` again.
 */
export function rollUp(bars: readonly Bar[], bucketOf: (tMs: number) => number, bucketEndOf?: (bucketStartMs: number) => number): Bar[] {
  const out: Bar[] = [];
  let current: Bar | undefined;
  let endMs = -Infinity;
  for (const bar of bars) {
    if (current && bar.t < endMs) {
      foldBar(current, bar);
      continue;
    }
    const t = bucketOf(bar.t);
    if (!current || current.t !== t) {
      if (bucketEndOf) endMs = bucketEndOf(t);
      current = { t, o: bar.o, h: bar.h, l: bar.l, c: bar.c, v: bar.v };
      out.push(current);
    } else {
      foldBar(current, bar);
    }
  }
  return out;
}
