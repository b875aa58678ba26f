// The simulator feed's history. Before the server opens: each series' head (its last days of
// minutes and its bars in progress) on a first start, the gap since the last run after a restart.
// The older history follows in the background (history-build.ts), newest first.
import type { BackfillRequest } from '../../domain/feed.ts';
import { HISTORY_BUILD_META, type HistoryBuildRecord } from '../../domain/history-build.ts';
import type { Clock } from '../../clock.ts';
import type { Store } from '../../store/index.ts';
import { ALL_INSTRUMENTS } from '../reference/catalog.ts';
import { RAW_SUFFIX } from '../pipeline.ts';
import { ActionPrices, SIM_ACTIONS_META, storedSimActions, writeSimActions, type SimActionsRecord } from './corporate-actions.ts';
import { extendHistory } from './history.ts';
import { historySteps } from './history-steps.ts';

export interface SimHistoryOptions {
  seed: number;
  historyDays: number;
  historyYears: number;
}

type InstrumentSpecs = typeof ALL_INSTRUMENTS;

const floorMinute = (ms: number) => ms - (ms % 60_000);

/** Whether the data dir's history was made (the simulator's first start is over). */
export function isFirstStart(store: Store): boolean {
  return store.getMeta('historyDone') === undefined && store.getMeta(HISTORY_BUILD_META) === undefined;
}

/** Instruments whose recent history is committed (and reported) together. */
const HEAD_FLUSH_INSTRUMENTS = 32;

/**
 * Writes what the server needs before it opens: every series' head on a first start (and for a
 * series new to the catalog), the gap since the last run otherwise. A first start then records the
 * background build it leaves to do (history-build.ts).
 */
export async function makeHistory(store: Store, request: BackfillRequest, clock: Clock, opts: SimHistoryOptions, log: (line: string) => void, instruments: InstrumentSpecs = ALL_INSTRUMENTS): Promise<void> {
  const endMs = floorMinute(request.endMs);
  const started = performance.now();
  const isFirst = request.isFirstStart;
  const plan = { minuteDays: opts.historyDays, years: opts.historyYears };
  log(isFirst ? `first start: making the recent history of ${instruments.length} instruments; ${opts.historyDays} days of 1-minute and ${opts.historyYears} years of daily history follow in the background, newest first` : 'resuming: filling the gap since the last run');
  const actions = await simActionsFor(store, isFirst, endMs, instruments);
  let done = 0;
  let minutes = 0;
  // Where each series' gap starts (its minute then in progress included), for an ingest node to publish it.
  const gapFrom = new Map<number, number>();
  for (const spec of instruments) {
    for (const entry of historyEntries(store, spec)) {
      const last = store.lastCompletedBarT(entry.id, '1m');
      if (!isFirst && last !== null) gapFrom.set(entry.id, last);
      minutes += extendHistory(store, entry, spec, endMs, plan, opts.seed, ActionPrices.of(actions, entry.assetClass, entry.symbol));
    }
    done++;
    // Whole instruments per transaction: a kill leaves each one's recent history complete or absent.
    if (done % HEAD_FLUSH_INSTRUMENTS === 0) {
      await store.flush();
      log(`  recent history ${done}/${instruments.length} instruments written`);
    }
  }
  await store.flush();
  // Minutes that ended meanwhile get their bars too, or the minutes before the feed's first tick
  // would be a gap in every series.
  let coveredMs = endMs;
  for (let pass = 0; pass < 3 && floorMinute(clock.nowMs()) > coveredMs; pass++) {
    coveredMs = floorMinute(clock.nowMs());
    for (const spec of instruments) {
      for (const entry of historyEntries(store, spec)) minutes += extendHistory(store, entry, spec, coveredMs, plan, opts.seed);
    }
    await store.flush();
  }
  if (isFirst) {
    const steps = historySteps(endMs, plan);
    const record: HistoryBuildRecord = {
      endMs,
      headToMs: coveredMs,
      seed: opts.seed,
      minuteDays: plan.minuteDays,
      years: plan.years,
      startedMs: clock.nowMs(),
      stepsDone: 0,
      stepsTotal: steps.length,
      builtFromMs: steps[0]?.toMs ?? endMs,
      targetFromMs: steps.at(-1)?.fromMs ?? endMs,
      anchors: {},
      doneMs: null,
    };
    await store.putMeta(HISTORY_BUILD_META, record);
  } else await store.historyChanges.note({ kind: 'bars', ranges: [...gapFrom].filter(([, fromMs]) => fromMs < coveredMs).map(([symId, fromMs]) => [symId, fromMs, coveredMs]) });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  log(isFirst ? `recent history ready in ${seconds}s` : `gap filled (${minutes} minute bars) in ${seconds}s`);
}

/**
 * The simulated corporate actions, written before any bar they restate. A first start dates them
 * from its end and records that end first, so one killed midway and started again (a first start
 * again) makes the same ones; a restart writes them again (changing nothing). A data dir made
 * before the simulator had actions has none: its bars were made without them.
 */
async function simActionsFor(store: Store, isFirst: boolean, endMs: number, instruments: InstrumentSpecs) {
  if (isFirst && store.getMeta(SIM_ACTIONS_META) === undefined) await store.putMeta(SIM_ACTIONS_META, { endMs } satisfies SimActionsRecord);
  const actions = storedSimActions(store, stockSymbols(instruments));
  if (actions !== null) await writeSimActions(store, actions);
  return actions;
}

function stockSymbols(instruments: InstrumentSpecs): string[] {
  return instruments.filter((s) => s.assetClass === 'stocks').map((s) => s.symbol);
}

/** The series the simulator's history covers for an instrument: its line and, for forex, the raw line. */
export function historyEntries(store: Store, spec: InstrumentSpecs[number]) {
  return [store.registry.resolve(spec.assetClass, spec.symbol), store.registry.bySymbolName(`${spec.symbol}${RAW_SUFFIX}`)].filter((e) => e !== undefined && e !== null);
}
