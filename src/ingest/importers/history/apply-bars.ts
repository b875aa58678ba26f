// Applies a staged import to the bars, in the process that owns the data dir's writes (the server,
// or the import command when no server runs). One-minute bars are merged, then every coarser bar
// they touch is rolled up again from the stored minutes by the same fold as live bars; daily input
// is merged as daily bars. A coarser bar is rewritten only where it was itself rolled up from the
// stored minutes, or on-conflict is replace: a bar that came from elsewhere is never silently lost.
import { rollUp, type Bar } from '../../../domain/bar.ts';
import { TIMEFRAMES, TIMEFRAME_BY_INDEX, type Timeframe } from '../../../domain/timeframes.ts';
import type { SymbolEntry } from '../../../domain/instrument.ts';
import { alignmentFor, type BarAlignment } from '../../../market/bar-alignment.ts';
import { writeBar, type ImportRecord, type ImportResult, type Store } from '../../../store/index.ts';
import { applyHoldFromEnv, type ApplyHold } from './apply-hold.ts';

const BAR_FIELDS = 6;
const COARSER: readonly Timeframe[] = TIMEFRAMES.filter((tf) => tf !== '1m');

export interface ApplyHooks {
  /** After a series changed: the live bar builder picks up its bars in progress again. */
  seriesChanged?(entry: SymbolEntry): void;
  /** Between blocks (the server yields to requests here). */
  pause?(): Promise<void>;
  /** After each commit of merged bars (the import command collects garbage here, see importBarFile). */
  committed?(): void;
}

/** How applying one import ended: `applied` is recorded only once every bar of it is committed. */
export type AppliedImport = { state: 'applied'; result: ImportResult } | { state: 'failed'; error: string };

/**
 * Applies one staged (or cut short) import whole, in the process that owns the data dir's writes:
 * marks it `applying` durably, merges its blocks, and records the outcome. The journal's
 * `finish(id, 'applied')` at the end is where an import counts as fully applied; until then a
 * restart finishes it from its staging file.
 */
export async function applyImport(store: Store, record: ImportRecord, nowMs: number, hooks: ApplyHooks = {}): Promise<AppliedImport> {
  const applying = await store.imports.markApplying(record, nowMs);
  const progress = { blocks: 0 };
  try {
    const result = await applyStagedImport(store, applying, nowMs, hooks, applyHoldFromEnv(), progress);
    await store.imports.finish(record.id, 'applied', result);
    return { state: 'applied', result };
  } catch (err) {
    const error = (err as Error).message;
    // Part of it is in the store when a stop cut it short before, or a block of it was merged now.
    const halfApplied = applying.cutShortMs !== undefined || progress.blocks > 0;
    await store.imports.finish(record.id, 'failed', { written: {}, added: 0, replaced: 0, unchanged: 0, kept: 0, live: 0, appliedMs: nowMs, error, halfApplied }).catch(() => {});
    return { state: 'failed', error };
  }
}

/** Merges one staged import's blocks into the bars; its counts go into the journal with `finish`. */
export async function applyStagedImport(store: Store, record: ImportRecord, nowMs: number, hooks: ApplyHooks = {}, hold: ApplyHold | null = applyHoldFromEnv(), progress = { blocks: 0 }): Promise<ImportResult> {
  if (record.newSymbols > 0) store.registry.refresh();
  if (!store.imports.hasStageFile(record.id) && record.series.length > 0) throw new Error(`its staging file imports/${record.id}.stage is gone: import the file again to complete it`);
  const result: ImportResult = { written: {}, added: 0, replaced: 0, unchanged: 0, kept: 0, live: 0, appliedMs: nowMs };
  const commit = () => store.flush();
  let sinceFlush = 0;
  await hold?.afterBlocks(0, record.id, commit);
  // What changed, for an ingest node to publish to its edges (store/history-changes.ts).
  const ranges: [number, number, number][] = [];
  for (const [key, tfIndex] of record.series) {
    const entry = store.registry.bySymbolName(key) ?? resolveNamespaced(store, key);
    if (!entry) throw new Error(`import ${record.id}: symbol ${key} is not in the registry`);
    const tf = TIMEFRAME_BY_INDEX[tfIndex]!.id;
    const align = alignmentFor(entry);
    const recent: RecentMinutes = { fromMs: NaN, bars: [], lastWritten: new Map() };
    let fromMs = Infinity;
    let toMs = -Infinity;
    for (const block of store.imports.blocks(record, key, tfIndex)) {
      const n = block.length / BAR_FIELDS;
      progress.blocks++;
      if (n > 0) {
        fromMs = Math.min(fromMs, block[0]!);
        toMs = Math.max(toMs, block[(n - 1) * BAR_FIELDS]! + 1);
      }
      if (tf === '1m') mergeMinutes(store, entry.id, align, block, n, record.onConflict, result, recent);
      else mergeInto(store, entry.id, tf, block, n, record.onConflict, result);
      sinceFlush += n;
      if (sinceFlush >= 65_536) {
        // Bounded memory: merged chunks wait in the write queue only until this commit.
        await store.flush();
        hooks.committed?.();
        sinceFlush = 0;
      }
      await hold?.afterBlocks(progress.blocks, record.id, commit);
      await hooks.pause?.();
    }
    if (tf === '1m') refoldOpenBars(store, entry.id, align);
    hooks.seriesChanged?.(entry);
    if (fromMs < toMs) ranges.push([entry.id, fromMs, toMs]);
  }
  await store.flush();
  await store.historyChanges.note({ kind: 'bars', ranges });
  return result;
}

