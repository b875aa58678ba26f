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
  /**
   * True while no live source stands behind the line (all stale, cleared, or none since the
   * service started). Memory only: a restart starts every line stale until a source quotes.
   */
  isStale: boolean;
  /** When the line last changed between stale and live (service clock, Unix ms); 0 before the first change. */
  freshnessSinceMs: number;
  /** Sources that counted when the line last became live; 0 while stale. */
  liveSources: number;
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
      this.states[key] = { quote: saved.quote ?? null, trade: saved.trade ?? null, quoteSeq: saved.quoteSeq ?? 0, tradeSeq: saved.tradeSeq ?? 0, version: 1, isStale: true, freshnessSinceMs: 0, liveSources: 0 };
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
      state = { quote: null, trade: null, quoteSeq: 0, tradeSeq: 0, version: 0, isStale: true, freshnessSinceMs: 0, liveSources: 0 };
      this.states[symId] = state;
    }
    state.version++;
    this.live.touch(symId);
    return state;
  }

  /**
   * The line lost its last live source (`isStale`) or regained one: memory only (no write), but
   * the version moves so cached bodies are made again. False when the symbol has no state yet.
   */
  setFreshness(symId: number, isStale: boolean, sinceMs: number, liveSources: number): boolean {
    const state = this.states[symId];
    if (state === undefined) return false;
    state.isStale = isStale;
    state.freshnessSinceMs = sinceMs;
    state.liveSources = liveSources;
    state.version++;
    return true;
  }

  /** Every symbol with a state. */
  *symbols(): Iterable<number> {
    for (let symId = 0; symId < this.states.length; symId++) if (this.states[symId] !== undefined) yield symId;
  }
}
