// Massive-compatible v3 snapshots: the universal snapshot (`/v3/snapshot`, any class, by
// `ticker.any_of` or by `type`) and the indices snapshot (`/v3/snapshot/indices`), from the native
// quote, last trade, day bars and market status. Pages by `limit` and `next_url` as the vendor does;
// a ticker of `ticker.any_of` that mds does not serve gets the vendor's per-ticker error item.
import type { Account } from '../../../domain/account.ts';
import { classAccessDenied, isMarketEnabled } from '../../../domain/account.ts';
import type { AssetClass } from '../../../domain/asset-classes.ts';
import { ApiError, badRequest } from '../../../domain/errors.ts';
import type { SymbolEntry } from '../../../domain/instrument.ts';
import { priceChange } from '../../../domain/price-change.ts';
import { quoteInput } from '../../../domain/symbols.ts';
import { tradingCalendarOf } from '../../../market/coverage-slots.ts';
import { marketStatusAt } from '../../../market/index.ts';
import type { ApiDeps } from '../../deps.ts';
import { findTicker, latestMinute, quoteOf, snapshotDays, tradeOf } from '../native-reads.ts';
import { fromMassiveTicker, toMassiveTicker } from '../tickers.ts';
import { encodeCursor } from './aggs.ts';
import { MASSIVE_PREFIX } from './dialect.ts';
import { nanos } from './latest.ts';

/** The vendor's `type` values and the mds class each names; `options` is a type mds has none of. */
const TYPES: Readonly<Record<string, AssetClass | null>> = { stocks: 'stocks', crypto: 'crypto', fx: 'forex', indices: 'indices', options: null };
const TYPE_OF: Readonly<Partial<Record<AssetClass, string>>> = { stocks: 'stocks', crypto: 'crypto', forex: 'fx', indices: 'indices' };
const LIMIT_DEFAULT = 10;
const LIMIT_MAX = 250;

export interface SnapshotV3Query {
  'ticker.any_of'?: string;
  ticker?: string;
  'ticker.gte'?: string;
  'ticker.gt'?: string;
  'ticker.lte'?: string;
  'ticker.lt'?: string;
  type?: string;
  order?: string;
  limit?: string;
  sort?: string;
  cursor?: string;
}

/** One ticker's universal snapshot item; the vendor's item of an index carries `value` and no quote. */
function itemOf(deps: ApiDeps, entry: SymbolEntry): Record<string, unknown> {
  const now = deps.clock.nowMs();
  const q = quoteOf(deps, entry);
  const trade = tradeOf(deps, entry);
  const { day, lastClose } = snapshotDays(deps, entry);
  const minute = latestMinute(deps, entry);
  const isIndex = entry.assetClass === 'indices';
  const mid = q !== null && q.bid !== null && q.ask !== null ? Math.round(((q.bid + q.ask) / 2) * 10 ** entry.decimals) / 10 ** entry.decimals : null;
  // An index's value is its consolidated mid (the native last trade falls back to it too).
  const price = trade?.price ?? mid;
  const updatedMs = Math.max(q?.timestamp ?? 0, trade?.timestamp ?? 0);
  const item: Record<string, unknown> = {
    ticker: toMassiveTicker(entry.assetClass, entry.symbol),
    name: entry.name,
    type: TYPE_OF[entry.assetClass],
    market_status: marketStatusAt(tradingCalendarOf(entry), now).isOpen ? 'open' : 'closed',
    timeframe: 'REAL-TIME',
    last_updated: nanos(updatedMs),
  };
  if (isIndex && price !== null) item.value = price;
  if (day !== null) {
    const { change, changePercent } = priceChange(price, lastClose, entry.decimals);
    const session: Record<string, unknown> = { open: day.o, high: day.h, low: day.l, close: day.c, change: change ?? 0, change_percent: changePercent ?? 0, previous_close: lastClose ?? day.o };
    if (day.v !== null) session.volume = day.v;
    if (price !== null && !isIndex) session.price = price;
    item.session = session;
  }
  if (!isIndex && q) item.last_quote = { ask: q.ask, bid: q.bid, ask_size: q.ask_size ?? 0, bid_size: q.bid_size ?? 0, ...(mid === null ? {} : { midpoint: mid }), last_updated: nanos(q.timestamp ?? 0), timeframe: 'REAL-TIME' };
  if (!isIndex && trade) item.last_trade = { price: trade.price, size: trade.size ?? 0, sip_timestamp: nanos(trade.timestamp ?? 0), last_updated: nanos(trade.timestamp ?? 0), timeframe: 'REAL-TIME' };
  if (!isIndex && minute) item.last_minute = { open: minute.o, high: minute.h, low: minute.l, close: minute.c, volume: minute.v ?? 0 };
  return item;
}

/** The listed entries of a class the key may read (US stocks only). */
function listedOf(deps: ApiDeps, account: Account, assetClass: AssetClass): SymbolEntry[] {
  if (classAccessDenied(account, assetClass) !== null) return [];
  return deps.store.registry.all(assetClass).filter((e) => e.listed && (assetClass !== 'stocks' || (e.market === 'US' && isMarketEnabled(account, 'US'))));
}