function resolveNamespaced(store: Store, key: string): SymbolEntry | undefined {
  const bar = key.indexOf('|');
  if (bar < 0) return undefined;
  return store.registry.all('overnight').find((e) => `overnight|${e.symbol}` === key);
}

/** Leaves out bars at or after the series' bar in progress (the live feed's), counting them. */
function beforeLive(store: Store, symId: number, tf: Timeframe, block: Float64Array, n: number, result: ImportResult): number {
  const open = store.openBar(symId, tf);
  if (!open) return n;
  let keep = n;
  while (keep > 0 && block[(keep - 1) * BAR_FIELDS]! >= open.t) keep--;
  result.live += n - keep;
  return keep;
}

function mergeInto(store: Store, symId: number, tf: Timeframe, block: Float64Array, n: number, mode: 'skip' | 'replace', result: ImportResult): void {
  n = beforeLive(store, symId, tf, block, n, result);
  const counts = store.mergeBars(symId, tf, block, n, mode);
  result.added += counts.added;
  result.replaced += counts.replaced;
  result.unchanged += counts.unchanged;
  result.kept += counts.kept;
  if (counts.added + counts.replaced > 0) result.written[tf] = (result.written[tf] ?? 0) + counts.added + counts.replaced;
}

/**
 * The stored minutes of [fromMs, last block's end] as of the last block of the series: the next
 * block, appended after it, takes its minutes from here instead of reading them back.
 */
interface RecentMinutes {
  fromMs: number;
  bars: Bar[];
  /** Per coarser timeframe, the last bar the series' previous blocks wrote: the next block may write it again (counted once). */
  lastWritten: Map<Timeframe, { t: number; counted: boolean }>;
}

function mergeMinutes(store: Store, symId: number, align: BarAlignment, block: Float64Array, n: number, mode: 'skip' | 'replace', result: ImportResult, recent: RecentMinutes): void {
  n = beforeLive(store, symId, '1m', block, n, result);
  const known = recent.bars;
  const knownFromMs = recent.fromMs;
  recent.bars = [];
  recent.fromMs = NaN;
  if (n === 0) return;
  // The minutes every touched coarser bar is made of.
  const firstT = block[0]!;
  const lastT = block[(n - 1) * BAR_FIELDS]!;
  let fromMs = firstT;
  let toMs = lastT + 1;
  for (const tf of COARSER) {
    fromMs = Math.min(fromMs, align.barStart(firstT, tf));
    toMs = Math.max(toMs, align.barEnd(align.barStart(lastT, tf), tf));
  }
  // Stored coarser bars of those buckets, and the minutes they were rolled up from (read before
  // the merge, and only around stored bars: an import that extends a series reads a day, not more).
  const stored = COARSER.map((tf) => new Map(barsOf(store, symId, fromMs, toMs, tf).map((b) => [b.t, b])));
  let beforeFrom = Infinity;
  let beforeTo = -Infinity;
  COARSER.forEach((tf, k) => {
    for (const t of stored[k]!.keys()) {
      beforeFrom = Math.min(beforeFrom, t);
      beforeTo = Math.max(beforeTo, align.barEnd(t, tf));
    }
  });
  // Minutes are mostly imported after the stored ones (a new series, the next file): then the
  // minutes after the merge are the stored ones before the block plus the block, and no read back.
  const lastStoredT = store.lastCompletedBarT(symId, '1m') ?? -Infinity;
  const isAppend = lastStoredT < firstT;
  // The last block's minutes hold the stored ones from its start: enough when this one starts later.
  const fromKnown = isAppend && known.length > 0 && knownFromMs <= fromMs && known[known.length - 1]!.t === lastStoredT;
  const prefix = !isAppend ? [] : fromKnown ? known.slice(lowerBoundT(known, fromMs)) : barsOf(store, symId, fromMs, firstT);
  const before = isAppend ? prefix : beforeFrom < beforeTo ? barsOf(store, symId, beforeFrom, beforeTo) : [];
  const writtenBefore = result.written['1m'] ?? 0;
  mergeInto(store, symId, '1m', block, n, mode, result);
  if ((result.written['1m'] ?? 0) === writtenBefore) return;
  const after = isAppend ? prefix.concat(unpack(block, n)) : barsOf(store, symId, fromMs, toMs);
  const lastWritten = recent.lastWritten;
  recent.fromMs = fromMs;
  recent.bars = after;
  COARSER.forEach((tf, k) => {
    const bucketOf = (t: number) => align.barStart(t, tf);
    const bucketEndOf = (t: number) => align.barEnd(t, tf);
    // The buckets the imported minutes fall in (ascending: a bucket is asked for once per run).
    const buckets = new Set<number>();
    let endMs = -Infinity;
    for (let i = 0; i < n; i++) {
      const t = block[i * BAR_FIELDS]!;
      if (t < endMs) continue;
      const b = bucketOf(t);
      buckets.add(b);
      endMs = bucketEndOf(b);
    }
    const storedByT = stored[k]!;
    const was = storedByT.size > 0 ? new Map(rollUp(before, bucketOf, bucketEndOf).map((b) => [b.t, b])) : null;
    const open = store.openBar(symId, tf);
    const out: Bar[] = [];
    for (const bar of rollUp(after, bucketOf, bucketEndOf)) {
      if (!buckets.has(bar.t) || (open && bar.t >= open.t)) continue;
      const prior = storedByT.get(bar.t) ?? null;
      // A stored coarser bar that is not the roll-up of the stored minutes came from elsewhere.
      const derived = prior === null || sameBar(prior, was?.get(bar.t));
      if (!derived && mode === 'skip') {
        if (!sameBar(prior, bar)) result.kept++;
        continue;
      }
      out.push(bar);
    }
    if (out.length === 0) return;
    writeCoarse(store, symId, tf, out, lastWritten, result);
  });
}

