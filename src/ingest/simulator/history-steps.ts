// The simulator's history below each series' head, in steps: stretches of time, newest first,
// each generated backwards from the oldest bar already built and merged in with its roll-ups. The
// background build and the one-series build (`backfillInstrument`) take the same steps.
import { rollUp, type Bar } from '../../domain/bar.ts';
import type { InstrumentSpec, SymbolEntry } from '../../domain/instrument.ts';
import { registryKeyOf } from '../../domain/asset-classes.ts';
import { DAY_MS, TIMEFRAME_INFO, TIMEFRAMES, type Timeframe } from '../../domain/timeframes.ts';
import { alignmentFor } from '../../market/bar-alignment.ts';
import { BAR_FIELDS, writeBar, type Store } from '../../store/index.ts';
import { barTimes, FINEST_SPAN_DAYS, headFromMs, LAST_SESSION_SEARCH_DAYS, synthesizeBars, writeHead, type HistoryPlan } from './history.ts';
import type { ActionPrices } from './corporate-actions.ts';
import { calendarOf } from './hours.ts';
import { Rng, seedFor } from './random.ts';

/** A stretch of a series' history below its head: [fromMs, toMs) with `tf` as its finest bars. */
export type Period = [tf: Timeframe, fromMs: number, toMs: number];

/** The series' history below its head, newest period first, each with its finest timeframe. */
export function periodsBelowHead(spec: InstrumentSpec, endMs: number, plan: HistoryPlan): Period[] {
  const today = Math.floor(endMs / DAY_MS) * DAY_MS;
  const headFrom = headFromMs(spec, endMs);
  const minuteFrom = Math.min(today - Math.max(0, plan.minuteDays - 1) * DAY_MS, headFrom);
  const periods: Period[] = minuteFrom < headFrom ? [['1m', minuteFrom, headFrom]] : [];
  let to = minuteFrom;
  const oldest = Math.min(minuteFrom, today - Math.round(plan.years * 365) * DAY_MS);
  for (const [tf, days] of FINEST_SPAN_DAYS) {
    const from = Math.max(oldest, today - (days - 1) * DAY_MS);
    if (from < to) {
      periods.push([tf, from, to]);
      to = from;
    }
  }
  if (oldest < to) periods.push(['1d', oldest, to]);
  return periods;
}

/** One step of the background build: [fromMs, toMs), UTC midnights. */
export interface HistoryStep {
  fromMs: number;
  toMs: number;
}

/** Days a step spans by the finest bars it holds: each step writes some 1,000 bars a series at most. */
const STEP_DAYS: [Timeframe, number][] = [
  ['1m', 1],
  ['5m', 4],
  ['15m', 8],
  ['1h', 16],
  ['4h', 64],
  ['1d', 256],
];

/**
 * The background build's steps, newest first, from today's start back to the oldest bar of any
 * series. They depend on `endMs` and the plan alone, so a resumed build takes the same steps (and
 * seeds each series' step by its start) and ends with the bars an uninterrupted one makes.
 */
export function historySteps(endMs: number, plan: HistoryPlan): HistoryStep[] {
  const today = Math.floor(endMs / DAY_MS) * DAY_MS;
  const minuteFrom = today - Math.max(0, plan.minuteDays - 1) * DAY_MS;
  // A market closed for the whole 1-minute window still gets minutes back to its last sessions.
  const oldest = Math.min(minuteFrom - LAST_SESSION_SEARCH_DAYS * DAY_MS, today - Math.round(plan.years * 365) * DAY_MS);
  const steps: HistoryStep[] = [];
  for (let to = today; to > oldest; ) {
    const ageDays = (today - to) / DAY_MS + 1;
    const finest: Timeframe = to > minuteFrom ? '1m' : (FINEST_SPAN_DAYS.find(([, days]) => ageDays < days)?.[0] ?? '1d');
    const days = STEP_DAYS.find(([tf]) => tf === finest)![1];
    const from = Math.max(oldest, to - days * DAY_MS);
    steps.push({ fromMs: from, toMs: to });
    to = from;
  }
  return steps;
}

/** Takes a step's ascending bars of one timeframe, each older than every bar given before for the series. */
export type StepSink = (symId: number, tf: Timeframe, bars: readonly Bar[]) => void;

/**
 * Makes the part of one step that falls in the series' periods: bars generated backwards from
 * `anchor` (the walk's open of the oldest bar already built), each period's finest bars and their
 * roll-ups handed to `sink`, restated as raw prices when the stock has simulated corporate
 * actions (rolled up from the raw bars, as the bar builder would). Returns the new anchor.
 */
export function writeStep(sink: StepSink, entry: SymbolEntry, spec: InstrumentSpec, periods: readonly Period[], step: HistoryStep, anchor: number, seed: number, prices: ActionPrices | null = null): number {
  const calendar = calendarOf(spec);
  const align = alignmentFor(entry);
  const rng = new Rng(seedFor(seed, `history:${registryKeyOf(entry.assetClass, entry.symbol)}:${step.fromMs}`));
  let price = anchor;
  for (const [finest, from, to] of periods) {
    const lo = Math.max(from, step.fromMs);
    const hi = Math.min(to, step.toMs);
    if (lo >= hi) continue;
    const walk = synthesizeBars(spec, barTimes(calendar, align, finest, lo, hi), TIMEFRAME_INFO[finest].durationMs, price, 'backward', rng);
    if (walk.length === 0) continue;
    price = walk[0]!.o;
    const bars = prices ? prices.toRaw(walk, spec.decimals) : walk;
    for (const tf of TIMEFRAMES) {
      if (TIMEFRAME_INFO[tf].durationMs < TIMEFRAME_INFO[finest].durationMs) continue;
      sink(entry.id, tf, tf === finest ? bars : rollUp(bars, (t) => align.barStart(t, tf)));
    }
  }
  return price;
}

/** Merges bars into a series; a bar already stored is kept (a step redone after a kill changes nothing). */
export function mergeBars(store: Store, symId: number, tf: Timeframe, bars: readonly Bar[]): void {
  const records = new Float64Array(bars.length * BAR_FIELDS);
  for (let i = 0; i < bars.length; i++) writeBar(records, i, bars[i]!);
  store.mergeBars(symId, tf, records, bars.length, 'skip');
}

/**
 * A series' whole history up to `endMs` in one go: its head, then every step of the background
 * build in turn (the same bars the build makes, for one series; tests and short histories).
 */
export function backfillInstrument(store: Store, entry: SymbolEntry, spec: InstrumentSpec, endMs: number, plan: HistoryPlan, seed: number, prices: ActionPrices | null = null): void {
  let anchor = writeHead(store, entry, spec, endMs, seed, prices);
  const periods = periodsBelowHead(spec, endMs, plan);
  const sink: StepSink = (symId, tf, bars) => mergeBars(store, symId, tf, bars);
  for (const step of historySteps(endMs, plan)) anchor = writeStep(sink, entry, spec, periods, step, anchor, seed, prices);
}
