// Ring buffer of raw consolidated ticks per symbol and kind: fixed capacity, so disk and memory
// stay bounded under an endless feed. Records are packed into blocks so one LMDB write carries
// many ticks. The block being filled lives in memory and is persisted inside the symbol's live
// record (live.ts); a filled block is written once under its ring key, and stays in memory until
// that write has committed, so readers never miss it. While commits fail (disk full), filled
// blocks wait in memory up to a bound; past it the oldest unwritten blocks are dropped and counted.
import { QUOTE_FIELDS, TRADE_FIELDS } from './codecs.ts';
import type { StoreDbs } from './env.ts';
import type { Flusher, WriteQueue } from './write-queue.ts';

export const BLOCK_TICKS = 64;
/** Filled blocks waiting for a commit, over all rings, before the oldest are dropped (4096: 262,144 ticks, at most 12 MiB). */
export const MAX_UNWRITTEN_BLOCKS = 4096;
export type TickKind = 'quote' | 'trade';
const KIND_INDEX: Record<TickKind, number> = { quote: 0, trade: 1 };
const FIELDS = [QUOTE_FIELDS, TRADE_FIELDS] as const;

/** What `readWindow` reads: a time window, a seq window (both ends excluded), the order and a page size. */
export interface TickWindow {
  fromMs: number;
  /** Exclusive. */
  toMs: number;
  afterSeq: number;
  beforeSeq: number;
  desc: boolean;
  limit: number;
}

/** A filled block waiting for its commit. */
interface FullBlock {
  blockSeq: number;
  data: Float64Array;
  /** The flush that wrote it; 0 while not written yet. */
  epoch: number;
}

/** One symbol's ticks of one kind. */
interface Ring {
  symId: number;
  kind: number;
  fields: number;
  /** The block being filled, `count` ticks so far; blockSeq -1 before the first tick. */
  blockSeq: number;
  data: Float64Array;
  count: number;
  /** On the dirty list (it has filled blocks not written yet). */
  listed: boolean;
  full: FullBlock[];
}

export class TickRing implements Flusher {
  private readonly blocks: number;
  readonly capacity: number;
  /** By symId * 2 + kind index. */
  private readonly rings: (Ring | undefined)[] = [];
  private dirty: Ring[] = [];
  /** Rings with filled blocks written and not yet committed, per flush epoch. */
  private readonly waiting: { epoch: number; rings: Ring[] }[] = [];
  /** Block arrays of committed blocks, per kind, for reuse. */
  private readonly spare: Float64Array[][] = [[], []];
  /** Filled blocks not committed yet, over all rings. */
  private unwritten = 0;
  /** Ticks dropped unwritten because commits failed for longer than the bound allows. */
  droppedTicks = 0;

  constructor(
    private readonly dbs: StoreDbs,
    private readonly queue: WriteQueue,
    capacity: number,
    private readonly maxUnwrittenBlocks = MAX_UNWRITTEN_BLOCKS,
  ) {
    this.capacity = capacity;
    // One spare block: the block being filled overwrites the oldest, and `capacity` must survive.
    this.blocks = Math.ceil(capacity / BLOCK_TICKS) + 1;
    queue.register(this);
  }

  /** Appends one quote with sequence number `seq` (the caller's per-symbol counter, starting at 1); NaN stands for null. */
  appendQuote(symId: number, seq: number, tsMs: number, bid: number, ask: number, bidSize: number, askSize: number): void {
    const ring = this.rings[symId * 2] ?? this.makeRing(symId, 0);
    const at = this.slotFor(ring, seq) * QUOTE_FIELDS;
    const data = ring.data;
    data[at] = tsMs;
    data[at + 1] = bid;
    data[at + 2] = ask;
    data[at + 3] = bidSize;
    data[at + 4] = askSize;
    data[at + 5] = seq;
  }

  /** Appends one trade with sequence number `seq`; a NaN size stands for null. */
  appendTrade(symId: number, seq: number, tsMs: number, price: number, size: number): void {
    const ring = this.rings[symId * 2 + 1] ?? this.makeRing(symId, 1);
    const at = this.slotFor(ring, seq) * TRADE_FIELDS;
    const data = ring.data;
    data[at] = tsMs;
    data[at + 1] = price;
    data[at + 2] = size;
    data[at + 3] = seq;
  }

