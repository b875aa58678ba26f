// Writes raw issuer records (from a file import or the simulator) into the store in one
// transaction, each validated against the live price of its listing at that moment. The live
// price is the last trade, else the quote mid, else the last stored bar close; a listing the
// service has no prices for falls back to the record's own `price` column, and without that its
// counts go unchecked (see docs/fundamentals.md).
import type { FundamentalsRecord } from '../domain/fundamentals.ts';
import type { RawFundamentals } from '../domain/fundamentals-input.ts';
import { applyFundamentals, type ProfileOutcome, type SharesOutcome } from '../domain/fundamentals-refresh.ts';
import type { Store } from '../store/index.ts';

export type PriceSource = 'live' | 'file' | 'none';

/** The listing's live price from the store, or null when the service has none. */
export function livePriceOf(store: Store, symbol: string): number | null {
  const entry = store.registry.resolve('stocks', symbol);
  if (!entry) return null;
  const latest = store.latest(entry.id);
  if (latest?.trade) return latest.trade.price;
  if (latest?.quote) return (latest.quote.bid + latest.quote.ask) / 2;
  const open = store.openBar(entry.id, '1m');
  if (open) return open.c;
  for (const tf of ['1m', '1d'] as const) {
    const t = store.lastCompletedBarT(entry.id, tf);
    const bar = t === null ? null : store.lastBarBefore(entry.id, tf, t + 1);
    if (bar) return bar.c;
  }
  return null;
}

export interface WriteSummary {
  /** Records read. */
  records: number;
  /** Symbols whose stored record changed. */
  symbolsWritten: number;
  shares: Record<SharesOutcome, number>;
  profile: Record<ProfileOutcome, number>;
  prices: Record<PriceSource, number>;
  /** Share-structure sets kept because a restatement left figures unavailable. */
  kept: { symbol: string; asOf: string; missing: string[] }[];
}

function emptySummary(records: number): WriteSummary {
  return {
    records,
    symbolsWritten: 0,
    shares: { written: 0, refreshed: 0, restated: 0, unchanged: 0, kept: 0, stale: 0, absent: 0 },
    profile: { written: 0, refreshed: 0, 'not-due': 0, absent: 0 },
    prices: { live: 0, file: 0, none: 0 },
    kept: [],
  };
}

/** Validates and writes the records, in order, in one transaction. */
export function writeFundamentals(store: Store, records: readonly RawFundamentals[]): WriteSummary {
  const summary = emptySummary(records.length);
  summary.symbolsWritten = store.fundamentals.update(records, (previous: FundamentalsRecord | undefined, raw) => {
    const live = livePriceOf(store, raw.symbol);
    const price = live ?? raw.price ?? null;
    summary.prices[live !== null ? 'live' : price !== null ? 'file' : 'none']++;
    const result = applyFundamentals(previous, raw, price);
    summary.shares[result.shares]++;
    summary.profile[result.profile]++;
    if (result.shares === 'kept') summary.kept.push({ symbol: raw.symbol, asOf: raw.asOf, missing: result.missing });
    return result.written;
  });
  return summary;
}
