// The Alpaca-compatible REST routes under /compat/alpaca: v2 stocks and v1beta3 crypto market data,
// and the trading host's US clock and calendar, on one base path. Handlers translate only.
import { Elysia, t } from 'elysia';
import { ApiError } from '../../../domain/errors.ts';
import type { ApiDeps } from '../../deps.ts';
import { accountOf } from '../../plugins/gate.ts';
import { calendarBody, clockBody } from './clock.ts';
import { ALPACA_PREFIX } from './dialect.ts';
import { barValue, barsOf, CRYPTO, latestOf, latestOne, quoteValue, snapshotValue, STOCKS, tradeValue, type BarsQuery } from './market-data.ts';
import { parseSymbols } from './params.ts';
import { corporateActionsBody } from './corporate-actions.ts';

const opt = () => t.Optional(t.String());
const SymbolParams = t.Object({ symbol: t.String() });
const LocParams = t.Object({ loc: t.String() });
const BarsQuerySchema = t.Object({
  symbols: opt(), timeframe: opt(), start: opt(), end: opt(), limit: opt(), page_token: opt(), adjustment: opt(), asof: opt(), feed: opt(), currency: opt(), sort: opt(),
});
const LatestQuery = t.Object({ symbols: opt(), feed: opt(), currency: opt() });
const CorporateActionsQuery = t.Object({ symbols: opt(), cusips: opt(), types: opt(), region: opt(), start: opt(), end: opt(), ids: opt(), limit: opt(), page_token: opt(), sort: opt() });
const CalendarQuery = t.Object({ start: opt(), end: opt(), date_type: opt() });

/** Crypto lives under `/v1beta3/crypto/{loc}`; mds serves the `us` location. */
function checkLoc(loc: string): void {
  if (loc !== 'us') throw new ApiError('NOT_FOUND', `unknown location ${JSON.stringify(loc.slice(0, 20))}: this server serves us`);
}

export function alpacaRoutes(deps: ApiDeps) {
  const stockSingle = (request: Request, symbol: string, query: BarsQuery) => {
    const { bars, next_page_token } = barsOf(deps, accountOf(request), STOCKS, [symbol.toUpperCase()], query, true);
    return JSON.stringify({ bars: bars[symbol.toUpperCase()] ?? [], symbol: symbol.toUpperCase(), next_page_token });
  };
  return (
    new Elysia({ prefix: ALPACA_PREFIX })
      // Stocks (the SIP/IEX feeds are one consolidated mds line; `feed` is accepted and has no effect; `adjustment` is the native one).
      .get('/v2/stocks/bars', ({ query, request }) => JSON.stringify(barsOf(deps, accountOf(request), STOCKS, parseSymbols(query.symbols), query, false)), { query: BarsQuerySchema })
      .get('/v2/stocks/:symbol/bars', ({ params, query, request }) => stockSingle(request, params.symbol, query), { params: SymbolParams, query: BarsQuerySchema })
      .get('/v2/stocks/quotes/latest', ({ query, request }) => JSON.stringify({ quotes: latestOf(deps, accountOf(request), STOCKS, parseSymbols(query.symbols), quoteValue(deps, STOCKS)) }), { query: LatestQuery })
      .get('/v2/stocks/:symbol/quotes/latest', ({ params, request }) => JSON.stringify({ symbol: params.symbol.toUpperCase(), quote: latestOne(deps, accountOf(request), STOCKS, params.symbol.toUpperCase(), quoteValue(deps, STOCKS), 'NO_QUOTE') }), { params: SymbolParams, query: LatestQuery })
      .get('/v2/stocks/trades/latest', ({ query, request }) => JSON.stringify({ trades: latestOf(deps, accountOf(request), STOCKS, parseSymbols(query.symbols), tradeValue(deps, STOCKS)) }), { query: LatestQuery })
      .get('/v2/stocks/:symbol/trades/latest', ({ params, request }) => JSON.stringify({ symbol: params.symbol.toUpperCase(), trade: latestOne(deps, accountOf(request), STOCKS, params.symbol.toUpperCase(), tradeValue(deps, STOCKS), 'NO_TRADE') }), { params: SymbolParams, query: LatestQuery })
      .get('/v2/stocks/bars/latest', ({ query, request }) => JSON.stringify({ bars: latestOf(deps, accountOf(request), STOCKS, parseSymbols(query.symbols), barValue(deps)) }), { query: LatestQuery })
      .get('/v2/stocks/:symbol/bars/latest', ({ params, request }) => JSON.stringify({ symbol: params.symbol.toUpperCase(), bar: latestOne(deps, accountOf(request), STOCKS, params.symbol.toUpperCase(), barValue(deps), 'NO_BAR') }), { params: SymbolParams, query: LatestQuery })
      .get('/v2/stocks/snapshots', ({ query, request }) => JSON.stringify(latestOf(deps, accountOf(request), STOCKS, parseSymbols(query.symbols), snapshotValue(deps, STOCKS))), { query: LatestQuery })
      .get('/v2/stocks/:symbol/snapshot', ({ params, request }) => JSON.stringify({ symbol: params.symbol.toUpperCase(), ...latestOne(deps, accountOf(request), STOCKS, params.symbol.toUpperCase(), snapshotValue(deps, STOCKS), 'NO_SNAPSHOT') }), { params: SymbolParams, query: LatestQuery })
      .get('/v1/corporate-actions', ({ query, request }) => corporateActionsBody(deps, accountOf(request), query), { query: CorporateActionsQuery })
      // Crypto: symbols as `BTC/USD`, always lists keyed by the vendor symbol.
      .get('/v1beta3/crypto/:loc/bars', ({ params, query, request }) => (checkLoc(params.loc), JSON.stringify(barsOf(deps, accountOf(request), CRYPTO, parseSymbols(query.symbols), query, false))), { params: LocParams, query: BarsQuerySchema })
      .get('/v1beta3/crypto/:loc/latest/quotes', ({ params, query, request }) => (checkLoc(params.loc), JSON.stringify({ quotes: latestOf(deps, accountOf(request), CRYPTO, parseSymbols(query.symbols), quoteValue(deps, CRYPTO)) })), { params: LocParams, query: LatestQuery })
      .get('/v1beta3/crypto/:loc/latest/trades', ({ params, query, request }) => (checkLoc(params.loc), JSON.stringify({ trades: latestOf(deps, accountOf(request), CRYPTO, parseSymbols(query.symbols), tradeValue(deps, CRYPTO)) })), { params: LocParams, query: LatestQuery })
      .get('/v1beta3/crypto/:loc/latest/bars', ({ params, query, request }) => (checkLoc(params.loc), JSON.stringify({ bars: latestOf(deps, accountOf(request), CRYPTO, parseSymbols(query.symbols), barValue(deps)) })), { params: LocParams, query: LatestQuery })
      .get('/v1beta3/crypto/:loc/snapshots', ({ params, query, request }) => (checkLoc(params.loc), JSON.stringify({ snapshots: latestOf(deps, accountOf(request), CRYPTO, parseSymbols(query.symbols), snapshotValue(deps, CRYPTO)) })), { params: LocParams, query: LatestQuery })
      // The trading host's market hours, served on the same base path.
      .get('/v2/clock', () => clockBody(deps))
      .get('/v2/calendar', ({ query }) => calendarBody(deps, query), { query: CalendarQuery })
  );
}
