// The wire between a venue worker and the serving thread: ticks packed as fixed-width records in a
// Float64Array (transferred, never copied or serialized per tick), null sizes as NaN.
//
// Flow control (venue-worker.ts): the worker keeps only a couple of batches handed over and not yet
// ingested (the serving thread counts ingested batches in shared memory); the rest waits in this
// queue. While the serving thread is behind (the queue is held), a quote replaces the waiting quote
// of the same instrument (conflation: the latest book is what consolidation needs), trades and
// stale marks are kept in order, and only past the queue's bound is a tick dropped (counted). The
// serving thread conflates the rest of a batch it cannot ingest in one slice (conflateRest).
import type { FeedSink } from '../../domain/feed.ts';

/** Slots per record: kind, instrument, tsMs, then four values (bid, ask, bidSize, askSize or price, size). */
export const RECORD = 7;
const QUOTE = 0;
const TRADE = 1;
const STALE = 2;
/** A quote that a later quote of its instrument in the same batch superseded (conflateRest). */
const SUPERSEDED = 3;

export interface TickQueueCounters {
  /** Ticks the feed produced (quotes and trades). */
  ticks: number;
  /** Quotes replaced by a newer quote of the same instrument while the serving thread was behind. */
  conflated: number;
  /** Ticks dropped because the queue was full. */
  dropped: number;
}

/**
 * Packs sink calls into records and hands them over in batches of at most `batchRecords`. With
 * `held` set (the serving thread has the most batches it may have waiting) quotes are conflated as
 * described above.
 */
export class TickQueue implements FeedSink {
  private buf: Float64Array;
  private head = 0;
  private n = 0;
  /** By instrument: the record of its latest waiting quote (valid only while it still holds that quote). */
  private slotOf = new Int32Array(0);
  held = false;
  readonly counters: TickQueueCounters = { ticks: 0, conflated: 0, dropped: 0 };

  constructor(
    private readonly batchRecords: number,
    /** The queue's bound in records; past it new ticks are dropped (counted). */
    private readonly maxRecords: number = 1 << 17,
  ) {
    this.buf = new Float64Array(Math.min(batchRecords * 4, maxRecords) * RECORD);
  }

  quote(instrument: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): void {
    this.counters.ticks++;
    if (this.held) {
      const slot = instrument < this.slotOf.length ? this.slotOf[instrument]! : -1;
      if (slot >= this.head && slot < this.n) {
        const o = slot * RECORD;
        const buf = this.buf;
        if (buf[o] === QUOTE && buf[o + 1] === instrument) {
          buf[o + 2] = tsMs;
          buf[o + 3] = bid;
          buf[o + 4] = ask;
          buf[o + 5] = bidSize ?? NaN;
          buf[o + 6] = askSize ?? NaN;
          this.counters.conflated++;
          return;
        }
      }
    }
    const at = this.put(QUOTE, instrument, tsMs, bid, ask, bidSize ?? NaN, askSize ?? NaN);
    if (at >= 0) this.setSlot(instrument, at);
  }

  trade(instrument: number, tsMs: number, price: number, size: number | null): void {
    this.counters.ticks++;
    // A later quote must not move ahead of this trade: it starts a new waiting quote.
    this.setSlot(instrument, -1);
    this.put(TRADE, instrument, tsMs, price, size ?? NaN, NaN, NaN);
  }

  stale(instrument: number): void {
    this.setSlot(instrument, -1);
    this.put(STALE, instrument, 0, NaN, NaN, NaN, NaN);
  }

  /** Records waiting to be handed over. */
  get pending(): number {
    return this.n - this.head;
  }

  /** The next batch (at most `batchRecords` records, oldest first), or null when nothing waits. */
  take(): Float64Array | null {
    if (this.n === this.head) return null;
    const end = Math.min(this.n, this.head + this.batchRecords);
    const out = this.buf.slice(this.head * RECORD, end * RECORD);
    this.head = end;
    if (this.head === this.n) this.head = this.n = 0;
    return out;
  }

