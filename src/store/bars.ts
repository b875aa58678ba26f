// Precomputed bars: completed bars are appended to fixed-span chunks of packed records
// ([symId, tf, chunkStart] → bytes), so 5000 bars are a handful of sequential reads; the bar in
// progress of each series is kept beside them so a restart resumes it.
import type { Bar } from '../domain/bar.ts';
import { TIMEFRAME_INFO, TIMEFRAMES, type Timeframe } from '../domain/timeframes.ts';
import { BAR_BYTES, BAR_FIELDS, f64View, readBar, writeBar } from './codecs.ts';
import type { StoreDbs } from './env.ts';
import { savedOpenBar, type LiveStore } from './live.ts';
import type { WriteQueue } from './write-queue.ts';

/** Bars a chunk can hold: its span is this many bar durations. */
export const CHUNK_BARS = 1024;

export function chunkSpanMs(tf: Timeframe): number {
  return TIMEFRAME_INFO[tf].durationMs * CHUNK_BARS;
}

export function chunkStartOf(tf: Timeframe, tMs: number): number {
  const span = chunkSpanMs(tf);
  return Math.floor(tMs / span) * span;
}

/** Sealed bars of one window, ascending by t, as packed float64 records. */
export interface BarSlice {
  count: number;
  /** count × 6 values: t, o, h, l, c, v (NaN = null). */
  data: Float64Array;
}

/** One chunk a window touches (see `BarStore.chunkSpans`). */
export interface BarChunkSpan {
  /** The chunk's key: the start of its span. */
  start: number;
  /** Bars the chunk holds so far. */
  count: number;
  /** The window's bars inside the chunk: indexes [from, to). */
  from: number;
  to: number;
}

/** How an imported bar meets a stored bar of the same start (see `BarStore.mergeHistory`). */
export type ConflictMode = 'skip' | 'replace';

/** What merging bars into a series did. */
export interface MergeCounts {
  /** Bars that had no stored bar at their start. */
  added: number;
  /** Stored bars overwritten by a different imported bar (mode `replace`). */
  replaced: number;
  /** Imported bars equal to the stored bar: nothing to do (a re-import). */
  unchanged: number;
  /** Stored bars kept where the imported bar differed (mode `skip`). */
  kept: number;
}

interface HotChunk {
  start: number;
  buf: Buffer;
  count: number;
}

export class BarStore {
  private readonly hot = new Map<string, HotChunk>();
  private readonly lastT = new Map<string, number>();
  /** Bar counts of chunks that can no longer grow, by series then chunk start (read side). */
  private readonly finalCounts = new Map<string, Map<number, number>>();
  /**
   * The bar in progress of each series by symId * TIMEFRAMES.length + timeframe index: a live
   * reference (the caller keeps folding prices into it), written with the symbol's live record.
   */
  private readonly openBars: (Bar | null | undefined)[] = [];
  /**
   * By series: how often a merge rewrote bars already stored (not a plain append at the end).
   * Readers that keep work derived from a chunk's first `count` bars compare it (bar JSON cache).
   */
  private readonly revisions = new Map<string, number>();

  constructor(
    private readonly dbs: StoreDbs,
    private readonly queue: WriteQueue,
    private readonly live: LiveStore,
  ) {
    // Schema 1 kept bars in progress in their own records; an upgrade reads them once.
    for (const { key, value } of dbs.openBars.getRange()) {
      const [symId, tfIndex] = key as [number, number];
      if (TIMEFRAMES[tfIndex]) this.openBars[symId * TIMEFRAMES.length + tfIndex] = readBar(f64View(value), 0);
    }
    for (const [symId, rec] of live.saved) {
      for (let tfIndex = 0; tfIndex < TIMEFRAMES.length; tfIndex++) this.openBars[symId * TIMEFRAMES.length + tfIndex] = savedOpenBar(rec, tfIndex);
    }
  }

  /** Appends a completed bar; bars older than the last completed one are ignored (completed bars are immutable). */
  appendBar(symId: number, tf: Timeframe, bar: Bar): boolean {
    return this.appendHistory(symId, tf, [bar]) === 1;
  }