/**
 * Writes rolled-up bars of one block, counting each bar once per import: the bucket a block ends in
 * is written again, completed, by the next block of the series (issue 28: 5m 200,098 reported for
 * 200,000 stored). The first and the last bar go on their own to know whether each was written.
 */
function writeCoarse(store: Store, symId: number, tf: Timeframe, out: Bar[], lastWritten: RecentMinutes['lastWritten'], result: ImportResult): void {
  const merge = (from: number, to: number): number => {
    if (to <= from) return 0;
    const records = new Float64Array((to - from) * BAR_FIELDS);
    for (let i = from; i < to; i++) writeBar(records, i - from, out[i]!);
    const counts = store.mergeBars(symId, tf, records, to - from, 'replace');
    return counts.added + counts.replaced;
  };
  const prior = lastWritten.get(tf);
  let written = 0;
  const firstWritten = merge(0, 1) > 0;
  const isContinued = prior !== undefined && prior.t === out[0]!.t;
  if (firstWritten && !(isContinued && prior.counted)) written++;
  let lastCounted = isContinued ? prior.counted || firstWritten : firstWritten;
  if (out.length > 1) {
    written += merge(1, out.length - 1);
    lastCounted = merge(out.length - 1, out.length) > 0;
    if (lastCounted) written++;
  }
  lastWritten.set(tf, { t: out[out.length - 1]!.t, counted: lastCounted });
  if (written > 0) result.written[tf] = (result.written[tf] ?? 0) + written;
}

/**
 * The coarser bars in progress hold the completed minutes of their bucket: after minutes were
 * imported into such a bucket, they are folded again from the stored minutes (the live builder
 * then resumes from them, see `ApplyHooks.seriesChanged`).
 */
export function refoldOpenBars(store: Store, symId: number, align: BarAlignment): void {
  for (const tf of COARSER) {
    const open = store.openBar(symId, tf);
    if (!open) continue;
    const minutes = barsOf(store, symId, open.t, align.barEnd(open.t, tf));
    const [bar] = rollUp(minutes, (t) => align.barStart(t, tf));
    if (!bar || bar.t !== open.t) continue;
    Object.assign(open, bar);
    store.setOpenBar(symId, tf, open);
  }
}

function barsOf(store: Store, symId: number, fromMs: number, toMs: number, tf: Timeframe = '1m'): Bar[] {
  const slice = store.barsInRange(symId, tf, fromMs, toMs);
  return unpack(slice.data, slice.count);
}

/** Index of the first bar with t ≥ tMs in ascending bars. */
function lowerBoundT(bars: readonly Bar[], tMs: number): number {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (bars[mid]!.t < tMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function unpack(d: Float64Array, count: number): Bar[] {
  const out: Bar[] = new Array(count);
  for (let i = 0; i < count; i++) {
    const at = i * BAR_FIELDS;
    const v = d[at + 5]!;
    out[i] = { t: d[at]!, o: d[at + 1]!, h: d[at + 2]!, l: d[at + 3]!, c: d[at + 4]!, v: Number.isNaN(v) ? null : v };
  }
  return out;
}

function sameBar(a: Bar | null | undefined, b: Bar | null | undefined): boolean {
  if (!a || !b) return false;
  return a.t === b.t && a.o === b.o && a.h === b.h && a.l === b.l && a.c === b.c && a.v === b.v;
}
