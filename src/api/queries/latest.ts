// Quote, last trade and snapshot of one symbol from the latest state, with the spec's per-class
// fallbacks (last trade → quote mid for stocks, forex, commodities, ...) and null rules.
import { CLASS_POLICY } from '../../domain/asset-classes.ts';
import { ApiError } from '../../domain/errors.ts';
import { priceChange } from '../../domain/price-change.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import { midScaleOf, roundedMid } from '../../domain/mid-price.ts';
import type { LastTrade, Quote, Snapshot } from '../../domain/schemas.ts';
import { NO_TRADE_ERROR } from '../../domain/symbols.ts';
import type { ApiDeps } from '../deps.ts';
import { findSettledBar } from './bars.ts';

interface EncodedQuote {
  entry: SymbolEntry;
  bid: number;
  ask: number;
  bidSize: number | null;
  askSize: number | null;
  tsMs: number;
  isStale: boolean;
  body: string;
}

/** Last encoded quote body per symbol id (a quote changes a few times a second and is read far more
 * often); the entry is kept so servers sharing this process never see each other's bodies. */
const encodedQuotes = new Map<number, EncodedQuote>();

/** The quote as its JSON body, re-encoded only when the quote has changed since the last call. */
export function quoteBody(deps: ApiDeps, entry: SymbolEntry): string {
  const state = deps.store.latest(entry.id);
  const q = state?.quote;
  if (!q) throw new ApiError('NO_QUOTE');
  const isStale = state!.isStale;
  const hit = encodedQuotes.get(entry.id);
  // Compared field by field, not by object identity: the store may update a quote in place.
  if (hit && hit.entry === entry && hit.tsMs === q.tsMs && hit.bid === q.bid && hit.ask === q.ask && hit.bidSize === q.bidSize && hit.askSize === q.askSize && hit.isStale === isStale) return hit.body;
  const body = JSON.stringify({ symbol: entry.symbol, bid: q.bid, ask: q.ask, bid_size: q.bidSize, ask_size: q.askSize, timestamp: q.tsMs, stale: isStale } satisfies Quote);
  encodedQuotes.set(entry.id, { entry, bid: q.bid, ask: q.ask, bidSize: q.bidSize, askSize: q.askSize, tsMs: q.tsMs, isStale, body });
  return body;
}

/** The last trade, or the class's fallback; null when nothing resolves. */
function lastTradeOrFallback(deps: ApiDeps, entry: SymbolEntry): { trade: LastTrade; isFallback: boolean } | null {
  const state = deps.store.latest(entry.id);
  if (state?.trade) {
    const t = state.trade;
    return { trade: { symbol: entry.symbol, price: t.price, size: t.size, timestamp: t.tsMs }, isFallback: false };
  }
  const q = state?.quote;
  if (q && CLASS_POLICY[entry.assetClass].tradeFallsBackToMid) {
    // Deterministic midpoint of the consolidated quote, one decimal finer than the instrument.
    return { trade: { symbol: entry.symbol, price: roundedMid(q.bid, q.ask, midScaleOf(entry.decimals)), size: null, timestamp: q.tsMs }, isFallback: true };
  }
  return null;
}

export function lastTradeOf(deps: ApiDeps, entry: SymbolEntry): LastTrade {
  const resolved = lastTradeOrFallback(deps, entry);
  if (!resolved) throw new ApiError(NO_TRADE_ERROR[entry.assetClass]);
  return resolved.trade;
}

/**
 * Close of the daily bar that prev (without interval) answers now: the same notion of a completed
 * daily bar (its end plus the settle lag; for a session class, the session's close), so the two
 * never disagree.
 */
export function prevCloseOf(deps: ApiDeps, entry: SymbolEntry): number | null {
  return findSettledBar(deps, entry, '1d')?.bar.c ?? null;
}

export function snapshotOf(deps: ApiDeps, entry: SymbolEntry): Snapshot {
  const state = deps.store.latest(entry.id);
  const q = state?.quote ?? null;
  const last = lastTradeOrFallback(deps, entry);
  const prevClose = prevCloseOf(deps, entry);
  const lastPrice = last?.trade.price ?? null;
  const { change, changePercent } = priceChange(lastPrice, prevClose, entry.decimals);
  const snapshot: Snapshot = {
    symbol: entry.symbol,
    bid: q?.bid ?? null,
    ask: q?.ask ?? null,
    bid_size: q?.bidSize ?? null,
    ask_size: q?.askSize ?? null,
    last_price: lastPrice,
    last_timestamp: last?.trade.timestamp ?? null,
    prev_close: prevClose,
    change,
    change_percent: changePercent,
    stale: state?.isStale ?? true,
  };
  const rule = CLASS_POLICY[entry.assetClass].snapshotLastSize;
  if (rule === 'always') snapshot.last_size = last && !last.isFallback ? last.trade.size : null;
  else if (rule === 'when-known' && last && !last.isFallback && last.trade.size !== null) snapshot.last_size = last.trade.size;
  const allNull = q === null && lastPrice === null && prevClose === null;
  if (allNull) throw new ApiError('NO_SNAPSHOT');
  return orderSnapshot(snapshot);
}

/** Field order as in the spec's table. */
function orderSnapshot(s: Snapshot): Snapshot {
  const ordered: Snapshot = { symbol: s.symbol, bid: s.bid, ask: s.ask, bid_size: s.bid_size, ask_size: s.ask_size, last_price: s.last_price } as Snapshot;
  if ('last_size' in s) ordered.last_size = s.last_size;
  ordered.last_timestamp = s.last_timestamp;
  ordered.prev_close = s.prev_close;
  ordered.change = s.change;
  ordered.change_percent = s.change_percent;
  ordered.stale = s.stale;
  return ordered;
}
