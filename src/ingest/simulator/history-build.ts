// The background part of the simulator's first start: the history older than each series' head,
// step by step, newest first, while the server serves. Memory stays bounded: a few instruments'
// bars wait in the write queue at a time and each chunk is written once (chunk-carry.ts). The
// progress is recorded in the store, so /health and /coverage show it and a restart resumes it.
import type { Clock } from '../../clock.ts';
import { registryKeyOf } from '../../domain/asset-classes.ts';
import { HISTORY_BUILD_META, type HistoryBuildRecord } from '../../domain/history-build.ts';
import type { Timeframe } from '../../domain/timeframes.ts';
import type { Store } from '../../store/index.ts';
import { ALL_INSTRUMENTS } from '../reference/catalog.ts';
import { historyEntries } from './backfill.ts';
import { ChunkCarry } from './chunk-carry.ts';
import { ActionPrices, storedSimActions } from './corporate-actions.ts';
import { headFromMs } from './history.ts';
import { historySteps, periodsBelowHead, writeStep, type HistoryStep, type Period, type StepSink } from './history-steps.ts';

type InstrumentSpecs = typeof ALL_INSTRUMENTS;

/** Series whose bars of one step wait in the write queue together before a commit. */
const FLUSH_EVERY_SERIES = 16;
/** Timeframes whose chunks are held until complete (the finer ones: most of the bytes). */
const CARRIED: ReadonlySet<Timeframe> = new Set<Timeframe>(['1m', '5m', '15m']);
/**
 * The coarser timeframes' bars are written every this many steps: each write rewrites the chunk
 * (and leaves its old copy for LMDB to reuse), so writing them at every step doubled the data file.
 */
const WRITE_COARSE_EVERY_STEPS = 8;

export interface HistoryBuildHooks {
  /**
   * Called after each step with the steps made so far; false abandons the build there as a kill
   * would (the chunks held in memory are lost; tests drive a restart with it).
   */
  afterStep?(stepsMade: number): boolean;
}

interface BuildSeries {
  key: string;
  entry: NonNullable<ReturnType<typeof historyEntries>[number]>;
  spec: InstrumentSpecs[number];
  periods: Period[];
  /** Where the walk goes on (the walk's price, before any restatement for corporate actions). */
  anchor: number;
  prices: ActionPrices | null;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const anchorsOf = (series: readonly BuildSeries[]) => Object.fromEntries(series.map((s) => [s.key, s.anchor]));

/** Runs the build recorded in the store, if one is unfinished; `stop` ends it at the next series. */
export class HistoryBuild {
  private isStopped = false;
  private running: Promise<void> | null = null;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly log: (line: string) => void,
    private readonly hooks: HistoryBuildHooks = {},
    private readonly instruments: InstrumentSpecs = ALL_INSTRUMENTS,
  ) {}

  /** Resolves when the build is done or stopped; rejects when a commit fails. */
  run(): Promise<void> {
    this.running ??= this.build();
    return this.running;
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    await this.running?.catch(() => {});
  }

  private async build(): Promise<void> {
    const { store } = this;
    const record = store.getMeta<HistoryBuildRecord>(HISTORY_BUILD_META);
    if (record === undefined || record.doneMs !== null) return;
    const plan = { minuteDays: record.minuteDays, years: record.years };
    const steps = historySteps(record.endMs, plan);
    const series = this.seriesOf(record, plan);
    const carry = new ChunkCarry((symId, tf, records, n) => store.mergeBars(symId, tf, records, n, 'skip'), CARRIED);
    const started = performance.now();
    this.log(record.stepsDone === 0 ? `history: building ${steps.length} steps back to ${isoDay(record.targetFromMs)} in the background, newest first` : `history: resuming the build at step ${record.stepsDone + 1} of ${steps.length} (built back to ${isoDay(record.builtFromMs)})`);
    // Where each series' walk stood at the start of each step not yet wholly written: a kill
    // loses the chunks held in memory, and the next start redoes the steps from there.
    const anchorsAt = new Map<number, Record<string, number>>();
    let loggedPercent = Math.floor((record.stepsDone * 100) / Math.max(1, steps.length));
    let made = record.stepsDone;
    while (made < steps.length && !this.isStopped) {
      anchorsAt.set(made, anchorsOf(series));
      if (!(await this.makeStep(series, carry, steps[made]!, record.seed))) break;
      made++;
      carry.writeComplete(steps[made - 1]!.fromMs);
      if (made % WRITE_COARSE_EVERY_STEPS === 0) carry.writeHeld();
      await store.flush();
      // The steps wholly written: those newer than every chunk still held.
      const writtenFrom = carry.writtenFromMs();
      let written = made;
      while (written > record.stepsDone && steps[written - 1]!.fromMs < writtenFrom) written--;
      if (written > record.stepsDone) await this.record(record, steps, written, anchorsAt.get(written) ?? anchorsOf(series), anchorsAt, series);
      // The runtime keeps freed buffers long after a commit; a full collection after each step keeps
      // the footprint flat (some 50 ms a step, against hundreds of MB).
      Bun.gc(true);
      const percent = Math.floor((made * 100) / steps.length);
      if (percent >= loggedPercent + 10) {
        loggedPercent = percent;
        this.log(`history: built back to ${isoDay(steps[made - 1]!.fromMs)} (${made}/${steps.length} steps, ${percent}%)`);
      }
      // A test's stand-in for a kill: what is held in memory is lost, the record says where to redo from.
      if (this.hooks.afterStep?.(made) === false) return;
    }
    // Done or stopped: the chunks held are written, so a restart goes on from the last whole step
    // (a step stopped midway is redone; what it wrote already is kept as it is).
    carry.writeAll();
    await store.flush();
    await this.record(record, steps, made, anchorsOf(series), anchorsAt, series);
    if (made < steps.length) {
      this.log(`history: stopped before step ${made + 1} of ${steps.length}; the next start resumes there`);
      return;
    }
    record.doneMs = this.clock.nowMs();
    await store.putMeta(HISTORY_BUILD_META, record);
    await store.putMeta('historyDone', { atMs: record.endMs, seed: record.seed });
    Bun.gc(true);
    this.log(`history ready in ${((performance.now() - started) / 1000).toFixed(1)}s (built back to ${isoDay(record.targetFromMs)})`);
  }

