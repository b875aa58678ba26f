// Previous bar and bar ranges of one symbol: sealed bars from the store plus the bar in progress.
// prev (spec): without `interval` the last completed UTC daily bar; with it, the last bar of that
// size whose end lies a settle lag in the past — the same bar the range route returns.
import { ApiError } from '../../domain/errors.ts';
import type { Bar } from '../../domain/bar.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import type { RangeParams } from '../../domain/range-params.ts';
import type { BarChunkSpan } from '../../store/index.ts';
import type { Timeframe } from '../../domain/timeframes.ts';
import { alignmentFor } from '../../market/bar-alignment.ts';
import { SETTLE_LAG_MS, type ApiDeps } from '../deps.ts';

export interface SettledBar {
  bar: Bar;
  barEndMs: number;
  /** When the bar settled: its end plus the settle lag. */
  asOfMs: number;
  /** When the answer can next change: the end of the bar now in progress plus the lag. */
  nextChangeMs: number;
}

/** The most recent bar of `tf` whose end is at least the settle lag behind now; NO_BAR without one. */
export function latestSettledBar(deps: ApiDeps, entry: SymbolEntry, tf: Timeframe): SettledBar {
  const settled = findSettledBar(deps, entry, tf);
  if (!settled) throw new ApiError('NO_BAR');
  return settled;
}

/** As latestSettledBar, null when there is none (the snapshot's prev_close is then null). */
export function findSettledBar(deps: ApiDeps, entry: SymbolEntry, tf: Timeframe): SettledBar | null {
  const now = deps.clock.nowMs();
  const align = alignmentFor(entry);
  const settled = (bar: Bar) => align.barEnd(bar.t, tf) + SETTLE_LAG_MS <= now;
  // The next bar end that is not yet settled: for a session class between sessions, the end of
  // the next session's first bar, not the end of the (empty) bucket around now.
  const nextChangeMs = align.nextBarEndAfter(now - SETTLE_LAG_MS, tf) + SETTLE_LAG_MS;
  let candidate: Bar | null = deps.bars.barInProgress(entry.id, tf);
  let before = candidate ? candidate.t : now + 1;
  for (let i = 0; i < 4 && !(candidate && settled(candidate)); i++) {
    candidate = deps.store.lastBarBefore(entry.id, tf, before);
    if (!candidate) break;
    before = candidate.t;
  }
  if (!candidate || !settled(candidate)) return null;
  const barEndMs = align.barEnd(candidate.t, tf);
  return { bar: candidate, barEndMs, asOfMs: barEndMs + SETTLE_LAG_MS, nextChangeMs: Math.max(nextChangeMs, now + 1000) };
}

/**
 * One page of a window, in ascending bar order: the window holds `sealed` completed bars (the
 * store's chunk spans, oldest first) and, when `live` is set, the bar in progress after them. The
 * page is bars [lo, hi) of that sequence; `desc` pages are written newest first.
 */
export interface RangePage {
  spans: BarChunkSpan[];
  sealed: number;
  live: Bar | null;
  total: number;
  lo: number;
  hi: number;
  desc: boolean;
}

/** Which bars of the window the request's sort, offset and limit select (spec: sorted, then paged). */
export function rangePage(deps: ApiDeps, entry: SymbolEntry, p: RangeParams): RangePage {
  const spans = deps.store.barChunkSpans(entry.id, p.tf, p.fromMs, p.toMs);
  let sealed = 0;
  for (const span of spans) sealed += span.to - span.from;
  let live = deps.bars.barInProgress(entry.id, p.tf);
  // The bar in progress counts when it lies in the window and follows every completed bar.
  if (live && !(live.t >= p.fromMs && live.t < p.toMs && live.t > (deps.store.lastCompletedBarT(entry.id, p.tf) ?? -Infinity))) live = null;
  const total = sealed + (live ? 1 : 0);
  const count = Math.max(0, Math.min(p.limit, total - p.offset));
  const desc = p.sort === 'desc';
  const lo = desc ? total - p.offset - count : p.offset;
  return { spans, sealed, live, total, lo, hi: lo + count, desc };
}
