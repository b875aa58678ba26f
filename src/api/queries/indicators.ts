// An indicator over a window of one symbol's bars: the window's bars exactly as the range route
// answers them (sealed bars from the store, the bar in progress by the same rule), preceded by the
// warm-up bars before it, computed by domain/indicators and paged as the range route pages.
import type { Bar } from '../../domain/bar.ts';
import { computeIndicator, warmupBars, type IndicatorSpec } from '../../domain/indicators/compute.ts';
import type { SeriesType } from '../../domain/indicators/params.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import { TIMEFRAME_INFO, type Timeframe } from '../../domain/timeframes.ts';
import type { BarSlice } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';

/** A bar's value at one bar of the window. */
export interface IndicatorPoint {
  t: number;
  value: number;
  signal?: number;
  histogram?: number;
  /** The bar the value was computed at (the vendor's expand_underlying shows it). */
  bar: Bar;
}

export interface IndicatorSeries {
  /** The window's bars that have a value, oldest first. */
  points: IndicatorPoint[];
  /** Bars read before the window (fewer than the rule asks when the history is shorter). */
  warmupCount: number;
  /** Bars of the window with no value: too few bars precede them. */
  skippedCount: number;
}

/** Where a series type's price sits in a packed bar (t, o, h, l, c, v). */
const FIELD: Record<SeriesType, number> = { open: 1, high: 2, low: 3, close: 4 };
const FIELDS = 6;

/**
 * Warm-up reads look back this many times the bar durations the warm-up needs, doubling from 2:
 * sessions, weekends and holidays leave US stock minutes at about a fifth of the clock's slots.
 */
const LOOKBACK_FACTORS = [2, 8, 32] as const;

export function indicatorSeries(deps: ApiDeps, entry: SymbolEntry, spec: IndicatorSpec, series: SeriesType, tf: Timeframe, fromMs: number, toMs: number): IndicatorSeries {
  const window = windowBars(deps, entry, tf, fromMs, toMs);
  const warm = barsBefore(deps, entry, tf, fromMs, warmupBars(spec));
  const field = FIELD[series];
  const total = warm.count + window.length;
  const x = new Float64Array(total);
  for (let i = 0; i < warm.count; i++) x[i] = warm.data[i * FIELDS + field]!;
  for (let i = 0; i < window.length; i++) x[warm.count + i] = priceOf(window[i]!, series);
  const { value, signal, histogram } = computeIndicator(spec, x);
  const points: IndicatorPoint[] = [];
  for (let i = 0; i < window.length; i++) {
    const v = value[warm.count + i]!;
    if (Number.isNaN(v)) continue;
    const bar = window[i]!;
    const point: IndicatorPoint = { t: bar.t, value: v, bar };
    if (signal && histogram) {
      point.signal = signal[warm.count + i]!;
      point.histogram = histogram[warm.count + i]!;
    }
    points.push(point);
  }
  return { points, warmupCount: warm.count, skippedCount: window.length - points.length };
}

function priceOf(bar: Bar, series: SeriesType): number {
  return series === 'close' ? bar.c : series === 'open' ? bar.o : series === 'high' ? bar.h : bar.l;
}

/** The range route's bars of [fromMs, toMs): completed bars, then the bar in progress when it counts. */
function windowBars(deps: ApiDeps, entry: SymbolEntry, tf: Timeframe, fromMs: number, toMs: number): Bar[] {
  const slice = deps.store.barsInRange(entry.id, tf, fromMs, toMs);
  const bars: Bar[] = [];
  for (let i = 0; i < slice.count; i++) bars.push(barAt(slice.data, i));
  const live = deps.bars.barInProgress(entry.id, tf);
  // The rule of rangePage: in the window and after every completed bar.
  if (live && live.t >= fromMs && live.t < toMs && live.t > (deps.store.lastCompletedBarT(entry.id, tf) ?? -Infinity)) bars.push({ ...live });
  return bars;
}

function barAt(data: Float64Array, i: number): Bar {
  const at = i * FIELDS;
  const v = data[at + 5]!;
  return { t: data[at]!, o: data[at + 1]!, h: data[at + 2]!, l: data[at + 3]!, c: data[at + 4]!, v: Number.isNaN(v) ? null : v };
}

/** The last `need` completed bars before `beforeMs`, packed, oldest first (fewer if the history has fewer). */
function barsBefore(deps: ApiDeps, entry: SymbolEntry, tf: Timeframe, beforeMs: number, need: number): BarSlice {
  if (need <= 0) return { count: 0, data: new Float64Array(0) };
  const duration = TIMEFRAME_INFO[tf].durationMs;
  let slice: BarSlice = { count: 0, data: new Float64Array(0) };
  for (const factor of LOOKBACK_FACTORS) {
    slice = deps.store.barsInRange(entry.id, tf, Math.max(0, beforeMs - need * duration * factor), beforeMs);
    if (slice.count >= need || beforeMs - need * duration * factor <= 0) break;
  }
  if (slice.count <= need) return slice;
  return { count: need, data: slice.data.subarray((slice.count - need) * FIELDS) };
}

/** Page [offset, offset + limit) of the points in `sort` order, and the next page's offset (range route rules). */
export function pageOf<P>(points: readonly P[], offset: number, limit: number, sort: 'asc' | 'desc'): { page: P[]; nextOffset: number | null } {
  const total = points.length;
  const count = Math.max(0, Math.min(limit, total - offset));
  if (sort === 'asc') return { page: points.slice(offset, offset + count), nextOffset: offset + count < total ? offset + count : null };
  const lo = total - offset - count;
  return { page: points.slice(lo, lo + count).reverse(), nextOffset: lo > 0 ? offset + count : null };
}