  /** Appends ascending completed bars, chunk by chunk; returns how many were new. */
  appendHistory(symId: number, tf: Timeframe, bars: readonly Bar[]): number {
    const key = seriesKey(symId, tf);
    const last = this.lastCompletedT(symId, tf) ?? -Infinity;
    let from = 0;
    while (from < bars.length && bars[from]!.t <= last) from++;
    const added = bars.length - from;
    while (from < bars.length) {
      const start = chunkStartOf(tf, bars[from]!.t);
      let to = from + 1;
      while (to < bars.length && chunkStartOf(tf, bars[to]!.t) === start) to++;
      let chunk = this.hot.get(key);
      if (!chunk || chunk.start !== start) {
        chunk = this.loadChunk(symId, tf, start);
        this.hot.set(key, chunk);
      }
      const needed = (chunk.count + to - from) * BAR_BYTES;
      if (needed > chunk.buf.length) {
        const grown = Buffer.alloc(nextPow2(needed));
        chunk.buf.copy(grown, 0, 0, chunk.count * BAR_BYTES);
        chunk.buf = grown;
      }
      const view = f64View(chunk.buf);
      for (let i = from; i < to; i++) writeBar(view, chunk.count++, bars[i]!);
      const written = chunk;
      this.queue.mark(`bars:${key}:${start}`, () => ({
        db: this.dbs.bars,
        key: [symId, TIMEFRAME_INFO[tf].index, start],
        value: Buffer.from(written.buf.subarray(0, written.count * BAR_BYTES)),
      }));
      from = to;
    }
    if (added > 0) this.lastT.set(key, bars[bars.length - 1]!.t);
    return added;
  }

  /**
   * Merges completed bars into the series wherever they fall, chunk by chunk: `records` holds `n`
   * packed bars (BAR_FIELDS each) in strictly ascending t. A bar whose start is already stored is
   * kept (`skip`) or overwritten (`replace`); an equal one changes nothing, so merging the same
   * bars twice writes nothing the second time. History imports use it; live bars only append.
   */
  mergeHistory(symId: number, tf: Timeframe, records: Float64Array, n: number, mode: ConflictMode): MergeCounts {
    const counts: MergeCounts = { added: 0, replaced: 0, unchanged: 0, kept: 0 };
    if (n === 0) return counts;
    const key = seriesKey(symId, tf);
    const lastBefore = this.lastCompletedT(symId, tf) ?? -Infinity;
    // The chunk the series grows in after the merge is kept in memory, as live appends keep it.
    const growing = chunkStartOf(tf, Math.max(lastBefore, records[(n - 1) * BAR_FIELDS]!));
    let rewrote = false;
    let from = 0;
    while (from < n) {
      const start = chunkStartOf(tf, records[from * BAR_FIELDS]!);
      let to = from + 1;
      while (to < n && chunkStartOf(tf, records[to * BAR_FIELDS]!) === start) to++;
      const existing = this.chunkBytes(symId, tf, start, true);
      const stored = existing ? f64View(existing) : new Float64Array(0);
      const storedCount = stored.length / BAR_FIELDS;
      const merged = new Float64Array((storedCount + to - from) * BAR_FIELDS);
      let i = 0;
      let j = from;
      let m = 0;
      let changed = false;
      while (i < storedCount || j < to) {
        const ts = i < storedCount ? stored[i * BAR_FIELDS]! : Infinity;
        const ti = j < to ? records[j * BAR_FIELDS]! : Infinity;
        if (ts < ti) {
          copyRecord(stored, i, merged, m++);
          i++;
        } else if (ti < ts) {
          copyRecord(records, j, merged, m++);
          // Before the last stored bar: what readers derived from the series no longer holds.
          if (ti < lastBefore) rewrote = true;
          counts.added++;
          changed = true;
          j++;
        } else {
          const same = sameRecord(stored, i, records, j);
          const take = !same && mode === 'replace';
          if (take) copyRecord(records, j, merged, m++);
          else copyRecord(stored, i, merged, m++);
          if (same) counts.unchanged++;
          else if (take) counts.replaced++;
          else counts.kept++;
          if (take) changed = rewrote = true;
          i++;
          j++;
        }
      }
      if (changed) this.putChunk(symId, tf, start, new Uint8Array(merged.buffer, 0, m * BAR_BYTES), start === growing);
      from = to;
    }
    const lastT = records[(n - 1) * BAR_FIELDS]!;
    if (lastT > lastBefore) this.lastT.set(key, lastT);
    if (rewrote || counts.added > 0) {
      // A chunk before the growing one may have gained bars: its remembered count is stale.
      this.finalCounts.delete(key);
    }
    if (rewrote) this.revisions.set(key, (this.revisions.get(key) ?? 0) + 1);
    return counts;
  }

