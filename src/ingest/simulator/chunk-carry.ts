// Holds the history build's bars of a chunk until the chunk is complete, so each chunk is written
// once. Rewriting a chunk a step at a time makes LMDB read back (map) the old value and leave a
// freed copy behind at every step: the data file and the resident file pages grew to twice the
// history (1 GB resident). The build goes back in time, so a chunk is complete as soon as a bar
// of an older chunk arrives.
import type { Bar } from '../../domain/bar.ts';
import { TIMEFRAME_INFO, TIMEFRAMES, type Timeframe } from '../../domain/timeframes.ts';
import { BAR_FIELDS, chunkSpanMs, chunkStartOf, writeBar } from '../../store/index.ts';

interface Pending {
  symId: number;
  tf: Timeframe;
  start: number;
  /** The chunk's bars so far as packed records (a third of the memory of bar objects), newest part first. */
  parts: Float64Array[];
}

/** Bars [from, to) of `bars` as packed records. */
function pack(bars: readonly Bar[], from: number, to: number): Float64Array {
  const out = new Float64Array((to - from) * BAR_FIELDS);
  for (let i = from; i < to; i++) writeBar(out, i - from, bars[i]!);
  return out;
}

export class ChunkCarry {
  private readonly pending = new Map<number, Pending>();

  constructor(
    /** Writes `n` ascending packed bars (merging with what is stored). */
    private readonly write: (symId: number, tf: Timeframe, records: Float64Array, n: number) => void,
    /** Timeframes held until complete; the others are held until `writeHeld` (a few bars a step). */
    private readonly carried: ReadonlySet<Timeframe>,
  ) {}

  /** Ascending bars of one series, each older than every bar given before for it. */
  add(symId: number, tf: Timeframe, bars: readonly Bar[]): void {
    if (bars.length === 0) return;
    const key = symId * TIMEFRAMES.length + TIMEFRAME_INFO[tf].index;
    let to = bars.length;
    while (to > 0) {
      const start = chunkStartOf(tf, bars[to - 1]!.t);
      let from = to - 1;
      while (from > 0 && chunkStartOf(tf, bars[from - 1]!.t) === start) from--;
      const group = pack(bars, from, to);
      const p = this.pending.get(key);
      if (p && p.start === start) p.parts.push(group);
      else {
        if (p) this.writePending(p);
        this.pending.set(key, { symId, tf, start, parts: [group] });
      }
      to = from;
    }
  }

  /** Everything from this time on is written (for every series and timeframe); -Infinity: all is. */
  writtenFromMs(): number {
    let from = -Infinity;
    for (const p of this.pending.values()) if (p.parts.length > 0) from = Math.max(from, p.start + chunkSpanMs(p.tf));
    return from;
  }

  /**
   * Writes the chunks that can get no more bars: the build has gone back past their start (a
   * timeframe that is no longer any step's finest or roll-up keeps its last chunk otherwise).
   */
  writeComplete(builtFromMs: number): void {
    for (const [key, p] of this.pending) {
      if (p.start < builtFromMs) continue;
      this.writePending(p);
      this.pending.delete(key);
    }
  }

  /**
   * Writes the bars held for the timeframes not carried to completion (coarse chunks span weeks
   * to years: held whole, their bars would show only at the end of the build). Their chunk is
   * merged again with its next bars.
   */
  writeHeld(): void {
    for (const p of this.pending.values()) {
      if (this.carried.has(p.tf) || p.parts.length === 0) continue;
      this.writePending(p);
      p.parts = [];
    }
  }

  /** Writes every chunk held (complete or not): the build ends or stops. */
  writeAll(): void {
    for (const p of this.pending.values()) this.writePending(p);
    this.pending.clear();
  }

  private writePending(p: Pending): void {
    if (p.parts.length === 0) return;
    let length = 0;
    for (const part of p.parts) length += part.length;
    const records = new Float64Array(length);
    let at = 0;
    for (let i = p.parts.length - 1; i >= 0; i--) {
      records.set(p.parts[i]!, at);
      at += p.parts[i]!.length;
    }
    this.write(p.symId, p.tf, records, length / BAR_FIELDS);
  }
}
