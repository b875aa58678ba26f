// Split and dividend adjustment of stock bars: pure. A symbol's corporate actions become a
// schedule of price and volume factors by date; a bar gets the product of the factors of every
// action in force dated after it.
//  - split (from → to shares): earlier prices × from/to (÷ the ratio), earlier volume × to/from;
//  - dividend (the CRSP method): earlier prices × (1 − cash ÷ previous close), volume unchanged,
//    where the previous close is the raw daily close before the ex-date, restated in the ex-date's
//    shares when a split lies between the two;
//  - all: both.
// An action applies to the bars before UTC midnight of its date. Every bar of a stock lies within
// one UTC date (daily bars are the UTC date; sub-daily bars lie inside the regular session), so a
// rolled-up bar and its minutes get the same factor, and scaling by a positive factor commutes
// with first/max/min/last and with a sum: adjusting a rolled-up bar equals rolling up its adjusted
// minutes (test/domain/adjustment-rollup.test.ts holds the two to each other).
import type { Bar } from './bar.ts';
import type { Dividend, Split, SymbolActions } from './corporate-actions.ts';
import { badRequest } from './errors.ts';
import { quoteInput } from './symbols.ts';

export const ADJUSTMENTS = ['raw', 'split', 'dividend', 'all'] as const;
export type Adjustment = (typeof ADJUSTMENTS)[number];

/** The `adjustment` query parameter: raw when absent; a 400 naming the allowed values otherwise. */
export function parseAdjustment(raw: string | undefined, name = 'adjustment'): Adjustment {
  if (raw === undefined || raw === '') return 'raw';
  const v = raw.toLowerCase();
  if (!(ADJUSTMENTS as readonly string[]).includes(v)) throw badRequest(`invalid ${name} ${quoteInput(raw)}: allowed values are ${ADJUSTMENTS.join(', ')}`);
  return v as Adjustment;
}

const DAY_MS = 86_400_000;

