// Alpaca-compatible market data over the native queries: bars (one or many symbols, paged by
// `page_token`), latest quotes, trades and bars, and snapshots, for US stocks and crypto. The two
// differ only in symbol spelling and the fields of a quote and a trade (the Flavor table).
import type { Account } from '../../../domain/account.ts';
import { ApiError, badRequest } from '../../../domain/errors.ts';
import type { SymbolEntry } from '../../../domain/instrument.ts';
import { RANGE_LIMIT_MAX } from '../../../domain/range-params.ts';
import type { LastTrade, Quote } from '../../../domain/schemas.ts';
import { DAY_MS, TIMEFRAME_INFO } from '../../../domain/timeframes.ts';
import type { Bar } from '../../../domain/bar.ts';
import type { ApiDeps } from '../../deps.ts';
import { findSettledBar } from '../../queries/bars.ts';
import { parseAdjustment } from '../../../domain/adjustment.ts';
import { barPage, quoteOf, resolveTicker, snapshotDays, tradeOf, type NativeBar } from '../native-reads.ts';
import { stampsNewYork, vendorBarTime } from '../../../market/index.ts';
import { nativeDailyWindow } from '../vendor-time.ts';
import { fromAlpacaCrypto, fromAlpacaStock } from '../tickers.ts';
import { INVALID_SYMBOL_PREFIX } from './dialect.ts';
import { decodePageToken, encodePageToken, parseLimit, parseSort, parseTime, parseTimeframe } from './params.ts';

/** RFC 3339 UTC, whole seconds written without a fraction as the vendor writes bar times. */
export function rfc3339(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.endsWith('.000Z') ? `${iso.slice(0, -5)}Z` : iso;
}

export interface Flavor {
  assetClass: 'stocks' | 'crypto';
  /** The vendor symbol as an mds symbol; null for a spelling the class cannot have. */
  toMds(symbol: string): string | null;
  quote(q: Quote): Record<string, unknown>;
  trade(t: LastTrade): Record<string, unknown>;
}

export const STOCKS: Flavor = {
  assetClass: 'stocks',
  toMds: (s) => (/^[A-Z0-9][A-Z0-9.\-]{0,19}$/i.test(s) ? fromAlpacaStock(s) : null),
  quote: (q) => ({ t: rfc3339(q.timestamp ?? 0), ax: '', ap: q.ask, as: q.ask_size ?? 0, bx: '', bp: q.bid, bs: q.bid_size ?? 0, c: [], z: '' }),
  trade: (t) => ({ t: rfc3339(t.timestamp ?? 0), x: '', p: t.price, s: t.size ?? 0, c: [], i: 0, z: '' }),
};

export const CRYPTO: Flavor = {
  assetClass: 'crypto',
  toMds: fromAlpacaCrypto,
  quote: (q) => ({ t: rfc3339(q.timestamp ?? 0), ap: q.ask, as: q.ask_size ?? 0, bp: q.bid, bs: q.bid_size ?? 0 }),
  trade: (t) => ({ t: rfc3339(t.timestamp ?? 0), p: t.price, s: t.size ?? 0, i: 0, tks: '' }),
};

export function alpacaBar(bar: NativeBar | Bar): Record<string, unknown> {
  const out: Record<string, unknown> = { t: rfc3339(bar.t), o: bar.o, h: bar.h, l: bar.l, c: bar.c };
  if (bar.v !== null && bar.v !== undefined) out.v = bar.v;
  return out;
}

/**
 * The symbol a vendor symbol names. Strict (single-symbol routes): a bad spelling is the vendor's
 * invalid-symbol 400 and an unknown symbol the native 404; lenient (lists): both are left out.
 */
export function entryOf(deps: ApiDeps, account: Account, flavor: Flavor, symbol: string, strict: boolean): SymbolEntry | null {
  const mds = flavor.toMds(symbol);
  try {
    if (mds === null) throw badRequest(`${INVALID_SYMBOL_PREFIX}: ${symbol}`);
    return resolveTicker(deps, { assetClass: flavor.assetClass, symbol: mds }, account);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status === 403) throw error;
    if (!strict) return null;
    throw error.status === 400 ? badRequest(`${INVALID_SYMBOL_PREFIX}: ${symbol}`) : error;
  }
}

export interface BarsQuery {
  timeframe?: string;
  start?: string;
  end?: string;
  limit?: string;
  page_token?: string;
  sort?: string;
  /** Stocks: raw (the vendor's default), split, dividend or all, as the native parameter. */
  adjustment?: string;
}

/**
 * Bars of the symbols over [start, end], `limit` in all (the vendor's rule), in symbol order; the
 * page token says which symbol and native offset the next page starts at.
 */
