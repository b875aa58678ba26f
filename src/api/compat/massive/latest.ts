// Massive-compatible latest values: last trade and NBBO of a stock, last crypto trade and forex
// quote, and the snapshots (one or many tickers), all from the native quote, last trade and prev.
import type { Account } from '../../../domain/account.ts';
import { classAccessDenied, isMarketEnabled } from '../../../domain/account.ts';
import type { AssetClass } from '../../../domain/asset-classes.ts';
import { ApiError } from '../../../domain/errors.ts';
import type { SymbolEntry } from '../../../domain/instrument.ts';
import { priceChange } from '../../../domain/price-change.ts';
import { NO_TRADE_ERROR } from '../../../domain/symbols.ts';
import type { ApiDeps } from '../../deps.ts';
import { findTicker, latestMinute, quoteOf, resolveTicker, snapshotDays, tradeOf } from '../native-reads.ts';
import { fromMassiveTicker, toMassiveTicker, type MdsTicker } from '../tickers.ts';
import { massiveBar } from './aggs.ts';

/** Stock trade and quote times are SIP nanoseconds: the ms time with six zeros, exact as text. */
export function nanos(ms: number): number {
  return ms * 1_000_000;
}

function mapped(ticker: string, only?: AssetClass): MdsTicker {
  const t = fromMassiveTicker(ticker);
  if (t === null || (only !== undefined && t.assetClass !== only)) throw new ApiError('UNKNOWN_SYMBOL');
  return t;
}

/** `/v2/last/trade/{ticker}`: the native last trade (or the class's mid fallback). */
export function lastTradeBody(deps: ApiDeps, account: Account, ticker: string, requestId: string): string {
  const entry = resolveTicker(deps, mapped(ticker, 'stocks'), account);
  const trade = tradeOf(deps, entry);
  if (!trade) throw new ApiError(NO_TRADE_ERROR[entry.assetClass]);
  const results = { T: ticker, i: '', p: trade.price, q: 0, s: trade.size ?? 0, t: nanos(trade.timestamp ?? 0), x: 0, y: nanos(trade.timestamp ?? 0), ds: '' };
  return JSON.stringify({ request_id: requestId, results, status: 'OK' });
}

/** `/v2/last/nbbo/{ticker}`: the native consolidated quote. */
export function lastQuoteBody(deps: ApiDeps, account: Account, ticker: string, requestId: string): string {
  const entry = resolveTicker(deps, mapped(ticker, 'stocks'), account);
  const q = quoteOf(deps, entry);
  if (!q) throw new ApiError('NO_QUOTE');
  const results = { T: ticker, P: q.ask, S: q.ask_size ?? 0, p: q.bid, s: q.bid_size ?? 0, q: 0, t: nanos(q.timestamp ?? 0), x: 0, X: 0, y: nanos(q.timestamp ?? 0) };
  return JSON.stringify({ request_id: requestId, results, status: 'OK' });
}

/** `/v1/last/crypto/{from}/{to}`: the native last crypto trade, times in ms. */
export function lastCryptoTradeBody(deps: ApiDeps, account: Account, from: string, to: string, requestId: string): string {
  const entry = resolveTicker(deps, { assetClass: 'crypto', symbol: `${from}${to}`.toUpperCase() }, account);
  const trade = tradeOf(deps, entry);
  if (!trade) throw new ApiError(NO_TRADE_ERROR.crypto);
  const last = { conditions: [], exchange: 0, price: trade.price, size: trade.size ?? 0, timestamp: trade.timestamp ?? 0 };
  return JSON.stringify({ last, request_id: requestId, status: 'success', symbol: `${from}-${to}`.toUpperCase() });
}

/** `/v1/last_quote/currencies/{from}/{to}`: the native forex quote, times in ms. */
export function lastCurrencyQuoteBody(deps: ApiDeps, account: Account, from: string, to: string, requestId: string): string {
  const entry = resolveTicker(deps, { assetClass: 'forex', symbol: `${from}${to}`.toUpperCase() }, account);
  const q = quoteOf(deps, entry);
  if (!q) throw new ApiError('NO_QUOTE');
  const last = { ask: q.ask, bid: q.bid, exchange: 0, timestamp: q.timestamp ?? 0 };
  return JSON.stringify({ last, request_id: requestId, status: 'success', symbol: `${from}/${to}`.toUpperCase() });
}

