// Route table rows of the vendors' tick history routes (src/api/compat/*/tick-routes.ts): Massive
// v3 trades and quotes, Alpaca historical trades and quotes of stocks and crypto. Each answers the
// native 422 (in its vendor's error body) for a window before the retained ticks.
import { Type as T, type TObject } from '@sinclair/typebox';
import { AlpacaErrorSchema } from '../compat/alpaca/schemas.ts';
import * as A from '../compat/alpaca/tick-schemas.ts';
import { MassiveErrorSchema } from '../compat/massive/schemas.ts';
import { MassiveQuotesSchema, MassiveTradesSchema } from '../compat/massive/tick-schemas.ts';
import { statuses, type RouteRow } from './row.ts';

const str = (description: string) => T.String({ description });
const optional = (names: Record<string, string>): TObject => T.Object(Object.fromEntries(Object.entries(names).map(([name, description]) => [name, T.Optional(str(description))])));

const MASSIVE = '/compat/massive';
const ALPACA = '/compat/alpaca';
const TIME = 'a date YYYY-MM-DD (its whole UTC day), nanoseconds (16 digits or more), Unix ms or an RFC 3339 instant';
const MASSIVE_QUERY = optional({
  timestamp: `exactly: ${TIME}`, 'timestamp.gte': `at or after: ${TIME}`, 'timestamp.gt': `after: ${TIME}`, 'timestamp.lte': `at or before: ${TIME}`, 'timestamp.lt': `before: ${TIME}`,
  order: 'desc (default, newest first) or asc', limit: 'ticks per page, 1 to 50000 (default 1000; pages are cut at 5000)', sort: 'timestamp', cursor: 'from next_url', apiKey: 'the mds API key',
});
const TICKER = T.Object({ ticker: str('vendor ticker: AAPL (US stock), X:BTCUSD (crypto), C:EURUSD (forex), I:SPX (index)') });
const ALPACA_QUERY = {
  start: 'RFC 3339 or YYYY-MM-DD (default: the oldest retained tick)', end: 'RFC 3339 or YYYY-MM-DD, included (default: the newest)', limit: 'ticks per page across symbols, 1 to 10000 (default 1000)',
  page_token: 'from next_page_token', sort: 'asc (default) or desc', feed: 'accepted, no effect (one consolidated line)', asof: 'accepted, no effect', currency: 'accepted, no effect',
};
const SINGLE_QUERY = optional(ALPACA_QUERY);
const MULTI_QUERY = optional({ symbols: 'comma-separated symbols (stocks AAPL, crypto BTC/USD)', ...ALPACA_QUERY });

const massive = (kind: 'trades' | 'quotes'): RouteRow => ({
  method: 'GET',
  path: `${MASSIVE}/v3/${kind}/:ticker`,
  operationId: `massive${kind === 'trades' ? 'Trades' : 'Quotes'}`,
  summary: `${kind} of a ticker from the ticks the store retains (the native /{class}/${kind}), newest first by default, paged by next_url; a window before the oldest retained one is a 422`,
  tag: 'Massive compatibility',
  params: TICKER,
  query: MASSIVE_QUERY,
  response: kind === 'trades' ? MassiveTradesSchema : MassiveQuotesSchema,
  errors: statuses([400, 401, 403, 404, 422, 429]),
  errorSchema: MassiveErrorSchema,
  examples: [`${MASSIVE}/v3/${kind}/X:BTCUSD?limit=5`, `${MASSIVE}/v3/${kind}/AAPL?order=asc&limit=3`],
  errorExample: { path: `${MASSIVE}/v3/${kind}/X:BTCUSD?timestamp.gte=2000-01-03`, status: 422 },
});

const alpaca = (path: string, operationId: string, summary: string, response: RouteRow['response'], query: TObject, example: string, errorExample: RouteRow['errorExample'], params?: TObject): RouteRow => ({
  method: 'GET',
  path: `${ALPACA}${path}`,
  operationId,
  summary,
  tag: 'Alpaca compatibility',
  ...(params ? { params } : {}),
  query,
  response,
  errors: statuses([400, 401, 403, 404, 422, 429]),
  errorSchema: AlpacaErrorSchema,
  examples: [`${ALPACA}${example}`],
  ...(errorExample ? { errorExample: { ...errorExample, path: `${ALPACA}${errorExample.path}` } } : {}),
});

const SYMBOL = T.Object({ symbol: str('US stock symbol, e.g. AAPL') });
const LOC = T.Object({ loc: str('us') });

export const tickCompatRows: RouteRow[] = [
  massive('trades'),
  massive('quotes'),
  alpaca('/v2/stocks/trades', 'alpacaStockTrades', 'historical trades of US stocks from the retained ticks, `limit` across symbols', A.AlpacaStockTradesHistorySchema, MULTI_QUERY, '/v2/stocks/trades?symbols=AAPL,MSFT&limit=5', { path: '/v2/stocks/trades', status: 400 }),
  alpaca('/v2/stocks/quotes', 'alpacaStockQuotes', 'historical quotes of US stocks from the retained ticks, `limit` across symbols', A.AlpacaStockQuotesHistorySchema, MULTI_QUERY, '/v2/stocks/quotes?symbols=AAPL&limit=5', { path: '/v2/stocks/quotes?symbols=AAPL&start=2000-01-03', status: 422 }),
  alpaca('/v2/stocks/:symbol/trades', 'alpacaStockTradesSingle', 'historical trades of one US stock', A.AlpacaStockTradesSingleSchema, SINGLE_QUERY, '/v2/stocks/AAPL/trades?limit=5', { path: '/v2/stocks/AAPL/trades?start=2000-01-03', status: 422 }, SYMBOL),
  alpaca('/v2/stocks/:symbol/quotes', 'alpacaStockQuotesSingle', 'historical quotes of one US stock', A.AlpacaStockQuotesSingleSchema, SINGLE_QUERY, '/v2/stocks/AAPL/quotes?limit=5&sort=desc', { path: '/v2/stocks/NOPEXYZ/quotes', status: 404 }, SYMBOL),
  alpaca('/v1beta3/crypto/:loc/trades', 'alpacaCryptoTrades', 'historical trades of crypto pairs, keyed by BTC/USD-style symbols', A.AlpacaCryptoTradesHistorySchema, MULTI_QUERY, '/v1beta3/crypto/us/trades?symbols=BTC/USD,ETH/USD&limit=5', { path: '/v1beta3/crypto/eu/trades?symbols=BTC/USD', status: 404 }, LOC),
  alpaca('/v1beta3/crypto/:loc/quotes', 'alpacaCryptoQuotes', 'historical quotes of crypto pairs', A.AlpacaCryptoQuotesHistorySchema, MULTI_QUERY, '/v1beta3/crypto/us/quotes?symbols=BTC/USD&limit=5', { path: '/v1beta3/crypto/us/quotes?symbols=BTC/USD&limit=0', status: 400 }, LOC),
];