  /** How often bars already stored in the series were rewritten by a merge (0: never, in this process). */
  revision(symId: number, tf: Timeframe): number {
    return this.revisions.get(seriesKey(symId, tf)) ?? 0;
  }

  /** Writes a whole chunk's records (a merge's result), through the hot chunk when it is that one. */
  private putChunk(symId: number, tf: Timeframe, start: number, bytes: Uint8Array, isGrowing: boolean): void {
    const key = seriesKey(symId, tf);
    let hot = this.hot.get(key);
    const count = bytes.length / BAR_BYTES;
    if (isGrowing && (!hot || hot.start !== start)) this.hot.set(key, (hot = { start, buf: Buffer.alloc(0), count: 0 }));
    if (hot && hot.start === start) {
      const buf = Buffer.alloc(Math.max(BAR_BYTES * 16, nextPow2((count + 1) * BAR_BYTES)));
      buf.set(bytes, 0);
      hot.buf = buf;
      hot.count = count;
      this.queue.mark(`bars:${key}:${start}`, () => ({ db: this.dbs.bars, key: [symId, TIMEFRAME_INFO[tf].index, start], value: Buffer.from(hot.buf.subarray(0, hot.count * BAR_BYTES)) }));
      return;
    }
    const value = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.queue.mark(`bars:${key}:${start}`, () => ({ db: this.dbs.bars, key: [symId, TIMEFRAME_INFO[tf].index, start], value }));
  }

  /**
   * Sets the series' bar in progress (null: none). The store keeps the reference and writes the
   * bar's fields as they are at the next flush: call again after changing it in place (cheap: a
   * flag), so a price folded in is not left out of the flush.
   */
  setOpenBar(symId: number, tf: Timeframe, bar: Bar | null): void {
    this.openBars[symId * TIMEFRAMES.length + TIMEFRAME_INFO[tf].index] = bar;
    this.live.touch(symId);
  }

  /** The bar in progress as last set (after a restart: as last persisted, used to resume). */
  getOpenBar(symId: number, tf: Timeframe): Bar | undefined {
    return this.openBars[symId * TIMEFRAMES.length + TIMEFRAME_INFO[tf].index] ?? undefined;
  }

  /** Every symbol with a bar in progress. */
  symbolsWithOpenBars(): Set<number> {
    const ids = new Set<number>();
    this.openBars.forEach((bar, i) => {
      if (bar) ids.add(Math.floor(i / TIMEFRAMES.length));
    });
    return ids;
  }

  /** The bar in progress by timeframe index, or null (read at flush time for the live record). */
  openBarAt(symId: number, tfIndex: number): Bar | null {
    return this.openBars[symId * TIMEFRAMES.length + tfIndex] ?? null;
  }

  lastCompletedT(symId: number, tf: Timeframe): number | null {
    const key = seriesKey(symId, tf);
    const cached = this.lastT.get(key);
    if (cached !== undefined) return cached;
    const tfIndex = TIMEFRAME_INFO[tf].index;
    for (const { key: dbKey, value } of this.dbs.bars.getRange({ start: [symId, tfIndex + 1], end: [symId, tfIndex], reverse: true, limit: 1 })) {
      const count = value.length / BAR_BYTES;
      if (count > 0 && (dbKey as number[])[1] === tfIndex) {
        const t = value.readDoubleLE((count - 1) * BAR_BYTES);
        this.lastT.set(key, t);
        return t;
      }
    }
    return null;
  }

