// One record per symbol for everything that changes on every tick: the latest quote and trade
// with their sequence numbers, the bar in progress of each timeframe, and the ticks of the ring
// blocks being filled. One put per changed symbol per flush, and a restart finds the three
// consistent with each other because they are written together.
// Layout (float64, NaN stands for null or "none"): quoteSeq, tradeSeq; quote ts, bid, ask, bid
// size, ask size; trade ts, price, size; per timeframe index a bar t, o, h, l, c, v; the number
// of open-block quote ticks, of trade ticks; then those quote records, then the trade records.
import type { Bar } from '../domain/bar.ts';
import { TIMEFRAMES } from '../domain/timeframes.ts';
import { BAR_FIELDS, f64View, QUOTE_FIELDS, readBar, TRADE_FIELDS } from './codecs.ts';
import { SCHEMA_VERSION, type StoreDbs } from './env.ts';
import type { LatestState } from './latest.ts';
import type { Flusher, WriteQueue } from './write-queue.ts';

const BARS_AT = 10;
const COUNTS_AT = BARS_AT + TIMEFRAMES.length * BAR_FIELDS;
const HEADER = COUNTS_AT + 2;
const KIND_FIELDS = [QUOTE_FIELDS, TRADE_FIELDS] as const;

/** What the record is made of, read at flush time from the stores that own each part. */
export interface LiveParts {
  latest(symId: number): LatestState | undefined;
  openBar(symId: number, tfIndex: number): Bar | null;
  /** The ticks of the ring block being filled (kind 0 quotes, 1 trades), or null. */
  openTicks(symId: number, kind: number): Float64Array | null;
  /** Every symbol with a latest state or a bar in progress. */
  symbols(): Iterable<number>;
}

export class LiveStore implements Flusher {
  /** Records as read at open, by symId, for the stores to restore from. */
  readonly saved = new Map<number, Float64Array>();
  private parts: LiveParts | null = null;
  private dirty: number[] = [];
  private readonly listed: boolean[] = [];

  constructor(
    private readonly dbs: StoreDbs,
    private readonly queue: WriteQueue,
    /** The data dir is at an older schema: the first flush writes every symbol's record and retires the old records. */
    private upgrade: boolean,
  ) {
    for (const { key, value } of dbs.live.getRange()) this.saved.set(key, f64View(Uint8Array.prototype.slice.call(value)));
    queue.register(this);
  }

  /** Connects the parts once the stores have restored; on an upgrade, every known symbol is written. */
  attach(parts: LiveParts): void {
    this.parts = parts;
    if (this.upgrade) {
      for (const symId of parts.symbols()) this.touch(symId);
      this.queue.schedule();
    }
  }

  /** The symbol changed: the next flush writes its record. */
  touch(symId: number): void {
    if (this.listed[symId] === true) return;
    this.listed[symId] = true;
    this.dirty.push(symId);
    this.queue.schedule();
  }

  flush(): Promise<unknown> | null {
    const parts = this.parts;
    const ids = this.dirty;
    if (parts === null || (ids.length === 0 && !this.upgrade)) return null;
    this.dirty = [];
    let last: Promise<unknown> | null = null;
    for (const symId of ids) {
      this.listed[symId] = false;
      const quotes = parts.openTicks(symId, 0);
      const trades = parts.openTicks(symId, 1);
      const qn = quotes === null ? 0 : quotes.length / QUOTE_FIELDS;
      const tn = trades === null ? 0 : trades.length / TRADE_FIELDS;
      const room = this.queue.scratchFloats(HEADER + qn * QUOTE_FIELDS + tn * TRADE_FIELDS);
      const rec = room.floats;
      const at = room.at;
      writeHeader(rec, at, parts.latest(symId));
      for (let tfIndex = 0; tfIndex < TIMEFRAMES.length; tfIndex++) writeOpenBar(rec, at + BARS_AT + tfIndex * BAR_FIELDS, parts.openBar(symId, tfIndex));
      rec[at + COUNTS_AT] = qn;
      rec[at + COUNTS_AT + 1] = tn;
      if (quotes !== null) rec.set(quotes, at + HEADER);
      if (trades !== null) rec.set(trades, at + HEADER + qn * QUOTE_FIELDS);
      last = this.dbs.live.put(symId, room.bytes as Buffer);
    }
    if (this.upgrade) {
      // Same transaction as the records above: the old records go only together with their replacement.
      this.upgrade = false;
      this.dbs.latest.clearAsync();
      this.dbs.openBars.clearAsync();
      last = this.dbs.meta.put('schemaVersion', SCHEMA_VERSION);
    }
    return last;
  }

