// The simulator feed's history backfill: on the first start of a data dir, history for every
// instrument; on later starts, the gap since the last run (then the minutes that ended meanwhile).
import { registryKeyOf } from '../../domain/asset-classes.ts';
import type { BackfillRequest } from '../../domain/feed.ts';
import type { Clock } from '../../clock.ts';
import type { Store } from '../../store/index.ts';
import { ALL_INSTRUMENTS } from '../reference/catalog.ts';
import { RAW_SUFFIX } from '../pipeline.ts';
import { backfillInstrument, fillGap } from './history.ts';
import { Rng, seedFor } from './random.ts';

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

export async function makeHistory(store: Store, request: BackfillRequest, clock: Clock, opts: SimHistoryOptions, log: (line: string) => void): Promise<void> {
  const endMs = floorMinute(request.endMs);
  const started = performance.now();
  const isFirst = request.isFirstStart;
  log(isFirst ? `first start: making ${opts.historyDays} days of 1-minute and ${opts.historyYears} years of daily history for ${ALL_INSTRUMENTS.length} instruments` : 'resuming: filling the gap since the last run');
  let done = 0;
  let lastReport = performance.now();
  let minutes = 0;
  for (const spec of ALL_INSTRUMENTS) {
    for (const entry of historyEntries(store, spec)) {
      const rng = new Rng(seedFor(opts.seed, `history:${registryKeyOf(entry.assetClass, entry.symbol)}`));
      if (isFirst) backfillInstrument(store, entry, spec, endMs, { minuteDays: opts.historyDays, years: opts.historyYears }, rng);
      else minutes += fillGap(store, entry, spec, endMs, opts.historyDays, rng);
    }
    done++;
    if (performance.now() - lastReport > 2000) {
      lastReport = performance.now();
      log(`  history ${done}/${ALL_INSTRUMENTS.length} instruments`);
      await store.flush();
    }
  }
  await store.flush();
  // Making history takes seconds (a first start about 15): minutes that ended meanwhile get their
  // bars too, or the minutes before the feed's first tick would be a gap in every series.
  let coveredMs = endMs;
  for (let pass = 0; pass < 3 && floorMinute(clock.nowMs()) > coveredMs; pass++) {
    coveredMs = floorMinute(clock.nowMs());
    for (const spec of ALL_INSTRUMENTS) {
      for (const entry of historyEntries(store, spec)) {
        const rng = new Rng(seedFor(opts.seed, `catch-up:${registryKeyOf(entry.assetClass, entry.symbol)}:${coveredMs}`));
        minutes += fillGap(store, entry, spec, coveredMs, opts.historyDays, rng);
      }
    }
    await store.flush();
  }
  if (isFirst) await store.putMeta('historyDone', { atMs: coveredMs, seed: opts.seed });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(isFirst ? `history ready in ${seconds}s` : `gap filled (${minutes} minute bars) in ${seconds}s`);
}

/** The series the simulator's history covers for an instrument: its line and, for forex, the raw line. */
function historyEntries(store: Store, spec: (typeof ALL_INSTRUMENTS)[number]) {
  return [store.registry.resolve(spec.assetClass, spec.symbol), store.registry.bySymbolName(`${spec.symbol}${RAW_SUFFIX}`)].filter((e) => e !== undefined && e !== null);
}