  /** Completed bars with fromMs ≤ t < toMs, ascending. */
  range(symId: number, tf: Timeframe, fromMs: number, toMs: number): BarSlice {
    const last = this.lastCompletedT(symId, tf);
    if (last === null || last < fromMs) return { count: 0, data: new Float64Array(0) };
    toMs = Math.min(toMs, last + 1);
    if (toMs <= fromMs) return { count: 0, data: new Float64Array(0) };
    const parts: Uint8Array[] = [];
    let total = 0;
    const span = chunkSpanMs(tf);
    for (let start = chunkStartOf(tf, fromMs); start < toMs; start += span) {
      const bytes = this.chunkBytes(symId, tf, start);
      if (!bytes || bytes.length === 0) continue;
      const a = lowerBound(bytes, fromMs);
      const b = lowerBound(bytes, toMs);
      if (b > a) {
        // Copy now: bytes from getBinaryFast are only valid until the next read.
        parts.push(Uint8Array.prototype.slice.call(bytes, a * BAR_BYTES, b * BAR_BYTES));
        total += b - a;
      }
    }
    const out = new Float64Array(total * BAR_FIELDS);
    const outBytes = new Uint8Array(out.buffer);
    let offset = 0;
    for (const part of parts) {
      outBytes.set(part, offset);
      offset += part.length;
    }
    return { count: total, data: out };
  }

  /**
   * The chunks holding completed bars with fromMs ≤ t < toMs, ascending, without copying a bar:
   * each chunk's bar count so far and the window's index range inside it. Bars are only ever
   * appended to a chunk, so (start, count) names its first `count` bars for good.
   */
  chunkSpans(symId: number, tf: Timeframe, fromMs: number, toMs: number): BarChunkSpan[] {
    const spans: BarChunkSpan[] = [];
    const last = this.lastCompletedT(symId, tf);
    if (last === null || last < fromMs) return spans;
    toMs = Math.min(toMs, last + 1);
    const span = chunkSpanMs(tf);
    // Bars go only after the last completed one, so a chunk before its chunk is final: its count
    // is remembered, and a window that covers it whole needs no read of it.
    const growing = chunkStartOf(tf, last);
    const key = seriesKey(symId, tf);
    let finals = this.finalCounts.get(key);
    if (!finals) this.finalCounts.set(key, (finals = new Map()));
    for (let start = chunkStartOf(tf, fromMs); start < toMs; start += span) {
      const whole = start >= fromMs && start + span <= toMs;
      if (whole && start < growing) {
        let count = finals.get(start);
        if (count === undefined) finals.set(start, (count = (this.chunkBytes(symId, tf, start)?.length ?? 0) / BAR_BYTES));
        if (count > 0) spans.push({ start, count, from: 0, to: count });
        continue;
      }
      const bytes = this.chunkBytes(symId, tf, start);
      if (!bytes || bytes.length === 0) continue;
      const from = start >= fromMs ? 0 : lowerBound(bytes, fromMs);
      const count = bytes.length / BAR_BYTES;
      const to = start + span <= toMs ? count : lowerBound(bytes, toMs);
      if (to > from) spans.push({ start, count, from, to });
    }
    return spans;
  }

  /** A copy of bars [fromIndex, toIndex) of one chunk (fewer if it holds fewer), as packed records. */
  chunkRecords(symId: number, tf: Timeframe, start: number, fromIndex: number, toIndex: number): Float64Array {
    const bytes = this.chunkBytes(symId, tf, start);
    // Bounds from `length`: getBinaryFast's view may sit on a larger shared buffer.
    const to = Math.min(toIndex, bytes ? bytes.length / BAR_BYTES : 0);
    const out = new Float64Array(Math.max(0, to - fromIndex) * BAR_FIELDS);
    if (bytes && out.length > 0) new Uint8Array(out.buffer).set(bytes.subarray(fromIndex * BAR_BYTES, to * BAR_BYTES));
    return out;
  }

  /** The last completed bar with t < beforeMs, searching back at most `maxChunks` chunks. */
  lastBefore(symId: number, tf: Timeframe, beforeMs: number, maxChunks = 8): Bar | null {
    const span = chunkSpanMs(tf);
    let start = chunkStartOf(tf, beforeMs - 1);
    for (let i = 0; i < maxChunks; i++, start -= span) {
      const bytes = this.chunkBytes(symId, tf, start);
      if (!bytes) continue;
      const idx = lowerBound(bytes, beforeMs) - 1;
      if (idx >= 0) return readBar(f64View(Uint8Array.prototype.slice.call(bytes, idx * BAR_BYTES, (idx + 1) * BAR_BYTES)), 0);
    }
    return null;
  }

