// Fundamentals records, one per `CC:SYMBOL`, and beside each its item as served (UTF-8 JSON in a
// database of its own, so serving copies bytes and never decodes a record). The key order (market
// prefix, then symbol) is the per-market sorted index that paging walks: a page is one range read
// that resumes strictly after the last symbol served. Writes are one synchronous transaction, so
// an import is applied whole or not at all, and `mds import` can write while a server runs:
// readers see each commit in full on their next read.
import { randomBytes } from 'node:crypto';
import type { EncodedFundamentals, FundamentalsRecord } from '../domain/fundamentals.ts';
import type { StoreDbs } from './env.ts';

const CURSOR_KEY = 'fundamentalsCursorKey';

export interface FundamentalsPage {
  /** Served JSON of each item (UTF-8), in symbol order. */
  items: Buffer[];
  /** Symbol of the last item, or null for an empty page. */
  lastSymbol: string | null;
  /** Whether items follow this page. */
  hasMore: boolean;
}

export class FundamentalsStore {
  constructor(private readonly dbs: StoreDbs) {}

  /** The stored record (both groups and their vintages), for the refresh rules. */
  get(symbol: string): FundamentalsRecord | undefined {
    return this.dbs.fundamentals.get(symbol) as FundamentalsRecord | undefined;
  }

  /** The item as served (UTF-8 JSON), or undefined without coverage. */
  json(symbol: string): Buffer | undefined {
    return this.dbs.fundamentalsJson.get(symbol);
  }

  /** Up to `limit` items of a market after `afterSymbol` (from the start when null). */
  page(market: string, afterSymbol: string | null, limit: number): FundamentalsPage {
    const items: Buffer[] = [];
    let lastSymbol: string | null = null;
    let hasMore = false;
    // `;` follows `:` in byte order, so [`US:`, `US;`) is exactly the US keys.
    for (const { key, value } of this.dbs.fundamentalsJson.getRange({ start: afterSymbol ?? `${market}:`, end: `${market};` })) {
      if (key === afterSymbol) continue;
      if (items.length === limit) {
        hasMore = true;
        break;
      }
      items.push(value);
      lastSymbol = key;
    }
    return { items, lastSymbol, hasMore };
  }

  /**
   * Runs `apply` over each input in one synchronous transaction: it gets the stored record (as
   * updated earlier in the same call) and returns the record to store with its JSON, or null to
   * leave it. Returns how many symbols were written. A throw aborts the whole transaction.
   */
  update<T extends { symbol: string }>(inputs: Iterable<T>, apply: (previous: FundamentalsRecord | undefined, input: T) => EncodedFundamentals | null): number {
    const pending = new Map<string, FundamentalsRecord>();
    this.dbs.root.transactionSync(() => {
      for (const input of inputs) {
        const previous = pending.get(input.symbol) ?? this.get(input.symbol);
        const next = apply(previous, input);
        if (next === null) continue;
        const { symbol } = next.record;
        pending.set(symbol, next.record);
        this.dbs.fundamentals.putSync(symbol, next.record);
        this.dbs.fundamentalsJson.putSync(symbol, Buffer.from(next.json, 'utf8'));
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