  /**
   * Restores a ring at open from its last sequence number and the ticks of its block being filled
   * as saved in the live record; without them (schema 1 kept that block under its ring key) they
   * are read from there.
   */
  restore(symId: number, kind: number, lastSeq: number, saved: Float64Array | undefined): void {
    if (lastSeq <= 0) return;
    const ring = this.rings[symId * 2 + kind] ?? this.makeRing(symId, kind);
    const count = ((lastSeq - 1) % BLOCK_TICKS) + 1;
    ring.blockSeq = (lastSeq - count) / BLOCK_TICKS;
    ring.count = count;
    const ticks = saved !== undefined && saved.length > 0 ? saved : this.storedBlock(symId, kind, ring.blockSeq);
    if (ticks) ring.data.set(ticks.subarray(0, Math.min(ticks.length, count * ring.fields)));
  }

  /** The ticks of the block being filled, or null (read at flush time for the live record). */
  openTicks(symId: number, kind: number): Float64Array | null {
    const ring = this.rings[symId * 2 + kind];
    return ring === undefined || ring.count === 0 ? null : ring.data.subarray(0, ring.count * ring.fields);
  }

  /**
   * Ticks with seq > afterSeq still in the ring, oldest first, as field arrays: the newest `max`
   * of them, so a capped replay ends where the live stream goes on (one gap, at its start).
   */
  readSince(symId: number, kind: TickKind, afterSeq: number, lastSeq: number, max: number): number[][] {
    const fields = FIELDS[KIND_INDEX[kind]]!;
    const first = Math.max(afterSeq + 1, lastSeq - this.capacity + 1, lastSeq - max + 1, 1);
    const out: number[][] = [];
    for (let seq = first; seq <= lastSeq && out.length < max; ) {
      const blockSeq = Math.floor((seq - 1) / BLOCK_TICKS);
      const values = this.blockValues(symId, KIND_INDEX[kind], blockSeq);
      for (let i = (seq - 1) % BLOCK_TICKS; i < BLOCK_TICKS && seq <= lastSeq && out.length < max; i++, seq++) {
        const at = i * fields;
        if (!values || at + fields > values.length || values[at + fields - 1] !== seq) continue;
        out.push(Array.from(values.subarray(at, at + fields)));
      }
    }
    return out;
  }

  /**
   * A page of the ticks still in the ring whose time lies in [fromMs, toMs) and whose seq lies
   * between afterSeq and beforeSeq (both excluded), in seq order (the tape's) or reversed: at most
   * `limit` of them, and whether more follow. Slots a gap left (an edge's skipped seqs, blocks
   * dropped while writes failed) are passed over.
   */
  readWindow(symId: number, kind: TickKind, lastSeq: number, w: TickWindow): { ticks: number[][]; more: boolean } {
    const k = KIND_INDEX[kind];
    const fields = FIELDS[k]!;
    const lo = Math.max(1, lastSeq - this.capacity + 1, w.afterSeq + 1);
    const hi = Math.min(lastSeq, w.beforeSeq - 1);
    const out: number[][] = [];
    const step = w.desc ? -1 : 1;
    let blockSeq = -1;
    let values: Float64Array | undefined;
    for (let seq = w.desc ? hi : lo; seq >= lo && seq <= hi; seq += step) {
      const b = Math.floor((seq - 1) / BLOCK_TICKS);
      if (b !== blockSeq) {
        blockSeq = b;
        values = this.blockValues(symId, k, b);
      }
      const at = ((seq - 1) % BLOCK_TICKS) * fields;
      if (!values || at + fields > values.length || values[at + fields - 1] !== seq) continue;
      const ts = values[at]!;
      if (ts < w.fromMs || ts >= w.toMs) continue;
      if (out.length === w.limit) return { ticks: out, more: true };
      out.push(Array.from(values.subarray(at, at + fields)));
    }
    return { ticks: out, more: false };
  }

  /** The oldest tick the ring still holds (its seq and time), or null when it holds none. */
  oldest(symId: number, kind: TickKind, lastSeq: number): { seq: number; tsMs: number } | null {
    const { ticks } = this.readWindow(symId, kind, lastSeq, { fromMs: -Infinity, toMs: Infinity, afterSeq: 0, beforeSeq: Infinity, desc: false, limit: 1 });
    const first = ticks[0];
    return first ? { seq: first[first.length - 1]!, tsMs: first[0]! } : null;
  }

  flush(epoch: number): Promise<unknown> | null {
    const rings = this.dirty;
    if (rings.length === 0) return null;
    this.dirty = [];
    let last: Promise<unknown> | null = null;
    for (const ring of rings) {
      ring.listed = false;
      for (const block of ring.full) {
        if (block.epoch !== 0) continue;
        block.epoch = epoch;
        last = this.put(ring, block.blockSeq, block.data);
      }
    }
    this.waiting.push({ epoch, rings });
    return last;
  }