/** One ticker's snapshot in the class's vendor shape; null when mds has no value at all for it. */
function snapshotOf(deps: ApiDeps, entry: SymbolEntry): Record<string, unknown> | null {
  const q = quoteOf(deps, entry);
  const trade = tradeOf(deps, entry);
  const { day, prevDay: prev, lastClose } = snapshotDays(deps, entry);
  const minute = latestMinute(deps, entry);
  if (q === null && trade === null && day === null) return null;
  const { change, changePercent } = priceChange(trade?.price ?? null, lastClose, entry.decimals);
  const isStock = entry.assetClass === 'stocks';
  const time = isStock ? nanos : (ms: number) => ms;
  const updatedMs = Math.max(q?.timestamp ?? 0, trade?.timestamp ?? 0);
  const out: Record<string, unknown> = { ticker: toMassiveTicker(entry.assetClass, entry.symbol), todaysChange: change ?? 0, todaysChangePerc: changePercent ?? 0, updated: time(updatedMs) };
  out.day = day ? dayBar(day) : { o: 0, h: 0, l: 0, c: 0, ...(entry.assetClass === 'forex' || entry.assetClass === 'indices' ? {} : { v: 0 }) };
  if (isStock && q) out.lastQuote = { P: q.ask, S: q.ask_size ?? 0, p: q.bid, s: q.bid_size ?? 0, t: nanos(q.timestamp ?? 0) };
  if (entry.assetClass === 'forex' && q) out.lastQuote = { a: q.ask, b: q.bid, t: q.timestamp, x: 0 };
  if (entry.assetClass !== 'forex' && trade) out.lastTrade = { c: [], i: '', p: trade.price, s: trade.size ?? 0, t: time(trade.timestamp ?? 0), x: 0 };
  if (minute) out.min = massiveBar(minute);
  if (prev) out.prevDay = dayBar(prev);
  return out;
}

function dayBar(bar: { o: number; h: number; l: number; c: number; v?: number | null; t: number }) {
  const { t: _t, ...rest } = massiveBar(bar);
  return rest;
}

/** A single ticker's snapshot (`/v2/snapshot/.../tickers/{ticker}`) of the class the route serves. */
export function snapshotBody(deps: ApiDeps, account: Account, assetClass: AssetClass, ticker: string, requestId: string): string {
  const entry = resolveTicker(deps, mapped(ticker, assetClass), account);
  const snapshot = snapshotOf(deps, entry);
  if (!snapshot) throw new ApiError('NO_SNAPSHOT');
  return JSON.stringify({ request_id: requestId, status: 'OK', ticker: snapshot });
}

/** Many tickers' snapshots: those named in `tickers` (comma-separated), else every listed one the key may read. */
export function snapshotsBody(deps: ApiDeps, account: Account, assetClass: AssetClass, tickersRaw: string | undefined, requestId: string): string {
  const denied = classAccessDenied(account, assetClass);
  if (denied) throw new ApiError('FORBIDDEN', denied);
  const named = tickersRaw?.split(',').map((t) => t.trim()).filter((t) => t.length > 0) ?? [];
  const entries =
    named.length > 0
      ? named.flatMap((t) => {
          const m = fromMassiveTicker(t);
          const entry = m && m.assetClass === assetClass ? findTicker(deps, m, account) : null;
          return entry ? [entry] : [];
        })
      : deps.store.registry.all(assetClass).filter((e) => e.listed && (assetClass !== 'stocks' || (e.market === 'US' && isMarketEnabled(account, 'US'))));
  const tickers = entries.flatMap((e) => snapshotOf(deps, e) ?? []);
  return JSON.stringify({ count: tickers.length, request_id: requestId, status: 'OK', tickers });
}
