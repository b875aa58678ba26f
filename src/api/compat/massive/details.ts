// Massive-compatible ticker details (`/v3/reference/tickers/{ticker}`) and daily open/close
// (`/v1/open-close/{ticker}/{date}`, `/v1/open-close/crypto/{from}/{to}/{date}`): what mds knows
// of a symbol (its registry entry, and the fundamentals store's profile and share count for a key
// with the fundamentals add-on) and the native daily bar of a session date.
import type { Account } from '../../../domain/account.ts';
import { addonDenied } from '../../../domain/account.ts';
import type { AssetClass } from '../../../domain/asset-classes.ts';
import { ApiError } from '../../../domain/errors.ts';
import type { SymbolEntry } from '../../../domain/instrument.ts';
import { parseDate } from '../../../domain/range-params.ts';
import { DAY_MS } from '../../../domain/timeframes.ts';
import type { ApiDeps } from '../../deps.ts';
import { barPage, resolveTicker } from '../native-reads.ts';
import { fromMassiveTicker, toMassiveTicker } from '../tickers.ts';

/** The vendor's market and locale of an mds class. */
export const MARKET_OF: Readonly<Partial<Record<AssetClass, { market: string; locale: 'us' | 'global'; type?: string }>>> = {
  stocks: { market: 'stocks', locale: 'us', type: 'CS' },
  crypto: { market: 'crypto', locale: 'global' },
  forex: { market: 'fx', locale: 'global' },
  indices: { market: 'indices', locale: 'us', type: 'INDEX' },
};

function entryOfTicker(deps: ApiDeps, account: Account, ticker: string): SymbolEntry {
  const mapped = fromMassiveTicker(ticker);
  if (mapped === null || MARKET_OF[mapped.assetClass] === undefined) throw new ApiError('UNKNOWN_SYMBOL', `unknown ticker ${JSON.stringify(ticker.slice(0, 40))}`);
  return resolveTicker(deps, mapped, account);
}

/** `/v3/reference/tickers/{ticker}`: the symbol as the vendor describes a ticker; fundamentals with the add-on. */
export function tickerDetailsBody(deps: ApiDeps, account: Account, ticker: string, requestId: string): string {
  const entry = entryOfTicker(deps, account, ticker);
  const m = MARKET_OF[entry.assetClass]!;
  const results: Record<string, unknown> = { ticker: toMassiveTicker(entry.assetClass, entry.symbol), name: entry.name, market: m.market, locale: m.locale, active: true, currency_name: 'usd' };
  if (m.type !== undefined) results.type = m.type;
  if (entry.assetClass === 'stocks') {
    results.ticker_root = results.ticker;
    // Company facts come from the fundamentals store, for keys with that add-on only.
    const record = addonDenied(account, 'fundamentals') === null ? deps.store.fundamentals.get(entry.symbol) : undefined;
    if (record !== undefined) {
      const { profile, shares } = record;
      if (profile.mic !== undefined) results.primary_exchange = profile.mic;
      if (profile.employees !== undefined) results.total_employees = profile.employees;
      if (profile.sector !== undefined && profile.industry !== undefined) results.sic_description = `${profile.sector}: ${profile.industry}`;
      if (shares.marketCap !== undefined) results.market_cap = shares.marketCap;
      if (shares.sharesTotal !== undefined) {
        results.share_class_shares_outstanding = shares.sharesTotal;
        results.weighted_shares_outstanding = shares.sharesTotal;
      }
    }
  }
  return JSON.stringify({ request_id: requestId, results, status: 'OK' });
}

/** The daily bar of a session date; the vendor's 404 (`Data not found.`) when there is none. */
function dailyBarOf(deps: ApiDeps, entry: SymbolEntry, dateRaw: string) {
  const dayMs = parseDate('date', dateRaw);
  const bar = barPage(deps, entry, { tf: '1d', fromMs: dayMs, toMs: dayMs + DAY_MS, limit: 1, offset: 0, sort: 'asc' }).bars[0];
  if (bar === undefined) throw new ApiError('NOT_FOUND', `Data not found: no daily bar of ${dateRaw}`);
  return bar;
}

/** `/v1/open-close/{ticker}/{date}`: a stock's or an index's session (forex and crypto tickers too). */
export function openCloseBody(deps: ApiDeps, account: Account, ticker: string, dateRaw: string): string {
  const entry = entryOfTicker(deps, account, ticker);
  const bar = dailyBarOf(deps, entry, dateRaw);
  const body: Record<string, unknown> = { status: 'OK', from: dateRaw, symbol: toMassiveTicker(entry.assetClass, entry.symbol), open: bar.o, high: bar.h, low: bar.l, close: bar.c };
  if (bar.v !== null) body.volume = bar.v;
  return JSON.stringify(body);
}

/** `/v1/open-close/crypto/{from}/{to}/{date}`: the UTC day of a crypto pair; mds keeps no trade lists for it. */
export function cryptoOpenCloseBody(deps: ApiDeps, account: Account, from: string, to: string, dateRaw: string): string {
  const entry = resolveTicker(deps, { assetClass: 'crypto', symbol: `${from}${to}`.toUpperCase() }, account);
  const bar = dailyBarOf(deps, entry, dateRaw);
  return JSON.stringify({ symbol: `${from}-${to}`.toUpperCase(), isUTC: true, day: `${dateRaw}T00:00:00Z`, open: bar.o, close: bar.c, openTrades: [], closingTrades: [] });
}