  /** Records that the first `written` steps are stored and where each series' walk goes on. */
  private async record(record: HistoryBuildRecord, steps: readonly HistoryStep[], written: number, anchors: Record<string, number>, anchorsAt: Map<number, unknown>, series: readonly BuildSeries[]): Promise<void> {
    if (written > record.stepsDone) {
      // The newly whole steps, for an ingest node to publish to its edges (store/history-changes.ts).
      const toMs = record.stepsDone > 0 ? steps[record.stepsDone - 1]!.fromMs : steps[0]!.toMs;
      const fromMs = steps[written - 1]!.fromMs;
      await this.store.historyChanges.note({ kind: 'bars', ranges: series.map((s) => [s.entry.id, fromMs, toMs]) });
    }
    record.stepsDone = written;
    if (written > 0) record.builtFromMs = steps[written - 1]!.fromMs;
    record.anchors = anchors;
    for (const k of anchorsAt.keys()) if (k < written) anchorsAt.delete(k);
    await this.store.putMeta(HISTORY_BUILD_META, record);
  }

  /** Makes one step for every series, a few series per commit; false when stopped midway (the walk is put back to the step's start). */
  private async makeStep(series: BuildSeries[], carry: ChunkCarry, step: HistoryStep, seed: number): Promise<boolean> {
    const anchors = series.map((s) => s.anchor);
    const sink: StepSink = (symId, tf, bars) => carry.add(symId, tf, bars);
    for (let k = 0; k < series.length; k++) {
      if (this.isStopped) {
        series.forEach((s, j) => (s.anchor = anchors[j]!));
        return false;
      }
      const s = series[k]!;
      s.anchor = writeStep(sink, s.entry, s.spec, s.periods, step, s.anchor, seed, s.prices);
      if ((k + 1) % FLUSH_EVERY_SERIES === 0) await this.store.flush();
      // Between series: requests and live ticks go first.
      else await new Promise((resolve) => setImmediate(resolve));
    }
    await this.store.flush();
    return true;
  }

  /** The series of the build with their periods and where each one's walk goes on. */
  private seriesOf(record: HistoryBuildRecord, plan: { minuteDays: number; years: number }): BuildSeries[] {
    const out: BuildSeries[] = [];
    const actions = storedSimActions(this.store, this.instruments.filter((s) => s.assetClass === 'stocks').map((s) => s.symbol));
    for (const spec of this.instruments) {
      const periods = periodsBelowHead(spec, record.endMs, plan);
      for (const entry of historyEntries(this.store, spec)) {
        const key = registryKeyOf(entry.assetClass, entry.symbol);
        const prices = ActionPrices.of(actions, entry.assetClass, entry.symbol);
        // A build not begun yet walks on from the oldest minute of the head; one begun from where
        // it stopped. A series new since it began has its head only.
        const anchor = record.anchors[key] ?? (record.stepsDone === 0 ? (this.oldestOpen(entry.id, headFromMs(spec, record.endMs), record.endMs, prices) ?? spec.price) : null);
        if (anchor !== null) out.push({ key, entry, spec, periods, anchor, prices });
      }
    }
    return out;
  }

  /** The walk's open of the series' oldest minute in [fromMs, toMs), or null when there is none. */
  private oldestOpen(symId: number, fromMs: number, toMs: number, prices: ActionPrices | null): number | null {
    const slice = this.store.barsInRange(symId, '1m', fromMs, toMs);
    if (slice.count === 0) return null;
    return prices ? prices.toWalk(slice.data[1]!, slice.data[0]!) : slice.data[1]!;
  }
}
