// Bars and latest values for the compatibility routes, read through the native queries: a window
// is the native range route's very page (its body, parsed), so a vendor's bars are mds's bars.
import { ApiError } from '../../domain/errors.ts';
import type { Account } from '../../domain/account.ts';
import { classAccessDenied } from '../../domain/account.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import type { RangeParams } from '../../domain/range-params.ts';
import type { LastTrade, Quote } from '../../domain/schemas.ts';
import type { Bar } from '../../domain/bar.ts';
import type { ApiDeps } from '../deps.ts';
import { findSettledBar } from '../queries/bars.ts';
import { lastTradeOf, quoteBody } from '../queries/latest.ts';
import { resolveSymbol } from '../queries/resolve.ts';
import { rangeBody } from '../range-body.ts';
import { adjustedRangeBody } from '../adjusted-range-body.ts';
import type { Adjustment } from '../../domain/adjustment.ts';
import type { MdsTicker } from './tickers.ts';

/** A bar as the native range route writes it; `v` null where the class has no volume. */
export interface NativeBar {
  o: number;
  h: number;
  l: number;
  c: number;
  v: number | null;
  t: number;
}

export interface BarPage {
  bars: NativeBar[];
  /** The offset of the next page in the same sort, or null on the last page. */
  nextOffset: number | null;
}

const decoder = new TextDecoder();

/** One page of a window, exactly the native range route's answer for the same parameters (and adjustment). */
export function barPage(deps: ApiDeps, entry: SymbolEntry, p: RangeParams, adjustment: Adjustment = 'raw'): BarPage {
  const bytes = adjustment === 'raw' ? rangeBody(deps, entry, p) : adjustedRangeBody(deps, entry, p, adjustment).body;
  const body = JSON.parse(decoder.decode(bytes)) as { results: NativeBar[]; next_offset: number | null };
  return { bars: body.results, nextOffset: body.next_offset };
}

/** The symbol a vendor ticker names, checked against the key's plan like a native route; throws the native 403/404. */
export function resolveTicker(deps: ApiDeps, ticker: MdsTicker, account: Account): SymbolEntry {
  const denied = classAccessDenied(account, ticker.assetClass);
  if (denied) throw new ApiError('FORBIDDEN', denied);
  return resolveSymbol(deps.store, ticker.assetClass, ticker.symbol, account);
}

/** As resolveTicker, null for a symbol that does not resolve (multi-symbol routes leave those out). */
export function findTicker(deps: ApiDeps, ticker: MdsTicker, account: Account): SymbolEntry | null {
  try {
    return resolveTicker(deps, ticker, account);
  } catch (error) {
    if (error instanceof ApiError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

/** The native quote of a symbol, or null when it has none. */
export function quoteOf(deps: ApiDeps, entry: SymbolEntry): Quote | null {
  try {
    return JSON.parse(quoteBody(deps, entry)) as Quote;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The native last trade (with the class's fallback), or null when none resolves. */
export function tradeOf(deps: ApiDeps, entry: SymbolEntry): LastTrade | null {
  try {
    return lastTradeOf(deps, entry);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/**
 * The day a vendor snapshot shows and the day before it. While a session runs, the day is its bar
 * in progress; before the session opens (pre-market) and between sessions it is the last
 * session's bar, as the vendors show it, never an empty day.
 */
export function snapshotDays(deps: ApiDeps, entry: SymbolEntry): { day: Bar | null; prevDay: Bar | null; lastClose: number | null } {
  const live = deps.bars.barInProgress(entry.id, '1d');
  const settled = findSettledBar(deps, entry, '1d')?.bar ?? null;
  const day = live ?? settled;
  const prevDay = day === null ? null : deps.store.lastBarBefore(entry.id, '1d', day.t);
  // The change is against the last settled close, as on the native snapshot: pre-market, the last session's.
  return { day, prevDay, lastClose: settled?.c ?? null };
}

/** The latest minute bar: the one in progress, else the last one (pre-market: the last session's last minute). */
export function latestMinute(deps: ApiDeps, entry: SymbolEntry): Bar | null {
  return deps.bars.barInProgress(entry.id, '1m') ?? findSettledBar(deps, entry, '1m')?.bar ?? null;
}
