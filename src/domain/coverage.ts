// The coverage report's rule (issue 15, item 7), pure: each expected bar slot is `bars` (a bar was
// stored for it), `quiet` (no bar, but a feed was live over all of the slot's trading time: nothing
// traded), `gap` (no bar and no live feed to vouch for it: feed down, import hole, downtime) or
// `pending` (no bar yet in time a history build running in the background has still to fill).
// Consecutive slots of one kind that touch in time merge into one range.

export type CoverageKind = 'bars' | 'quiet' | 'gap' | 'pending';

/** A half-open span of time [fromMs, toMs). */
export interface Interval {
  fromMs: number;
  toMs: number;
}

export interface CoverageRange extends Interval {
  kind: CoverageKind;
  /** Slots in the range. */
  count: number;
}

export interface CoverageTotals {
  slots: number;
  bars: number;
  quiet: number;
  gaps: number;
  pending: number;
}

export interface CoverageResult {
  ranges: CoverageRange[];
  totals: CoverageTotals;
}

export interface CoverageInput {
  /** Slot starts, ascending; slot i is [slotStarts[i], slotEnds[i]) and slots do not overlap. */
  slotStarts: ArrayLike<number>;
  slotEnds: ArrayLike<number>;
  /** Start times of the stored bars, ascending (bars outside every slot are ignored). */
  barTimes: ArrayLike<number>;
  /** When the market trades, sorted and disjoint: a slot needs a live feed only over these parts of it. */
  trading: readonly Interval[];
  /** When a feed supplying the symbol was live, in any order, overlapping or not. */
  live: readonly Interval[];
  /** Time a history build has not reached yet, sorted and disjoint: an empty slot there is pending, not a gap. */
  unbuilt?: readonly Interval[];
}

/** Intervals sorted by start with overlapping and touching ones joined. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.toMs > i.fromMs).sort((a, b) => a.fromMs - b.fromMs);
  const out: Interval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && i.fromMs <= last.toMs) last.toMs = Math.max(last.toMs, i.toMs);
    else out.push({ fromMs: i.fromMs, toMs: i.toMs });
  }
  return out;
}

/** The parts of `base` (sorted, disjoint) that no interval of `cut` (merged) covers. */
export function subtractIntervals(base: readonly Interval[], cut: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let c = 0;
  for (const b of base) {
    let from = b.fromMs;
    while (c < cut.length && cut[c]!.toMs <= from) c++;
    for (let k = c; k < cut.length && cut[k]!.fromMs < b.toMs; k++) {
      const piece = cut[k]!;
      if (piece.fromMs > from) out.push({ fromMs: from, toMs: piece.fromMs });
      from = Math.max(from, piece.toMs);
      if (from >= b.toMs) break;
    }
    if (from < b.toMs) out.push({ fromMs: from, toMs: b.toMs });
  }
  return out;
}

/**
 * Classifies every slot once and merges runs into ranges, in time order. One pass over the slots,
 * the bars and the trading time no live feed covered: linear in the input.
 */
export function classifyCoverage(input: CoverageInput): CoverageResult {
  const { slotStarts, slotEnds, barTimes } = input;
  const unvouched = subtractIntervals(input.trading, mergeIntervals(input.live));
  const ranges: CoverageRange[] = [];
  const unbuilt = input.unbuilt ?? [];
  const totals: CoverageTotals = { slots: slotStarts.length, bars: 0, quiet: 0, gaps: 0, pending: 0 };
  let b = 0;
  let u = 0;
  let p = 0;
  for (let i = 0; i < slotStarts.length; i++) {
    const from = slotStarts[i]!;
    const to = slotEnds[i]!;
    while (b < barTimes.length && barTimes[b]! < from) b++;
    let kind: CoverageKind;
    if (b < barTimes.length && barTimes[b]! < to) {
      kind = 'bars';
      totals.bars++;
    } else if (overlaps(unbuilt, (p = skipBefore(unbuilt, p, from)), from, to)) {
      kind = 'pending';
      totals.pending++;
    } else {
      while (u < unvouched.length && unvouched[u]!.toMs <= from) u++;
      const isVouched = !(u < unvouched.length && unvouched[u]!.fromMs < to);
      kind = isVouched ? 'quiet' : 'gap';
      if (isVouched) totals.quiet++;
      else totals.gaps++;
    }
    const last = ranges[ranges.length - 1];
    if (last && last.kind === kind && last.toMs === from) {
      last.toMs = to;
      last.count++;
    } else {
      ranges.push({ fromMs: from, toMs: to, kind, count: 1 });
    }
  }
  return { ranges, totals };
}

/** The index of the first interval (from `at`) that ends after `fromMs`. */
function skipBefore(intervals: readonly Interval[], at: number, fromMs: number): number {
  while (at < intervals.length && intervals[at]!.toMs <= fromMs) at++;
  return at;
}

function overlaps(intervals: readonly Interval[], at: number, fromMs: number, toMs: number): boolean {
  return at < intervals.length && intervals[at]!.fromMs < toMs && intervals[at]!.toMs > fromMs;
}