export function barsOf(deps: ApiDeps, account: Account, flavor: Flavor, symbols: readonly string[], query: BarsQuery, strict: boolean) {
  const tf = parseTimeframe(query.timeframe);
  const now = deps.clock.nowMs();
  const startMs = parseTime('start', query.start, Math.floor(now / DAY_MS) * DAY_MS);
  const endMs = parseTime('end', query.end, now);
  if (endMs < startMs) throw badRequest('end should not be before start');
  const info = TIMEFRAME_INFO[tf];
  const spanDays = Math.ceil((endMs + 1 - startMs) / DAY_MS);
  if (spanDays > info.maxSpanDays) throw badRequest(`window of ${spanDays} days exceeds the maximum span of ${info.maxSpanDays} days for ${info.multiplier} ${info.timespan} bars`);
  const limit = parseLimit(query.limit, 1000, 10_000);
  const sort = parseSort(query.sort);
  const pos = decodePageToken(query.page_token);
  const adjustment = flavor.assetClass === 'stocks' ? parseAdjustment(query.adjustment) : 'raw';
  const bars: Record<string, Record<string, unknown>[]> = {};
  let remaining = limit;
  let next: string | null = null;
  for (let i = pos.symbolIndex; i < symbols.length; i++) {
    const symbol = symbols[i]!;
    const entry = entryOf(deps, account, flavor, symbol, strict);
    if (entry === null) continue;
    if (remaining === 0) {
      next = encodePageToken({ symbolIndex: i, offset: 0 });
      break;
    }
    let offset = i === pos.symbolIndex ? pos.offset : 0;
    for (;;) {
      // US stock daily bars are stamped at New York midnight here: the window names those stamps.
      const window = tf === '1d' && stampsNewYork(entry) ? nativeDailyWindow(startMs, endMs) : { fromMs: startMs, toMs: endMs + 1 };
      const page = barPage(deps, entry, { tf, ...window, limit: Math.min(remaining, RANGE_LIMIT_MAX), offset, sort }, adjustment);
      if (page.bars.length > 0) (bars[symbol] ??= []).push(...page.bars.map((bar) => alpacaBar({ ...bar, t: vendorBarTime(entry, tf, bar.t) })));
      remaining -= page.bars.length;
      if (page.nextOffset === null) break;
      offset = page.nextOffset;
      if (remaining === 0) {
        next = encodePageToken({ symbolIndex: i, offset });
        break;
      }
    }
    if (next !== null) break;
  }
  return { bars, next_page_token: next };
}

/** The latest values of each symbol that has one, keyed by the vendor symbol. */
export function latestOf<T>(deps: ApiDeps, account: Account, flavor: Flavor, symbols: readonly string[], value: (entry: SymbolEntry) => T | null): Record<string, T> {
  const out: Record<string, T> = {};
  for (const symbol of symbols) {
    const entry = entryOf(deps, account, flavor, symbol, false);
    const v = entry === null ? null : value(entry);
    if (v !== null) out[symbol] = v;
  }
  return out;
}

/** One symbol's latest value; the native 404 when it has none. */
export function latestOne<T>(deps: ApiDeps, account: Account, flavor: Flavor, symbol: string, value: (entry: SymbolEntry) => T | null, none: 'NO_QUOTE' | 'NO_TRADE' | 'NO_BAR' | 'NO_SNAPSHOT'): T {
  const entry = entryOf(deps, account, flavor, symbol, true)!;
  const v = value(entry);
  if (v === null) throw new ApiError(none);
  return v;
}

export const quoteValue = (deps: ApiDeps, flavor: Flavor) => (entry: SymbolEntry) => {
  const q = quoteOf(deps, entry);
  return q === null ? null : flavor.quote(q);
};

export const tradeValue = (deps: ApiDeps, flavor: Flavor) => (entry: SymbolEntry) => {
  const t = tradeOf(deps, entry);
  return t === null ? null : flavor.trade(t);
};

/** The latest bar: the last settled minute bar, the native prev with `interval=1m`. */
export const barValue = (deps: ApiDeps) => (entry: SymbolEntry) => {
  const settled = findSettledBar(deps, entry, '1m');
  return settled === null ? null : alpacaBar(settled.bar);
};

/** Latest values, the last minute bar, and the day (pre-market: the last session) with the day before it. */
export const snapshotValue = (deps: ApiDeps, flavor: Flavor) => (entry: SymbolEntry) => {
  const q = quoteOf(deps, entry);
  const t = tradeOf(deps, entry);
  const minute = findSettledBar(deps, entry, '1m')?.bar ?? null;
  const { day, prevDay } = snapshotDays(deps, entry);
  if (q === null && t === null && minute === null && day === null) return null;
  const daily = (bar: Bar) => alpacaBar({ ...bar, t: vendorBarTime(entry, '1d', bar.t) });
  const out: Record<string, unknown> = {};
  if (t) out.latestTrade = flavor.trade(t);
  if (q) out.latestQuote = flavor.quote(q);
  if (minute) out.minuteBar = alpacaBar(minute);
  if (day) out.dailyBar = daily(day);
  if (prevDay) out.prevDailyBar = daily(prevDay);
  return out;
};