  committed(epoch: number): void {
    while (this.waiting.length > 0 && this.waiting[0]!.epoch <= epoch) {
      for (const ring of this.waiting.shift()!.rings) {
        let kept = 0;
        for (const block of ring.full) {
          if (block.epoch !== 0 && block.epoch <= epoch) {
            this.spare[ring.kind]!.push(block.data);
            this.unwritten--;
          } else ring.full[kept++] = block;
        }
        ring.full.length = kept;
      }
    }
  }

  failed(epoch: number): void {
    const at = this.waiting.findIndex((w) => w.epoch === epoch);
    if (at < 0) return;
    for (const ring of this.waiting.splice(at, 1)[0]!.rings) {
      for (const block of ring.full) if (block.epoch === epoch) block.epoch = 0;
      if (!ring.listed) {
        ring.listed = true;
        this.dirty.push(ring);
      }
    }
    this.queue.schedule();
  }

  /** Filled blocks' ticks held in memory until their commit. */
  get unwrittenTicks(): number {
    return this.unwritten * BLOCK_TICKS;
  }

  /** Index of `seq` in the ring's open block, moving to a new block when `seq` starts one. */
  private slotFor(ring: Ring, seq: number): number {
    const slot = (seq - 1) % BLOCK_TICKS;
    const blockSeq = (seq - 1 - slot) / BLOCK_TICKS;
    if (blockSeq !== ring.blockSeq) this.openBlock(ring, blockSeq, slot);
    // A seq ahead of the next (an edge that joined or resumed past a gap): the slots skipped must
    // not show what a reused array held; readers skip slots whose seq field does not match.
    else if (slot > ring.count) ring.data.fill(NaN, ring.count * ring.fields, slot * ring.fields);
    ring.count = slot + 1;
    return slot;
  }

  private openBlock(ring: Ring, blockSeq: number, slot: number): void {
    if (ring.count > 0) {
      ring.full.push({ blockSeq: ring.blockSeq, data: ring.data, epoch: 0 });
      // One compare per 64 ticks; past the bound only while commits fail (or lag far behind).
      if (++this.unwritten > this.maxUnwrittenBlocks || ring.full.length >= this.blocks) this.dropOldest(ring);
      ring.data = this.spare[ring.kind]!.pop() ?? new Float64Array(BLOCK_TICKS * ring.fields);
      if (!ring.listed) {
        ring.listed = true;
        this.dirty.push(ring);
        this.queue.schedule();
      }
    }
    ring.blockSeq = blockSeq;
    ring.count = 0;
    // Resuming mid-block on a ring that was not restored: keep the ticks already stored in it.
    if (slot > 0) {
      const stored = this.storedBlock(ring.symId, ring.kind, blockSeq);
      if (stored) ring.data.set(stored.subarray(0, Math.min(stored.length, ring.data.length)));
      else ring.data.fill(NaN, 0, slot * ring.fields);
    }
  }

  /**
   * Drops the ring's oldest filled block not being written: raw ticks go first, oldest first (bars
   * are never dropped). Past the ring's own length a block would be overwritten on disk anyway.
   */
  private dropOldest(ring: Ring): void {
    const at = ring.full.findIndex((block) => block.epoch === 0);
    if (at < 0 || at === ring.full.length - 1) return;
    this.spare[ring.kind]!.push(ring.full[at]!.data);
    ring.full.splice(at, 1);
    this.unwritten--;
    this.droppedTicks += BLOCK_TICKS;
  }

  private makeRing(symId: number, kind: number): Ring {
    const fields = FIELDS[kind]!;
    const ring: Ring = { symId, kind, fields, blockSeq: -1, data: new Float64Array(BLOCK_TICKS * fields), count: 0, listed: false, full: [] };
    this.rings[symId * 2 + kind] = ring;
    return ring;
  }

  private put(ring: Ring, blockSeq: number, data: Float64Array): Promise<unknown> {
    const room = this.queue.scratchFloats(data.length);
    room.floats.set(data, room.at);
    return this.dbs.ticks.put([ring.symId, ring.kind, blockSeq % this.blocks], room.bytes as Buffer);
  }

  private blockValues(symId: number, kind: number, blockSeq: number): Float64Array | undefined {
    const ring = this.rings[symId * 2 + kind];
    if (ring) {
      if (ring.blockSeq === blockSeq) return ring.data.subarray(0, ring.count * ring.fields);
      for (const block of ring.full) if (block.blockSeq === blockSeq) return block.data;
    }
    return this.storedBlock(symId, kind, blockSeq);
  }

  private storedBlock(symId: number, kind: number, blockSeq: number): Float64Array | undefined {
    const bytes = this.dbs.ticks.getBinary([symId, kind, blockSeq % this.blocks]);
    if (!bytes) return undefined;
    return new Float64Array(new Uint8Array(bytes).buffer);
  }
}
