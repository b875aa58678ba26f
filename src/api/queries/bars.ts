// Previous bar and bar ranges of one symbol: sealed bars from the store plus the bar in progress.
// prev (spec): without `interval` the last completed UTC daily bar; with it, the last bar of that
// size whose end lies a settle lag in the past — the same bar the range route returns.
import { ApiError } from '../../domain/errors.ts';
import type { Bar } from '../../domain/bar.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import type { RangeParams } from '../../domain/range-params.ts';
import { BAR_FIELDS_COUNT, type BarColumns } from '../serialize.ts';
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

/** The most recent bar of `tf` whose end is at least the settle lag behind now. */
export function latestSettledBar(deps: ApiDeps, entry: SymbolEntry, tf: Timeframe): SettledBar {
  const now = deps.clock.nowMs();
  const align = alignmentFor(entry);
  const settled = (bar: Bar) => align.barEnd(bar.t, tf) + SETTLE_LAG_MS <= now;
  const nextChangeMs = align.barEnd(align.barStart(now, tf), tf) + SETTLE_LAG_MS;
  let candidate: Bar | null = deps.bars.barInProgress(entry.id, tf);
  let before = candidate ? candidate.t : now + 1;
  for (let i = 0; i < 4 && !(candidate && settled(candidate)); i++) {
    candidate = deps.store.lastBarBefore(entry.id, tf, before);
    if (!candidate) break;
    before = candidate.t;
  }
  if (!candidate || !settled(candidate)) throw new ApiError('NO_BAR');
  const barEndMs = align.barEnd(candidate.t, tf);
  return { bar: candidate, barEndMs, asOfMs: barEndMs + SETTLE_LAG_MS, nextChangeMs: Math.max(nextChangeMs, now + 1000) };
}

/** Bars of the window, sorted and paged per the request, with the window's total. */
export function barRange(deps: ApiDeps, entry: SymbolEntry, p: RangeParams): { columns: BarColumns; start: number; count: number; step: 1 | -1; total: number } {
  const slice = deps.store.barsInRange(entry.id, p.tf, p.fromMs, p.toMs);
  let data = slice.data;
  let total = slice.count;
  const live = deps.bars.barInProgress(entry.id, p.tf);
  const lastSealedT = total > 0 ? data[(total - 1) * BAR_FIELDS_COUNT]! : -Infinity;
  if (live && live.t >= p.fromMs && live.t < p.toMs && live.t > lastSealedT) {
    const grown = new Float64Array((total + 1) * BAR_FIELDS_COUNT);
    grown.set(data);
    const at = total * BAR_FIELDS_COUNT;
    grown[at] = live.t;
    grown[at + 1] = live.o;
    grown[at + 2] = live.h;
    grown[at + 3] = live.l;
    grown[at + 4] = live.c;
    grown[at + 5] = live.v ?? NaN;
    data = grown;
    total++;
  }
  const count = Math.max(0, Math.min(p.limit, total - p.offset));
  const start = p.sort === 'asc' ? p.offset : total - 1 - p.offset;
  return { columns: data, start, count, step: p.sort === 'asc' ? 1 : -1, total };
}
