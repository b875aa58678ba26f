// The bar slots a symbol is expected to have (its market's sessions laid over its bar alignment)
// and its coverage report over a window: the slots, the stored bars and the feeds' live intervals
// handed to the pure classification in domain/coverage.ts.
import { CLASS_POLICY } from '../domain/asset-classes.ts';
import { classifyCoverage, mergeIntervals, type CoverageResult, type Interval } from '../domain/coverage.ts';
import type { CoverageParams } from '../domain/coverage-params.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import { DAY_MS, TIMEFRAME_INFO, type Timeframe } from '../domain/timeframes.ts';
import { alignmentFor, type BarAlignment } from './bar-alignment.ts';
import { getMarket } from './registry.ts';
import { sessionsBetween } from './session-query.ts';

type Placed = Pick<SymbolEntry, 'assetClass' | 'market'>;

/**
 * The calendar that says when a symbol trades: stocks and indices their own market's (an index
 * trades in its home exchange's cash session), every other class its class market's. The
 * simulator ticks by the same rule.
 */
export function tradingCalendarOf(entry: Placed): string {
  const own = entry.assetClass === 'stocks' || entry.assetClass === 'indices' ? entry.market : null;
  return own !== null && getMarket(own) !== undefined ? own : CLASS_POLICY[entry.assetClass].calendar;
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** When `code` trades inside [fromMs, toMs): its sessions without their lunch breaks, merged where they touch. */
export function tradingIntervals(code: string, fromMs: number, toMs: number): Interval[] {
  // A session of local date d can open the evening before in UTC (FOREX) or close after midnight (ETFS).
  const sessions = sessionsBetween(code, isoDate(fromMs - 2 * DAY_MS), isoDate(toMs + DAY_MS));
  const pieces: Interval[] = [];
  const add = (a: number, b: number) => {
    const from = Math.max(a, fromMs);
    const to = Math.min(b, toMs);
    if (to > from) pieces.push({ fromMs: from, toMs: to });
  };
  for (const s of sessions) {
    if (s.breakStartMs !== null && s.breakEndMs !== null) {
      add(s.openMs, s.breakStartMs);
      add(s.breakEndMs, s.closeMs);
    } else {
      add(s.openMs, s.closeMs);
    }
  }
  return mergeIntervals(pieces);
}

export interface Slots {
  starts: number[];
  ends: number[];
}

/**
 * The bars of `tf` that could hold a price traded in `trading` (sorted, disjoint), with their
 * start in [fromMs, toMs): every bar the alignment places over trading time, once. Daily slots
 * are UTC dates; sub-daily ones follow each other inside a session (anchored at the open and cut
 * at the close where the alignment says so).
 */
export function expectedSlots(align: BarAlignment, tf: Timeframe, trading: readonly Interval[], fromMs: number, toMs: number): Slots {
  const starts: number[] = [];
  const ends: number[] = [];
  for (const piece of trading) {
    let t = align.barStart(piece.fromMs, tf);
    while (t < piece.toMs) {
      const end = align.barEnd(t, tf);
      if (t >= fromMs && t < toMs && (starts.length === 0 || t > starts[starts.length - 1]!)) {
        starts.push(t);
        ends.push(end);
      }
      // A session-bound daily bar ends at the close, yet the next one starts the next UTC date.
      t = tf === '1d' || end <= t ? t + TIMEFRAME_INFO[tf].durationMs : end;
    }
  }
  return { starts, ends };
}

/** What the report reads: bar times and live intervals (the store offers both). */
export interface CoverageSource {
  /** Start times of the completed bars with fromMs ≤ t < toMs, ascending. */
  barTimes(symId: number, tf: Timeframe, fromMs: number, toMs: number): ArrayLike<number>;
  /** When feeds supplying the symbol were live, overlapping [fromMs, toMs). */
  liveIntervals(symId: number, fromMs: number, toMs: number): Interval[];
  /** Time the history build has not reached yet for the symbol (sorted, disjoint); none when absent. */
  unbuilt?(symId: number): Interval[];
}

export interface CoverageReport extends CoverageResult {
  /** Slots ending after this are left out: the bar in progress and the future. */
  classifiedToMs: number;
}

/**
 * The coverage of one symbol over a window, classified up to `untilMs` (the caller's "now minus
 * the settle lag"): a slot that has not ended by then is in progress or ahead, neither a bar nor a gap yet.
 */
export function coverageOf(source: CoverageSource, entry: Placed & Pick<SymbolEntry, 'id'>, p: CoverageParams, untilMs: number): CoverageReport {
  const classifiedToMs = Math.max(p.fromMs, Math.min(p.toMs, untilMs));
  const trading = tradingIntervals(tradingCalendarOf(entry), p.fromMs, p.toMs);
  const all = expectedSlots(alignmentFor(entry), p.tf, trading, p.fromMs, p.toMs);
  let n = 0;
  while (n < all.ends.length && all.ends[n]! <= classifiedToMs) n++;
  const slotStarts = all.starts.slice(0, n);
  const slotEnds = all.ends.slice(0, n);
  const lastEnd = n > 0 ? slotEnds[n - 1]! : p.fromMs;
  const result = classifyCoverage({
    slotStarts,
    slotEnds,
    barTimes: n > 0 ? source.barTimes(entry.id, p.tf, p.fromMs, lastEnd) : [],
    trading,
    live: n > 0 ? source.liveIntervals(entry.id, p.fromMs, lastEnd) : [],
    unbuilt: source.unbuilt?.(entry.id) ?? [],
  });
  return { ...result, classifiedToMs };
}
