// Latest state per symbol (quote, last trade, tick sequence numbers): served from memory and
// changed in place by the store's append verbs; each flush writes the symbols changed since the
// last one, so a restart serves the same values at once.
import type { StoreDbs } from './env.ts';
import type { Flusher, WriteQueue } from './write-queue.ts';

export interface LatestQuote {
  bid: number;
  ask: number;
  bidSize: number | null;
  askSize: number | null;
  tsMs: number;
}

export interface LatestTrade {
  price: number;
  size: number | null;
  tsMs: number;
}

export interface LatestState {
  quote: LatestQuote | null;
  trade: LatestTrade | null;
  quoteSeq: number;
  tradeSeq: number;
  /** Bumped on every change: lets serializers reuse encoded bodies until it moves. */
  version: number;
}

export class LatestStore implements Flusher {
  /** By symId. */
  private readonly states: (LatestState | undefined)[] = [];
  /** Symbols changed since the last flush, and a flag per symbol for "already listed". */
  private dirty: number[] = [];
  private readonly listed: boolean[] = [];

  constructor(
    private readonly dbs: StoreDbs,
    private readonly queue: WriteQueue,
  ) {
    for (const { key, value } of dbs.latest.getRange()) {
      const saved = value as Partial<LatestState>;
      this.states[key] = { quote: saved.quote ?? null, trade: saved.trade ?? null, quoteSeq: saved.quoteSeq ?? 0, tradeSeq: saved.tradeSeq ?? 0, version: 1 };
    }
    queue.register(this);
  }

  get(symId: number): LatestState | undefined {
    return this.states[symId];
  }

  /** The mutable state of a symbol, created empty on first use; the caller changes it now, the next flush writes it. */
  edit(symId: number): LatestState {
    let state = this.states[symId];
    if (!state) {
      state = { quote: null, trade: null, quoteSeq: 0, tradeSeq: 0, version: 0 };
      this.states[symId] = state;
    }
    state.version++;
    if (this.listed[symId] !== true) {
      this.listed[symId] = true;
      this.dirty.push(symId);
      this.queue.schedule();
    }
    return state;
  }

  flush(): Promise<unknown> | null {
    const ids = this.dirty;
    if (ids.length === 0) return null;
    this.dirty = [];
    let last: Promise<unknown> | null = null;
    for (const symId of ids) {
      this.listed[symId] = false;
      const s = this.states[symId]!;
      // Encoded by lmdb-js inside `put`, so later in-place changes do not reach this write.
      last = this.dbs.latest.put(symId, { quote: s.quote, trade: s.trade, quoteSeq: s.quoteSeq, tradeSeq: s.tradeSeq });
    }
    return last;
  }

  /** Reads are served from memory, so a commit changes nothing here. */
  committed(): void {}
}