  /** Everything is served from memory, so a commit changes nothing here. */
  committed(): void {}

  /** A commit failed: every symbol's record is written again (rare; the records are rebuilt from memory). */
  failed(): void {
    if (this.parts === null) return;
    for (const symId of this.parts.symbols()) this.touch(symId);
  }
}

function writeHeader(rec: Float64Array, at: number, state: LatestState | undefined): void {
  const q = state?.quote ?? null;
  const t = state?.trade ?? null;
  rec[at] = state?.quoteSeq ?? 0;
  rec[at + 1] = state?.tradeSeq ?? 0;
  rec[at + 2] = q === null ? NaN : q.tsMs;
  rec[at + 3] = q === null ? NaN : q.bid;
  rec[at + 4] = q === null ? NaN : q.ask;
  rec[at + 5] = q?.bidSize ?? NaN;
  rec[at + 6] = q?.askSize ?? NaN;
  rec[at + 7] = t === null ? NaN : t.tsMs;
  rec[at + 8] = t === null ? NaN : t.price;
  rec[at + 9] = t?.size ?? NaN;
}

function writeOpenBar(rec: Float64Array, at: number, bar: Bar | null): void {
  rec[at] = bar === null ? NaN : bar.t;
  rec[at + 1] = bar === null ? NaN : bar.o;
  rec[at + 2] = bar === null ? NaN : bar.h;
  rec[at + 3] = bar === null ? NaN : bar.l;
  rec[at + 4] = bar === null ? NaN : bar.c;
  rec[at + 5] = bar?.v ?? NaN;
}

function nullable(value: number): number | null {
  return Number.isNaN(value) ? null : value;
}

/** The latest state in a record (version 1: a fresh start for body caches). */
export function savedLatest(rec: Float64Array): LatestState {
  return {
    quote: Number.isNaN(rec[2]!) ? null : { tsMs: rec[2]!, bid: rec[3]!, ask: rec[4]!, bidSize: nullable(rec[5]!), askSize: nullable(rec[6]!) },
    trade: Number.isNaN(rec[7]!) ? null : { tsMs: rec[7]!, price: rec[8]!, size: nullable(rec[9]!) },
    quoteSeq: rec[0]!,
    tradeSeq: rec[1]!,
    version: 1,
    // Freshness is not kept: after a restart no source has quoted yet.
    isStale: true,
    freshnessSinceMs: 0,
    liveSources: 0,
  };
}

/** The bar in progress of a timeframe in a record, or null. */
export function savedOpenBar(rec: Float64Array, tfIndex: number): Bar | null {
  return Number.isNaN(rec[BARS_AT + tfIndex * BAR_FIELDS]!) ? null : readBar(rec.subarray(BARS_AT), tfIndex);
}

/** The ticks of the block being filled of one kind in a record (may be empty). */
export function savedOpenTicks(rec: Float64Array, kind: number): Float64Array {
  const qn = rec[COUNTS_AT]!;
  const from = kind === 0 ? HEADER : HEADER + qn * QUOTE_FIELDS;
  return rec.subarray(from, from + rec[COUNTS_AT + kind]! * KIND_FIELDS[kind]!);
}