  private setSlot(instrument: number, at: number): void {
    if (instrument >= this.slotOf.length) {
      if (at < 0) return;
      const grown = new Int32Array(Math.max(instrument + 1, this.slotOf.length * 2, 64)).fill(-1);
      grown.set(this.slotOf);
      this.slotOf = grown;
    }
    this.slotOf[instrument] = at;
  }

  /** Appends a record; its index, or -1 when the queue is full and the tick was dropped. */
  private put(kind: number, i: number, ts: number, a: number, b: number, c: number, d: number): number {
    if (this.n * RECORD === this.buf.length && !this.makeRoom()) {
      if (kind !== STALE) this.counters.dropped++;
      return -1;
    }
    const at = this.n++;
    const o = at * RECORD;
    const buf = this.buf;
    buf[o] = kind;
    buf[o + 1] = i;
    buf[o + 2] = ts;
    buf[o + 3] = a;
    buf[o + 4] = b;
    buf[o + 5] = c;
    buf[o + 6] = d;
    return at;
  }

  /** Moves the waiting records to the front, or grows the buffer up to the bound; false when full. */
  private makeRoom(): boolean {
    if (this.head > 0) {
      const shift = this.head;
      this.buf.copyWithin(0, shift * RECORD, this.n * RECORD);
      this.n -= shift;
      this.head = 0;
      const slots = this.slotOf;
      for (let i = 0; i < slots.length; i++) slots[i] = slots[i]! >= shift ? slots[i]! - shift : -1;
      return true;
    }
    const records = this.buf.length / RECORD;
    if (records >= this.maxRecords) return false;
    const grown = new Float64Array(Math.min(records * 2, this.maxRecords) * RECORD);
    grown.set(this.buf);
    this.buf = grown;
    return true;
  }
}

const orNull = (v: number) => (Number.isNaN(v) ? null : v);

/**
 * Conflates what is left of a batch from record offset `from`, in place: a quote followed later in
 * the batch by another quote of its instrument, with no trade or stale mark of that instrument
 * between, is superseded (skipped on delivery). Trades and stale marks stay, and nothing moves.
 * Returns how many quotes it superseded. `scratch` has a slot per instrument (grown as needed).
 */
export function conflateRest(batch: Float64Array, from: number, scratch: { later: Uint8Array }): number {
  let later = scratch.later;
  later.fill(0);
  let superseded = 0;
  for (let o = batch.length - RECORD; o >= from; o -= RECORD) {
    const kind = batch[o]!;
    const i = batch[o + 1]!;
    if (i >= later.length) {
      const grown = new Uint8Array(Math.max(i + 1, later.length * 2));
      grown.set(later);
      later = scratch.later = grown;
    }
    if (kind === QUOTE) {
      if (later[i] === 1) {
        batch[o] = SUPERSEDED;
        superseded++;
      } else later[i] = 1;
    } else if (kind === TRADE || kind === STALE) later[i] = 0;
  }
  return superseded;
}

/**
 * Replays a packed batch into a sink, in order, from record offset `from`. With a time budget it
 * stops once the budget is spent (checked every few records) and returns where to go on; the
 * batch's length when it is done.
 */
export function deliverBatch(batch: Float64Array, sink: FeedSink, from = 0, budgetMs = Infinity): number {
  const deadline = budgetMs === Infinity ? Infinity : performance.now() + budgetMs;
  let o = from;
  while (o + RECORD <= batch.length) {
    const kind = batch[o]!;
    const i = batch[o + 1]!;
    if (kind === QUOTE) sink.quote(i, batch[o + 2]!, batch[o + 3]!, batch[o + 4]!, orNull(batch[o + 5]!), orNull(batch[o + 6]!));
    else if (kind === TRADE) sink.trade(i, batch[o + 2]!, batch[o + 3]!, orNull(batch[o + 4]!));
    else if (kind === STALE) sink.stale(i);
    o += RECORD;
    if ((o / RECORD) % 16 === 0 && performance.now() >= deadline) break;
  }
  return o;
}
