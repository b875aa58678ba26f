// Latest state per symbol (quote, last trade, tick sequence numbers): served from memory,
// persisted through the write queue so a restart serves the same values at once.
import type { StoreDbs } from './env.ts';
import type { WriteQueue } from './write-queue.ts';

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

export class LatestStore {
  private readonly states = new Map<number, LatestState>();

  constructor(
    private readonly dbs: StoreDbs,
    private readonly queue: WriteQueue,
  ) {
    for (const { key, value } of dbs.latest.getRange()) {
      const saved = value as Partial<LatestState>;
      this.states.set(key, { quote: saved.quote ?? null, trade: saved.trade ?? null, quoteSeq: saved.quoteSeq ?? 0, tradeSeq: saved.tradeSeq ?? 0, version: 1 });
    }
  }

  get(symId: number): LatestState | undefined {
    return this.states.get(symId);
  }

  /** The mutable state of a symbol, created empty on first use. */
  edit(symId: number): LatestState {
    let state = this.states.get(symId);
    if (!state) {
      state = { quote: null, trade: null, quoteSeq: 0, tradeSeq: 0, version: 0 };
      this.states.set(symId, state);
    }
    state.version++;
    this.queue.mark(`latest:${symId}`, () => this.toWrite(symId));
    return state;
  }

  private toWrite(symId: number) {
    const s = this.states.get(symId)!;
    return { db: this.dbs.latest, key: symId, value: { quote: s.quote && { ...s.quote }, trade: s.trade && { ...s.trade }, quoteSeq: s.quoteSeq, tradeSeq: s.tradeSeq } };
  }
}
