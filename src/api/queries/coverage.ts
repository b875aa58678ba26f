// The coverage report of one symbol as served: slots classified from the calendar, the stored bars
// and the feeds' live stretches, up to a settle lag before now (the bar in progress is no gap).
// The CLI's `mds coverage` builds the same answer from the data dir.
import type { Coverage } from '../../domain/coverage-schema.ts';
import type { CoverageParams } from '../../domain/coverage-params.ts';
import type { Bar } from '../../domain/bar.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import type { Timeframe } from '../../domain/timeframes.ts';
import { registryKeyOf } from '../../domain/asset-classes.ts';
import { HISTORY_BUILD_META, unbuiltInterval, type HistoryBuildRecord } from '../../domain/history-build.ts';
import { coverageOf, type CoverageSource } from '../../market/coverage-slots.ts';
import { BAR_FIELDS, type Store } from '../../store/index.ts';
import { SETTLE_LAG_MS } from '../deps.ts';

/** The store as the report reads it; `inProgress` adds a bar not yet sealed (it has a price). */
export function storeCoverageSource(store: Store, inProgress: (symId: number, tf: Timeframe) => Bar | null | undefined): CoverageSource {
  return {
    barTimes(symId, tf, fromMs, toMs) {
      const slice = store.barsInRange(symId, tf, fromMs, toMs);
      const times: number[] = new Array(slice.count);
      for (let i = 0; i < slice.count; i++) times[i] = slice.data[i * BAR_FIELDS]!;
      const live = inProgress(symId, tf);
      if (live && live.t >= fromMs && live.t < toMs && (times.length === 0 || live.t > times[times.length - 1]!)) times.push(live.t);
      return times;
    },
    liveIntervals: (symId, fromMs, toMs) => store.liveIntervals(symId, fromMs, toMs),
    // The simulator's history build, while it runs, covers every series it makes (before its
    // first step is recorded, every series).
    unbuilt(symId) {
      const record = store.getMeta<HistoryBuildRecord>(HISTORY_BUILD_META);
      const pending = unbuiltInterval(record);
      const entry = store.registry.get(symId);
      if (pending === null || entry === undefined) return [];
      return record!.stepsDone === 0 || registryKeyOf(entry.assetClass, entry.symbol) in record!.anchors ? [pending] : [];
    },
  };
}

/** The report's body (CoverageSchema) at `nowMs`. */
export function coverageBody(source: CoverageSource, entry: SymbolEntry, p: CoverageParams, nowMs: number): Coverage {
  const report = coverageOf(source, entry, p, nowMs - SETTLE_LAG_MS);
  return {
    symbol: entry.symbol,
    class: entry.assetClass,
    timeframe: p.tf,
    from: p.fromMs,
    to: p.toMs,
    classified_to: report.classifiedToMs,
    as_of: nowMs,
    totals: report.totals,
    ranges: report.ranges.map((r) => ({ from: r.fromMs, to: r.toMs, kind: r.kind, count: r.count })),
  };
}
