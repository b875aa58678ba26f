// Quote, mark, last trade and snapshot of a perpetual composite, as of the request: the sources
// are judged live at that instant, so a composite whose sources all went stale, crossed or far
// off answers 503 (NO_LIVE_SOURCE) instead of its last value. Composite values are reference
// values, not executable prices.
import { ApiError } from '../../domain/errors.ts';
import { priceChange } from '../../domain/price-change.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import { midScaleOf, roundedMid } from '../../domain/mid-price.ts';
import type { CompositeQuote, CompositeSnapshot, CompositeTrade, Mark } from '../../domain/perpetuals-schemas.ts';
import type { ApiDeps, CompositeView } from '../deps.ts';
import { prevCloseOf } from './latest.ts';

function compositeOf(deps: ApiDeps, entry: SymbolEntry): CompositeView | null {
  return deps.composites?.compositeAt(entry.id, deps.clock.nowMs()) ?? null;
}

function liveComposite(deps: ApiDeps, entry: SymbolEntry): CompositeView {
  const c = compositeOf(deps, entry);
  if (!c) throw new ApiError('NO_LIVE_SOURCE');
  return c;
}

/** The composite mid, two decimals finer than the instrument (bid and ask are one finer). */
function markOf(c: CompositeView, entry: SymbolEntry): number {
  return roundedMid(c.bid, c.ask, midScaleOf(entry.decimals, 2));
}

export function compositeQuoteBody(deps: ApiDeps, entry: SymbolEntry): string {
  const c = liveComposite(deps, entry);
  return JSON.stringify({ symbol: entry.symbol, bid: c.bid, ask: c.ask, bid_size: c.bidSize, ask_size: c.askSize, timestamp: c.tsMs, source_count: c.sourceCount } satisfies CompositeQuote);
}

export function markBody(deps: ApiDeps, entry: SymbolEntry): string {
  const c = liveComposite(deps, entry);
  return JSON.stringify({ symbol: entry.symbol, mark: markOf(c, entry), timestamp: c.tsMs, source_count: c.sourceCount } satisfies Mark);
}

/** The last trade that passed the rules, else the mark (size null); 503 when neither resolves. */
function lastTradeOf(deps: ApiDeps, entry: SymbolEntry, c: CompositeView | null): CompositeTrade | null {
  const t = deps.composites?.lastTrade(entry.id) ?? null;
  if (t) return { symbol: entry.symbol, price: t.price, size: t.size, timestamp: t.tsMs, source_count: t.sourceCount };
  if (c) return { symbol: entry.symbol, price: markOf(c, entry), size: null, timestamp: c.tsMs, source_count: c.sourceCount };
  return null;
}

/**
 * The last trade is served only while at least one source counts, like quote and mark: with none
 * live, a trade of minutes ago must not pass for the current price. Its `source_count` stays the
 * count when it printed (the snapshot's says how many count now).
 */
export function compositeTradeBody(deps: ApiDeps, entry: SymbolEntry): string {
  const trade = lastTradeOf(deps, entry, liveComposite(deps, entry));
  if (!trade) throw new ApiError('NO_LIVE_SOURCE');
  return JSON.stringify(trade);
}

/**
 * Quote and last-trade fields null while no source is live, as quote, mark and last trade answer
 * 503 then (every price is a composite of live sources: none live, no price); 404 only when every
 * value is null (spec: snapshot).
 */
export function compositeSnapshotBody(deps: ApiDeps, entry: SymbolEntry): string {
  const c = compositeOf(deps, entry);
  const last = c === null ? null : lastTradeOf(deps, entry, c);
  const prevClose = prevCloseOf(deps, entry);
  const lastPrice = last?.price ?? null;
  const { change, changePercent } = priceChange(lastPrice, prevClose, entry.decimals);
  if (c === null && lastPrice === null && prevClose === null) throw new ApiError('NO_SNAPSHOT');
  const snapshot: CompositeSnapshot = {
    symbol: entry.symbol,
    bid: c?.bid ?? null,
    ask: c?.ask ?? null,
    bid_size: c?.bidSize ?? null,
    ask_size: c?.askSize ?? null,
    last_price: lastPrice,
    last_timestamp: last?.timestamp ?? null,
    prev_close: prevClose,
    change,
    change_percent: changePercent,
    source_count: c?.sourceCount ?? 0,
  };
  return JSON.stringify(snapshot);
}
