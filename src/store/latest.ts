// Latest state per symbol (quote, last trade, tick sequence numbers): served from memory and
// changed in place by the store's append verbs; persisted in the symbol's live record (live.ts),
// so a restart serves the same values at once.
import type { StoreDbs } from './env.ts';
import { savedLatest, type LiveStore } from './live.ts';

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
  /** By symId. */
  private readonly states: (LatestState | undefined)[] = [];

  constructor(
    dbs: StoreDbs,
    private readonly live: LiveStore,
  ) {
    // Schema 1 kept the latest state in its own records; an upgrade reads them once.
    for (const { key, value } of dbs.latest.getRange()) {
      const saved = value as Partial<LatestState>;
      this.states[key] = { quote: saved.quote ?? null, trade: saved.trade ?? null, quoteSeq: saved.quoteSeq ?? 0, tradeSeq: saved.tradeSeq ?? 0, version: 1 };
    }
    for (const [symId, rec] of live.saved) this.states[symId] = savedLatest(rec);
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
    this.live.touch(symId);
    return state;
  }

  /** Every symbol with a state. */
  *symbols(): Iterable<number> {
    for (let symId = 0; symId < this.states.length; symId++) if (this.states[symId] !== undefined) yield symId;
  }
}
