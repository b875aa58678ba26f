// The Alpaca-compatible tick history routes, a group of their own beside alpaca/routes.ts:
// historical trades and quotes of US stocks (one or many) and of crypto pairs (alpaca/ticks.ts).
import { Elysia, t } from 'elysia';
import { ApiError } from '../../../domain/errors.ts';
import type { TickKind } from '../../../domain/tick-history.ts';
import type { ApiDeps } from '../../deps.ts';
import { accountOf } from '../../plugins/gate.ts';
import { ALPACA_PREFIX } from './dialect.ts';
import { CRYPTO, STOCKS } from './market-data.ts';
import { parseSymbols } from './params.ts';
import { ticksOf, type TickHistoryQuery } from './ticks.ts';

const opt = () => t.Optional(t.String());
const SymbolParams = t.Object({ symbol: t.String() });
const LocParams = t.Object({ loc: t.String() });
const TickQuery = t.Object({ symbols: opt(), start: opt(), end: opt(), limit: opt(), page_token: opt(), sort: opt(), feed: opt(), asof: opt(), currency: opt() });

const KEY: Record<TickKind, 'trades' | 'quotes'> = { trade: 'trades', quote: 'quotes' };

/** Crypto lives under `/v1beta3/crypto/{loc}`; mds serves the `us` location. */
function checkLoc(loc: string): void {
  if (loc !== 'us') throw new ApiError('NOT_FOUND', `unknown location ${JSON.stringify(loc.slice(0, 20))}: this server serves us`);
}

export function alpacaTickRoutes(deps: ApiDeps) {
  const single = (kind: TickKind) => ({ params, query, request }: { params: { symbol: string }; query: TickHistoryQuery; request: Request }) => {
    const symbol = params.symbol.toUpperCase();
    const { ticks, next_page_token } = ticksOf(deps, accountOf(request), STOCKS, kind, [symbol], query, true);
    return JSON.stringify({ [KEY[kind]]: ticks[symbol] ?? [], symbol, next_page_token });
  };
  const many = (kind: TickKind) => ({ query, request }: { query: TickHistoryQuery & { symbols?: string }; request: Request }) => {
    const { ticks, next_page_token } = ticksOf(deps, accountOf(request), STOCKS, kind, parseSymbols(query.symbols), query, false);
    return JSON.stringify({ [KEY[kind]]: ticks, next_page_token });
  };
  const crypto = (kind: TickKind) => ({ params, query, request }: { params: { loc: string }; query: TickHistoryQuery & { symbols?: string }; request: Request }) => {
    checkLoc(params.loc);
    const { ticks, next_page_token } = ticksOf(deps, accountOf(request), CRYPTO, kind, parseSymbols(query.symbols), query, false);
    return JSON.stringify({ [KEY[kind]]: ticks, next_page_token });
  };
  return new Elysia({ prefix: ALPACA_PREFIX })
    .get('/v2/stocks/trades', many('trade'), { query: TickQuery })
    .get('/v2/stocks/quotes', many('quote'), { query: TickQuery })
    .get('/v2/stocks/:symbol/trades', single('trade'), { params: SymbolParams, query: TickQuery })
    .get('/v2/stocks/:symbol/quotes', single('quote'), { params: SymbolParams, query: TickQuery })
    .get('/v1beta3/crypto/:loc/trades', crypto('trade'), { params: LocParams, query: TickQuery })
    .get('/v1beta3/crypto/:loc/quotes', crypto('quote'), { params: LocParams, query: TickQuery });
}
