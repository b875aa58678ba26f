// Massive-compatible reference routes: market status now and the upcoming US holidays from the mds
// calendars (US, FOREX, CRYPTO, INDICES), and the ticker listing from the symbol registry.
import { DateTime } from 'luxon';
import type { Account } from '../../../domain/account.ts';
import { classAccessDenied, isMarketEnabled } from '../../../domain/account.ts';
import type { AssetClass } from '../../../domain/asset-classes.ts';
import { badRequest } from '../../../domain/errors.ts';
import { quoteInput } from '../../../domain/symbols.ts';
import { addDays, holidaysBetween, localDateOf, marketStatusAt, sessionsBetween } from '../../../market/index.ts';
import type { ApiDeps } from '../../deps.ts';
import { toMassiveTicker } from '../tickers.ts';
import { encodeCursor } from './aggs.ts';
import { MASSIVE_PREFIX } from './dialect.ts';

const NEW_YORK = 'America/New_York';
/** US pre-market opens 5.5 hours before the regular open (04:00); after-hours run 4 hours past the close. */
const EARLY_HOURS_MS = 5.5 * 3_600_000;
const AFTER_HOURS_MS = 4 * 3_600_000;

/** `/v1/marketstatus/now`: the US exchanges with their extended hours, forex, crypto and the index groups. */
export function marketStatusBody(deps: ApiDeps): string {
  const now = deps.clock.nowMs();
  const us = marketStatusAt('US', now);
  const today = sessionsBetween('US', localDateOf(now, NEW_YORK), localDateOf(now, NEW_YORK))[0] ?? null;
  const earlyHours = !us.isOpen && today !== null && now >= today.openMs - EARLY_HOURS_MS && now < today.openMs;
  const afterHours = !us.isOpen && today !== null && now >= today.closeMs && now < today.closeMs + AFTER_HOURS_MS;
  const exchange = us.isOpen ? 'open' : earlyHours || afterHours ? 'extended-hours' : 'closed';
  const openOrClosed = (code: string) => (marketStatusAt(code, now).isOpen ? 'open' : 'closed');
  const indices = openOrClosed('INDICES');
  return JSON.stringify({
    afterHours,
    currencies: { crypto: openOrClosed('CRYPTO'), fx: openOrClosed('FOREX') },
    earlyHours,
    exchanges: { nasdaq: exchange, nyse: exchange, otc: exchange },
    indicesGroups: { dow_jones: indices, nasdaq: indices, s_and_p: indices },
    market: exchange,
    serverTime: DateTime.fromMillis(now, { zone: NEW_YORK }).toISO({ suppressMilliseconds: true }),
  });
}

/** `/v1/marketstatus/upcoming`: the US closures and early closes of the coming year, per exchange. */
export function upcomingBody(deps: ApiDeps): string {
  const from = localDateOf(deps.clock.nowMs(), NEW_YORK);
  const rows = holidaysBetween('US', from, addDays(from, 365)).flatMap((h) => {
    const session = h.status === 'early_close' ? (sessionsBetween('US', h.date, h.date)[0] ?? null) : null;
    return ['NYSE', 'NASDAQ'].map((exchange) => {
      const row: Record<string, string> = { exchange, name: h.name, date: h.date, status: h.status === 'closed' ? 'closed' : 'early-close' };
      if (session) {
        row.open = new Date(session.openMs).toISOString();
        row.close = new Date(session.closeMs).toISOString();
      }
      return row;
    });
  });
  return JSON.stringify(rows);
}

/** The vendor's markets and the mds classes they list. */
const MARKETS: Readonly<Record<string, { assetClass: AssetClass; locale: 'us' | 'global' }>> = {
  stocks: { assetClass: 'stocks', locale: 'us' },
  crypto: { assetClass: 'crypto', locale: 'global' },
  fx: { assetClass: 'forex', locale: 'global' },
  indices: { assetClass: 'indices', locale: 'us' },
};

const LIST_LIMIT_DEFAULT = 100;
const LIST_LIMIT_MAX = 1000;

export interface TickersQuery {
  ticker?: string;
  market?: string;
  search?: string;
  active?: string;
  order?: string;
  limit?: string;
  sort?: string;
  cursor?: string;
}

/** `/v3/reference/tickers`: the listed symbols of the markets the key may read, by ticker, paged by `next_url`. */
export function tickersBody(deps: ApiDeps, account: Account, query: TickersQuery, requestId: string, origin: string): string {
  const market = query.market?.toLowerCase();
  if (market !== undefined && market !== '' && !(market in MARKETS)) throw badRequest(`invalid market ${quoteInput(query.market ?? '')}: allowed values are ${Object.keys(MARKETS).join(', ')}`);
  const order = (query.order ?? 'asc').toLowerCase();
  if (order !== 'asc' && order !== 'desc') throw badRequest(`invalid order ${quoteInput(query.order ?? '')}: allowed values are asc, desc`);
  if (query.sort !== undefined && query.sort !== '' && query.sort !== 'ticker') throw badRequest(`invalid sort ${quoteInput(query.sort)}: this server sorts by ticker only`);
  const limitRaw = query.limit ?? '';
  const limit = limitRaw === '' ? LIST_LIMIT_DEFAULT : /^\d{1,4}$/.test(limitRaw) ? Number(limitRaw) : NaN;
  if (!(limit >= 1 && limit <= LIST_LIMIT_MAX)) throw badRequest(`invalid limit ${quoteInput(limitRaw)}: expected an integer from 1 to ${LIST_LIMIT_MAX}`);
  const offsetMatch = query.cursor ? /^offset=(\d{1,10})$/.exec(Buffer.from(query.cursor, 'base64url').toString()) : null;
  if (query.cursor && !offsetMatch) throw badRequest(`invalid cursor ${quoteInput(query.cursor)}: pass the cursor of a next_url unchanged`);
  const offset = offsetMatch ? Number(offsetMatch[1]) : 0;
  // mds lists only what it serves now: inactive tickers are none.
  const wantsInactive = query.active === 'false';
  const search = query.search?.toLowerCase();
  const exact = query.ticker?.toUpperCase();
  const rows = Object.entries(MARKETS)
    .filter(([name, m]) => (market === undefined || market === '' || market === name) && classAccessDenied(account, m.assetClass) === null)
    .flatMap(([name, m]) =>
      deps.store.registry
        .all(m.assetClass)
        .filter((e) => e.listed && (m.assetClass !== 'stocks' || (e.market === 'US' && isMarketEnabled(account, 'US'))))
        .map((e) => ({ ticker: toMassiveTicker(e.assetClass, e.symbol), name: e.name, market: name, locale: m.locale, active: true, currency_name: 'usd' })),
    )
    .filter((r) => !wantsInactive && (exact === undefined || exact === '' || r.ticker === exact) && (search === undefined || r.ticker.toLowerCase().includes(search) || r.name.toLowerCase().includes(search)))
    .sort((a, b) => (a.ticker < b.ticker ? -1 : a.ticker > b.ticker ? 1 : 0));
  if (order === 'desc') rows.reverse();
  const results = rows.slice(offset, offset + limit);
  const body: Record<string, unknown> = { count: results.length, request_id: requestId, results, status: 'OK' };
  if (offset + limit < rows.length) {
    const next = new URLSearchParams({ cursor: encodeCursor(offset + limit), limit: String(limit), order });
    if (market) next.set('market', market);
    if (query.search) next.set('search', query.search);
    if (query.ticker) next.set('ticker', query.ticker);
    body.next_url = `${origin}${MASSIVE_PREFIX}/v3/reference/tickers?${next}`;
  }
  return JSON.stringify(body);
}