const byTicker = (a: { ticker: string }, b: { ticker: string }) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0);

/** The `ticker.gte|gt|lte|lt` bounds of a listing. */
function inRange(ticker: string, q: SnapshotV3Query): boolean {
  const up = (v: string | undefined) => (v === undefined || v === '' ? undefined : v.toUpperCase());
  const [gte, gt, lte, lt] = [up(q['ticker.gte']), up(q['ticker.gt']), up(q['ticker.lte']), up(q['ticker.lt'])];
  return (gte === undefined || ticker >= gte) && (gt === undefined || ticker > gt) && (lte === undefined || ticker <= lte) && (lt === undefined || ticker < lt);
}

/** A snapshot page: the named tickers (in the order given), or every listed ticker of the types, sorted and paged. */
export function snapshotV3Body(deps: ApiDeps, account: Account, query: SnapshotV3Query, requestId: string, origin: string, only?: AssetClass): string {
  const limitRaw = query.limit ?? '';
  const limit = limitRaw === '' ? LIMIT_DEFAULT : /^\d{1,4}$/.test(limitRaw) ? Number(limitRaw) : NaN;
  if (!(limit >= 1 && limit <= LIMIT_MAX)) throw badRequest(`invalid limit ${quoteInput(limitRaw)}: expected an integer from 1 to ${LIMIT_MAX}`);
  const order = (query.order ?? 'asc').toLowerCase();
  if (order !== 'asc' && order !== 'desc') throw badRequest(`invalid order ${quoteInput(query.order ?? '')}: allowed values are asc, desc`);
  if (query.sort !== undefined && query.sort !== '' && query.sort !== 'ticker') throw badRequest(`invalid sort ${quoteInput(query.sort)}: this server sorts by ticker only`);
  const typeRaw = query.type?.toLowerCase();
  if (only === undefined && typeRaw !== undefined && typeRaw !== '' && !(typeRaw in TYPES)) throw badRequest(`invalid type ${quoteInput(query.type ?? '')}: allowed values are ${Object.keys(TYPES).join(', ')}`);
  const typeClass = only ?? (typeRaw === undefined || typeRaw === '' ? undefined : TYPES[typeRaw]);
  const offsetMatch = query.cursor ? /^offset=(\d{1,10})$/.exec(Buffer.from(query.cursor, 'base64url').toString()) : null;
  if (query.cursor && !offsetMatch) throw badRequest(`invalid cursor ${quoteInput(query.cursor)}: pass the cursor of a next_url unchanged`);
  const offset = offsetMatch ? Number(offsetMatch[1]) : 0;

  const named = (query['ticker.any_of'] ?? query.ticker ?? '').split(',').map((t) => t.trim()).filter((t) => t.length > 0);
  let rows: Record<string, unknown>[];
  if (named.length > 0) {
    if (named.length > LIMIT_MAX) throw badRequest(`ticker.any_of names ${named.length} tickers: at most ${LIMIT_MAX}`);
    rows = named.map((ticker) => {
      const m = fromMassiveTicker(ticker);
      const entry = m !== null && (typeClass === undefined || m.assetClass === typeClass) && TYPE_OF[m.assetClass] !== undefined ? findTicker(deps, m, account) : null;
      return entry === null ? { ticker, error: 'NOT_FOUND', message: 'Ticker not found.' } : itemOf(deps, entry);
    });
  } else {
    if (typeClass === null) rows = [];
    else {
      const classes = typeClass === undefined ? (Object.keys(TYPE_OF) as AssetClass[]) : [typeClass];
      const entries = classes
        .flatMap((c) => listedOf(deps, account, c))
        .map((e) => ({ ticker: toMassiveTicker(e.assetClass, e.symbol), entry: e }))
        .filter((e) => inRange(e.ticker, query))
        .sort(byTicker);
      if (order === 'desc') entries.reverse();
      rows = entries.slice(offset, offset + limit).map((e) => itemOf(deps, e.entry));
      if (offset + limit < entries.length) {
        const next = new URLSearchParams({ cursor: encodeCursor(offset + limit), limit: String(limit), order });
        if (typeRaw && only === undefined) next.set('type', typeRaw);
        for (const bound of ['ticker.gte', 'ticker.gt', 'ticker.lte', 'ticker.lt'] as const) if (query[bound]) next.set(bound, query[bound]);
        const path = only === 'indices' ? '/v3/snapshot/indices' : '/v3/snapshot';
        return JSON.stringify({ request_id: requestId, results: rows, status: 'OK', next_url: `${origin}${MASSIVE_PREFIX}${path}?${next}` });
      }
    }
  }
  return JSON.stringify({ request_id: requestId, results: rows, status: 'OK' });
}

/** The class of `/v3/snapshot/indices`; an index ticker needs the `I:` prefix, as the vendor's. */
export function indicesSnapshotBody(deps: ApiDeps, account: Account, query: SnapshotV3Query, requestId: string, origin: string): string {
  const denied = classAccessDenied(account, 'indices');
  if (denied) throw new ApiError('FORBIDDEN', denied);
  return snapshotV3Body(deps, account, query, requestId, origin, 'indices');
}