/** UTC midnight of a YYYY-MM-DD date: bars before it are adjusted for an action of that date. */
export function cutoffOf(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

/** The actions an adjustment applies that are in force on `today` (dated on or before it). */
export function actionsInForce(actions: SymbolActions, adjustment: Adjustment, today: string): SymbolActions {
  return {
    splits: adjustment === 'split' || adjustment === 'all' ? actions.splits.filter((s) => s.date <= today) : [],
    dividends: adjustment === 'dividend' || adjustment === 'all' ? actions.dividends.filter((d) => d.exDate <= today) : [],
  };
}

/**
 * A short deterministic identifier of a set of actions (those `actionsInForce` chose): the first
 * 12 hex digits of the SHA-256 of their sorted canonical text. Only what moves prices counts (a
 * corrected pay date changes no bar, so no cache).
 */
export function adjustmentVersion(inForce: SymbolActions): string {
  const lines = [...inForce.splits.map((s) => `s ${s.date} ${s.from} ${s.to}`), ...inForce.dividends.map((d) => `d ${d.exDate} ${d.cash}`)].sort();
  return new Bun.CryptoHasher('sha256').update(lines.join('\n')).digest('hex').slice(0, 12);
}

/** The raw daily close before an ex-date, and the date of its bar. */
export interface PreviousClose {
  close: number;
  date: string;
}

/** Factors by date: bars with t < cutoffs[0] get price[0], ..., bars at or after the last cutoff get 1. */
export interface AdjustmentSchedule {
  adjustment: Adjustment;
  version: string;
  cutoffs: Float64Array;
  /** price[j]: the price factor of bars in [cutoffs[j-1], cutoffs[j]); price[cutoffs.length] = 1. */
  price: Float64Array;
  volume: Float64Array;
  /** Dividends in force left out: no daily close before their ex-date, or cash not below it. */
  skippedDividends: string[];
}

/** The factor one split puts on earlier prices. */
function splitPriceFactor(s: Split): number {
  return s.from / s.to;
}

/** The factor one dividend puts on earlier prices, or null when it cannot be applied. */
export function dividendFactor(d: Dividend, prev: PreviousClose | null, splits: readonly Split[]): number | null {
  if (prev === null) return null;
  // The close in the ex-date's shares: splits executed after the close's day, on or before the ex-date.
  let ratio = 1;
  for (const s of splits) if (s.date > prev.date && s.date <= d.exDate) ratio *= s.to / s.from;
  const f = 1 - d.cash / (prev.close / ratio);
  return f > 0 && Number.isFinite(f) ? f : null;
}

/**
 * Builds the schedule of a symbol's actions that `adjustment` applies and that are in force on
 * `today`. A dividend's previous close is restated by every split between the two, also when the
 * answer is not split-adjusted: that is about units, not about which adjustment is asked for.
 */
export function buildSchedule(adjustment: Adjustment, actions: SymbolActions, today: string, previousClose: (exDate: string) => PreviousClose | null): AdjustmentSchedule {
  const inForce = actionsInForce(actions, adjustment, today);
  const events: { cutoff: number; price: number; volume: number }[] = [];
  for (const s of inForce.splits) events.push({ cutoff: cutoffOf(s.date), price: splitPriceFactor(s), volume: s.to / s.from });
  const skippedDividends: string[] = [];
  for (const d of inForce.dividends) {
    const f = dividendFactor(d, previousClose(d.exDate), actions.splits);
    if (f === null) skippedDividends.push(d.exDate);
    else events.push({ cutoff: cutoffOf(d.exDate), price: f, volume: 1 });
  }
  events.sort((a, b) => a.cutoff - b.cutoff);
  const cutoffs: number[] = [];
  const perCutoff: { price: number; volume: number }[] = [];
  for (const e of events) {
    if (cutoffs.length > 0 && cutoffs[cutoffs.length - 1] === e.cutoff) {
      const last = perCutoff[perCutoff.length - 1]!;
      last.price *= e.price;
      last.volume *= e.volume;
    } else {
      cutoffs.push(e.cutoff);
      perCutoff.push({ price: e.price, volume: e.volume });
    }
  }
  const k = cutoffs.length;
  const price = new Float64Array(k + 1);
  const volume = new Float64Array(k + 1);
  price[k] = 1;
  volume[k] = 1;
  for (let j = k - 1; j >= 0; j--) {
    price[j] = price[j + 1]! * perCutoff[j]!.price;
    volume[j] = volume[j + 1]! * perCutoff[j]!.volume;
  }
  return { adjustment, version: adjustmentVersion(inForce), cutoffs: Float64Array.from(cutoffs), price, volume, skippedDividends };
}

/**
 * Adjusted prices are rounded to 6 decimals (a millionth of the currency: far below any tick) so
 * they print as short as raw ones (`113.697531`, not `113.69753099999999`): bodies stay the size
 * of raw ones. Rounding is monotone, so it still commutes with highest and lowest (a rolled-up bar
 * stays the roll-up of its minutes); volume is never rounded (a sum would not commute).
 */
export function roundPrice(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** The segment of the schedule a bar starting at `t` lies in. */
function segmentOf(schedule: AdjustmentSchedule, t: number): number {
  const c = schedule.cutoffs;
  let lo = 0;
  let hi = c.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (c[mid]! <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Adjusts packed bar records [t, o, h, l, c, v] × n in place (ascending or not). */
export function adjustRecords(schedule: AdjustmentSchedule, records: Float64Array, n: number, stride = 6): void {
  if (schedule.cutoffs.length === 0) return;
  const c = schedule.cutoffs;
  let seg = -1;
  let segLo = Infinity;
  let segHi = -Infinity;
  let pf = 1;
  let vf = 1;
  for (let i = 0, at = 0; i < n; i++, at += stride) {
    const t = records[at]!;
    if (t < segLo || t >= segHi) {
      seg = segmentOf(schedule, t);
      segLo = seg === 0 ? -Infinity : c[seg - 1]!;
      segHi = seg === c.length ? Infinity : c[seg]!;
      pf = schedule.price[seg]!;
      vf = schedule.volume[seg]!;
    }
    if (pf === 1 && vf === 1) continue;
    records[at + 1] = roundPrice(records[at + 1]! * pf);
    records[at + 2] = roundPrice(records[at + 2]! * pf);
    records[at + 3] = roundPrice(records[at + 3]! * pf);
    records[at + 4] = roundPrice(records[at + 4]! * pf);
    records[at + 5] = records[at + 5]! * vf;
  }
}

/** One adjusted bar (a copy). */
export function adjustBar(schedule: AdjustmentSchedule, bar: Bar): Bar {
  const seg = segmentOf(schedule, bar.t);
  const pf = schedule.price[seg]!;
  const vf = schedule.volume[seg]!;
  if (pf === 1 && vf === 1) return { ...bar };
  return { t: bar.t, o: roundPrice(bar.o * pf), h: roundPrice(bar.h * pf), l: roundPrice(bar.l * pf), c: roundPrice(bar.c * pf), v: bar.v === null ? null : bar.v * vf };
}

/** The UTC date of an instant. */
export function utcDateOf(ms: number): string {
  return new Date(ms - (ms % DAY_MS)).toISOString().slice(0, 10);
}
