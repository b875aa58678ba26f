// Bars one node wrote outside its live path, as another node writes them (an ingest node's import
// or gap filling, replicated to an edge by src/cluster): which coarser bars a changed range of
// minutes touches, and how the live bar builder resumes once they are written, as after an import.
import type { Timeframe } from '../../../domain/timeframes.ts';
import type { SymbolEntry } from '../../../domain/instrument.ts';
import { alignmentFor } from '../../../market/bar-alignment.ts';
import type { Store } from '../../../store/index.ts';
import type { BarBuilder } from '../../bar-builder.ts';
import { refoldOpenBars } from './apply-bars.ts';

/** The start of the `tf` bar holding `tsMs` in the symbol's alignment (its sessions, for a daily bar). */
export function barStartOf(entry: SymbolEntry, tsMs: number, tf: Timeframe): number {
  return alignmentFor(entry).barStart(tsMs, tf);
}

/**
 * After completed bars were written into a series from elsewhere: its coarser bars in progress are
 * folded again from the stored minutes, and the builder (when it makes the series' bars) resumes
 * from them.
 */
export function resumeSeries(store: Store, entry: SymbolEntry, bars: BarBuilder | null, minutesChanged: boolean): void {
  const align = alignmentFor(entry);
  if (minutesChanged) refoldOpenBars(store, entry.id, align);
  bars?.track(entry.id, align);
}