  /**
   * Starts of up to `max` chunks of the series whose bars all have t < cutoffMs, oldest first:
   * what retention may remove. The growing chunk and chunks with a write pending are never listed.
   */
  expiredChunks(symId: number, tf: Timeframe, cutoffMs: number, max: number): number[] {
    const tfIndex = TIMEFRAME_INFO[tf].index;
    const span = chunkSpanMs(tf);
    const hot = this.hot.get(seriesKey(symId, tf));
    const out: number[] = [];
    for (const key of this.dbs.bars.getKeys({ start: [symId, tfIndex], end: [symId, tfIndex, chunkStartOf(tf, cutoffMs)], limit: max })) {
      const start = (key as number[])[2]!;
      if (start + span > cutoffMs || hot?.start === start) continue;
      if (this.queue.pendingValue(`bars:${seriesKey(symId, tf)}:${start}`) !== undefined) continue;
      out.push(start);
    }
    return out;
  }

  /** Removes whole chunks (from `expiredChunks`); resolves when the removal is committed. */
  removeChunks(symId: number, tf: Timeframe, starts: readonly number[]): Promise<unknown> {
    const tfIndex = TIMEFRAME_INFO[tf].index;
    const finals = this.finalCounts.get(seriesKey(symId, tf));
    let last: Promise<unknown> = Promise.resolve();
    for (const start of starts) {
      finals?.delete(start);
      last = this.dbs.bars.remove([symId, tfIndex, start]);
    }
    // Again once committed: a read in between may have remembered the count of a chunk now gone.
    return last.then(() => {
      for (const start of starts) finals?.delete(start);
    });
  }

  /** The chunk's bytes; `stable` asks for a copy (getBinaryFast's buffer lives only until the next read). */
  private chunkBytes(symId: number, tf: Timeframe, start: number, stable = false): Uint8Array | undefined {
    const hot = this.hot.get(seriesKey(symId, tf));
    if (hot && hot.start === start) return hot.buf.subarray(0, hot.count * BAR_BYTES);
    const pending = this.queue.pendingValue(`bars:${seriesKey(symId, tf)}:${start}`);
    if (pending instanceof Uint8Array) return pending;
    const key = [symId, TIMEFRAME_INFO[tf].index, start];
    return (stable ? this.dbs.bars.getBinary(key) : this.dbs.bars.getBinaryFast(key)) ?? undefined;
  }

  private loadChunk(symId: number, tf: Timeframe, start: number): HotChunk {
    const existing = this.chunkBytes(symId, tf, start, true);
    const count = existing ? existing.length / BAR_BYTES : 0;
    const buf = Buffer.alloc(Math.max(BAR_BYTES * 16, nextPow2((count + 1) * BAR_BYTES)));
    if (existing) buf.set(existing, 0);
    return { start, buf, count };
  }
}

function copyRecord(from: Float64Array, i: number, to: Float64Array, m: number): void {
  const a = i * BAR_FIELDS;
  const b = m * BAR_FIELDS;
  to[b] = from[a]!;
  to[b + 1] = from[a + 1]!;
  to[b + 2] = from[a + 2]!;
  to[b + 3] = from[a + 3]!;
  to[b + 4] = from[a + 4]!;
  to[b + 5] = from[a + 5]!;
}

function sameRecord(a: Float64Array, i: number, b: Float64Array, j: number): boolean {
  for (let k = 0; k < BAR_FIELDS; k++) {
    if (!Object.is(a[i * BAR_FIELDS + k], b[j * BAR_FIELDS + k])) return false;
  }
  return true;
}

function seriesKey(symId: number, tf: Timeframe): string {
  return `${symId}:${tf}`;
}

function nextPow2(n: number): number {
  return Math.min(CHUNK_BARS * BAR_BYTES, 2 ** Math.ceil(Math.log2(n)));
}

/** Index of the first record with t ≥ tMs in packed ascending bar bytes. */
function lowerBound(bytes: Uint8Array, tMs: number): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let lo = 0;
  let hi = bytes.length / BAR_BYTES;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (view.getFloat64(mid * BAR_BYTES, true) < tMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
