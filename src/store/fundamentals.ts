// Fundamentals records, one per `CC:SYMBOL`. The key order of the database (market prefix, then
// symbol) is the per-market sorted index that paging walks, so a page is one range read that
// resumes strictly after the last symbol served. Writes are one synchronous transaction, so an
// import is applied whole or not at all, and `mds import` can write while a server runs: readers
// see each commit in full on their next read.
import { randomBytes } from 'node:crypto';
import type { FundamentalsRecord } from '../domain/fundamentals.ts';
import type { StoreDbs } from './env.ts';

const CURSOR_KEY = 'fundamentalsCursorKey';

export interface FundamentalsPage {
  /** Served JSON of each item, in symbol order. */
  items: string[];
  /** Symbol of the last item, or null for an empty page. */
  lastSymbol: string | null;
  /** Whether items follow this page. */
  hasMore: boolean;
}

export class FundamentalsStore {
  constructor(private readonly dbs: StoreDbs) {}

  get(symbol: string): FundamentalsRecord | undefined {
    return this.dbs.fundamentals.get(symbol) as FundamentalsRecord | undefined;
  }

  /** Up to `limit` items of a market after `afterSymbol` (from the start when null). */
  page(market: string, afterSymbol: string | null, limit: number): FundamentalsPage {
    const items: string[] = [];
    let lastSymbol: string | null = null;
    let hasMore = false;
    // `;` follows `:` in byte order, so [`US:`, `US;`) is exactly the US keys.
    for (const { key, value } of this.dbs.fundamentals.getRange({ start: afterSymbol ?? `${market}:`, end: `${market};` })) {
      if (key === afterSymbol) continue;
      if (items.length === limit) {
        hasMore = true;
        break;
      }
      items.push((value as FundamentalsRecord).json);
      lastSymbol = key;
    }
    return { items, lastSymbol, hasMore };
  }

  /**
   * Runs `apply` over each input in one synchronous transaction: it gets the stored record (as
   * updated earlier in the same call) and returns the record to store, or null to leave it.
   * Returns how many records were written. A throw aborts the whole transaction.
   */
  update<T extends { symbol: string }>(inputs: Iterable<T>, apply: (previous: FundamentalsRecord | undefined, input: T) => FundamentalsRecord | null): number {
    const pending = new Map<string, FundamentalsRecord>();
    this.dbs.root.transactionSync(() => {
      for (const input of inputs) {
        const previous = pending.get(input.symbol) ?? (this.dbs.fundamentals.get(input.symbol) as FundamentalsRecord | undefined);
        const next = apply(previous, input);
        if (next === null) continue;
        pending.set(next.symbol, next);
        this.dbs.fundamentals.putSync(next.symbol, next);
      }
    });
    return pending.size;
  }

  /** The secret that signs paging cursors, made once per data dir so cursors survive restarts. */
  cursorKey(): Uint8Array {
    const existing = this.dbs.meta.get(CURSOR_KEY) as Uint8Array | undefined;
    if (existing) return existing;
    return this.dbs.root.transactionSync(() => {
      const raced = this.dbs.meta.get(CURSOR_KEY) as Uint8Array | undefined;
      if (raced) return raced;
      const key = randomBytes(32);
      this.dbs.meta.putSync(CURSOR_KEY, key);
      return key;
    });
  }
}
