// The simulator feed's history backfill: on the first start of a data dir, history for every
// instrument; on later starts, the gap since the last run (then the minutes that ended meanwhile).
import type { BackfillRequest } from '../../domain/feed.ts';
import type { Clock } from '../../clock.ts';
import type { Store } from '../../store/index.ts';
import { ALL_INSTRUMENTS } from '../reference/catalog.ts';
import { RAW_SUFFIX } from '../pipeline.ts';
import { extendHistory } from './history.ts';

export interface SimHistoryOptions {
  seed: number;
  historyDays: number;
  historyYears: number;
}

const floorMinute = (ms: number) => ms - (ms % 60_000);

/** Whether the data dir's history was made (the simulator's first start is over). */
export function isFirstStart(store: Store): boolean {
  return store.getMeta('historyDone') === undefined;
}

/** Instruments whose history is committed (and reported) together. */
const HISTORY_FLUSH_INSTRUMENTS = 32;

export async function makeHistory(store: Store, request: BackfillRequest, clock: Clock, opts: SimHistoryOptions, log: (line: string) => void): Promise<void> {
  const endMs = floorMinute(request.endMs);
  const started = performance.now();
  const isFirst = request.isFirstStart;
  const plan = { minuteDays: opts.historyDays, years: opts.historyYears };
  log(isFirst ? `first start: making ${opts.historyDays} days of 1-minute and ${opts.historyYears} years of daily history for ${ALL_INSTRUMENTS.length} instruments` : 'resuming: filling the gap since the last run');
  let done = 0;
  let minutes = 0;
  // Where each series' gap starts (its minute then in progress included), for an ingest node to publish it.
  const gapFrom = new Map<number, number>();
  for (const spec of ALL_INSTRUMENTS) {
    // A series with no minutes gets its whole history; one with minutes continues from its last,
    // so a first start killed midway and run again neither rebuilds nor copies a finished series.
    for (const entry of historyEntries(store, spec)) {
      const last = store.lastCompletedBarT(entry.id, '1m');
      if (!isFirst && last !== null) gapFrom.set(entry.id, last);
      minutes += extendHistory(store, entry, spec, endMs, plan, opts.seed);
    }
    done++;
    // Whole instruments per transaction: a kill leaves each one's history complete or absent.
    if (done % HISTORY_FLUSH_INSTRUMENTS === 0) {
      await store.flush();
      log(`  history ${done}/${ALL_INSTRUMENTS.length} instruments written`);
    }
  }
  await store.flush();
  // Making history takes seconds (a first start about 15): minutes that ended meanwhile get their
  // bars too, or the minutes before the feed's first tick would be a gap in every series.
  let coveredMs = endMs;
  for (let pass = 0; pass < 3 && floorMinute(clock.nowMs()) > coveredMs; pass++) {
    coveredMs = floorMinute(clock.nowMs());
    for (const spec of ALL_INSTRUMENTS) {
      for (const entry of historyEntries(store, spec)) minutes += extendHistory(store, entry, spec, coveredMs, plan, opts.seed);
    }
    await store.flush();
  }
  if (isFirst) await store.putMeta('historyDone', { atMs: coveredMs, seed: opts.seed });
  else await store.historyChanges.note({ kind: 'bars', ranges: [...gapFrom].filter(([, fromMs]) => fromMs < coveredMs).map(([symId, fromMs]) => [symId, fromMs, coveredMs]) });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(isFirst ? `history ready in ${seconds}s` : `gap filled (${minutes} minute bars) in ${seconds}s`);
}

/** The series the simulator's history covers for an instrument: its line and, for forex, the raw line. */
function historyEntries(store: Store, spec: (typeof ALL_INSTRUMENTS)[number]) {
  return [store.registry.resolve(spec.assetClass, spec.symbol), store.registry.bySymbolName(`${spec.symbol}${RAW_SUFFIX}`)].filter((e) => e !== undefined && e !== null);
}
