// Route table rows of the compatibility routes (src/api/compat): the vendors' paths under /compat,
// their bodies and their own error bodies (`errorSchema`), documented and contract-tested like the
// native routes.
import * as CA from '../../domain/corporate-action-schemas.ts';
import { Type as T, type TObject, type TSchema } from '@sinclair/typebox';
import * as A from '../compat/alpaca/schemas.ts';
import * as M from '../compat/massive/schemas.ts';
import { statuses, type ErrorExample, type ErrorStatus, type RouteRow } from './row.ts';

const str = (description: string) => T.String({ description });
const optional = (names: Record<string, string>): TObject => T.Object(Object.fromEntries(Object.entries(names).map(([name, description]) => [name, T.Optional(str(description))])));

const MASSIVE_TAG = 'Massive compatibility';
const ALPACA_TAG = 'Alpaca compatibility';
const MASSIVE_ERRORS = statuses([400, 401, 403, 404, 429]);
const ALPACA_ERRORS = statuses([400, 401, 403, 404, 422, 429]);

const TICKER = T.Object({ ticker: str('vendor ticker: AAPL (US stock), X:BTCUSD (crypto), C:EURUSD (forex), I:SPX (index; I:<mds code> for the others)') });
const PAIR = T.Object({ from: str('base currency, e.g. BTC or EUR'), to: str('quote currency, e.g. USD') });
const DATE = T.Object({ date: T.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'UTC date YYYY-MM-DD' }) });
const KEY_QUERY = optional({ apiKey: 'the mds API key (or send Authorization: Bearer)' });
const ADJUSTED = optional({ adjusted: 'true or false; accepted and echoed (mds bars carry no split adjustments)', apiKey: 'the mds API key' });
const TICKERS = optional({ tickers: 'comma-separated (or repeated) vendor tickers; absent: every listed one', apiKey: 'the mds API key' });

interface Spec {
  path: string;
  operationId: string;
  summary: string;
  response: TSchema;
  params?: TObject;
  query?: TObject;
  examples: readonly [string, ...string[]];
  errorExample?: ErrorExample;
}

const row = (prefix: string, tag: string, errors: readonly ErrorStatus[], errorSchema: TSchema) => (s: Spec): RouteRow => ({
  method: 'GET',
  tag,
  errors,
  errorSchema,
  ...s,
  path: `${prefix}${s.path}`,
  examples: s.examples.map((e) => `${prefix}${e}`) as unknown as readonly [string, ...string[]],
  ...(s.errorExample ? { errorExample: { ...s.errorExample, path: `${prefix}${s.errorExample.path}` } } : {}),
});

const massive = row('/compat/massive', MASSIVE_TAG, MASSIVE_ERRORS, M.MassiveErrorSchema);
const alpaca = row('/compat/alpaca', ALPACA_TAG, ALPACA_ERRORS, A.AlpacaErrorSchema);

const massiveRows: RouteRow[] = [
  massive({
    path: '/v2/aggs/ticker/:ticker/range/:multiplier/:timespan/:from/:to',
    operationId: 'massiveAggregates',
    summary: 'aggregate bars of a window (the native range bars), oldest first by default, paged by next_url',
    params: T.Object({ ticker: TICKER.properties.ticker, multiplier: str('bar size multiplier'), timespan: str('minute, hour or day (1, 5, 15 minute; 1, 4 hour; 1 day)'), from: str('YYYY-MM-DD or Unix ms'), to: str('YYYY-MM-DD (whole day) or Unix ms (included)') }),
    query: optional({ adjusted: 'true (default: split-adjusted, as the vendor) or false (raw); echoed', sort: 'asc (default) or desc', limit: 'bars per page, 1 to 50000 (pages are cut at 5000)', cursor: 'from next_url', apiKey: 'the mds API key' }),
    response: M.MassiveAggsSchema,
    examples: ['/v2/aggs/ticker/AAPL/range/1/day/2026-03-02/2026-03-04', '/v2/aggs/ticker/X:BTCUSD/range/5/minute/2026-03-03/2026-03-03?sort=desc&limit=10'],
    errorExample: { path: '/v2/aggs/ticker/AAPL/range/1/fortnight/2026-03-02/2026-03-04', status: 400 },
  }),
  massive({ path: '/v2/aggs/ticker/:ticker/prev', operationId: 'massivePreviousClose', summary: "the previous day's bar (the native prev)", params: TICKER, query: ADJUSTED, response: M.MassiveAggsSchema, examples: ['/v2/aggs/ticker/AAPL/prev', '/v2/aggs/ticker/C:EURUSD/prev'], errorExample: { path: '/v2/aggs/ticker/AAPL/prev', status: 401, withoutKey: true } }),
  massive({ path: '/v2/aggs/grouped/locale/us/market/stocks/:date', operationId: 'massiveGroupedStocks', summary: 'the daily bar of a UTC date of every listed US stock', params: DATE, query: ADJUSTED, response: M.MassiveGroupedSchema, examples: ['/v2/aggs/grouped/locale/us/market/stocks/2026-03-03'], errorExample: { path: '/v2/aggs/grouped/locale/us/market/stocks/yesterday', status: 400 } }),
  massive({ path: '/v2/aggs/grouped/locale/global/market/crypto/:date', operationId: 'massiveGroupedCrypto', summary: 'the daily bar of a UTC date of every listed crypto pair', params: DATE, query: ADJUSTED, response: M.MassiveGroupedSchema, examples: ['/v2/aggs/grouped/locale/global/market/crypto/2026-03-03'] }),
  massive({ path: '/v2/aggs/grouped/locale/global/market/fx/:date', operationId: 'massiveGroupedForex', summary: 'the daily bar of a UTC date of every listed forex pair', params: DATE, query: ADJUSTED, response: M.MassiveGroupedSchema, examples: ['/v2/aggs/grouped/locale/global/market/fx/2026-03-03'] }),
  massive({ path: '/v2/last/trade/:ticker', operationId: 'massiveLastTrade', summary: 'last trade of a US stock (the native last trade; times in ns)', params: TICKER, query: KEY_QUERY, response: M.MassiveLastTradeSchema, examples: ['/v2/last/trade/AAPL'], errorExample: { path: '/v2/last/trade/NOPEXYZ', status: 404 } }),
  massive({ path: '/v2/last/nbbo/:ticker', operationId: 'massiveLastQuote', summary: 'consolidated quote of a US stock (the native quote; times in ns)', params: TICKER, query: KEY_QUERY, response: M.MassiveLastQuoteSchema, examples: ['/v2/last/nbbo/MSFT'], errorExample: { path: '/v2/last/nbbo/NOPEXYZ', status: 404 } }),
  massive({ path: '/v1/last/crypto/:from/:to', operationId: 'massiveLastCryptoTrade', summary: 'last trade of a crypto pair (times in ms)', params: PAIR, query: KEY_QUERY, response: M.MassiveLastCryptoSchema, examples: ['/v1/last/crypto/BTC/USD'], errorExample: { path: '/v1/last/crypto/NOPE/USD', status: 404 } }),
  massive({ path: '/v1/last_quote/currencies/:from/:to', operationId: 'massiveLastCurrencyQuote', summary: 'last quote of a forex pair (times in ms)', params: PAIR, query: KEY_QUERY, response: M.MassiveLastCurrencySchema, examples: ['/v1/last_quote/currencies/EUR/USD'], errorExample: { path: '/v1/last_quote/currencies/ABC/XYZ', status: 404 } }),
  massive({ path: '/v2/snapshot/locale/us/markets/stocks/tickers', operationId: 'massiveStockSnapshots', summary: 'snapshots of US stocks', query: TICKERS, response: M.MassiveSnapshotsSchema, examples: ['/v2/snapshot/locale/us/markets/stocks/tickers?tickers=AAPL,MSFT'] }),
  massive({ path: '/v2/snapshot/locale/us/markets/stocks/tickers/:ticker', operationId: 'massiveStockSnapshot', summary: 'snapshot of one US stock', params: TICKER, query: KEY_QUERY, response: M.MassiveSnapshotSchema, examples: ['/v2/snapshot/locale/us/markets/stocks/tickers/AAPL'], errorExample: { path: '/v2/snapshot/locale/us/markets/stocks/tickers/NOPEXYZ', status: 404 } }),
  massive({ path: '/v2/snapshot/locale/global/markets/crypto/tickers', operationId: 'massiveCryptoSnapshots', summary: 'snapshots of crypto pairs', query: TICKERS, response: M.MassiveSnapshotsSchema, examples: ['/v2/snapshot/locale/global/markets/crypto/tickers?tickers=X:BTCUSD'] }),
  massive({ path: '/v2/snapshot/locale/global/markets/crypto/tickers/:ticker', operationId: 'massiveCryptoSnapshot', summary: 'snapshot of one crypto pair', params: TICKER, query: KEY_QUERY, response: M.MassiveSnapshotSchema, examples: ['/v2/snapshot/locale/global/markets/crypto/tickers/X:ETHUSD'] }),
  massive({ path: '/v2/snapshot/locale/global/markets/forex/tickers', operationId: 'massiveForexSnapshots', summary: 'snapshots of forex pairs', query: TICKERS, response: M.MassiveSnapshotsSchema, examples: ['/v2/snapshot/locale/global/markets/forex/tickers?tickers=C:EURUSD,C:GBPUSD'] }),
  massive({ path: '/v2/snapshot/locale/global/markets/forex/tickers/:ticker', operationId: 'massiveForexSnapshot', summary: 'snapshot of one forex pair', params: TICKER, query: KEY_QUERY, response: M.MassiveSnapshotSchema, examples: ['/v2/snapshot/locale/global/markets/forex/tickers/C:EURUSD'] }),
  massive({ path: '/v1/marketstatus/now', operationId: 'massiveMarketStatus', summary: 'US exchanges (with extended hours), forex, crypto and index groups: open or closed now', query: KEY_QUERY, response: M.MassiveMarketStatusSchema, examples: ['/v1/marketstatus/now'] }),
  massive({ path: '/v1/marketstatus/upcoming', operationId: 'massiveUpcomingHolidays', summary: 'US closures and early closes of the coming year, per exchange', query: KEY_QUERY, response: M.MassiveUpcomingSchema, examples: ['/v1/marketstatus/upcoming'] }),
  massive({
    path: '/v3/reference/tickers',
    operationId: 'massiveTickers',
    summary: 'the listed tickers of the markets the key may read, by ticker, paged by next_url',
    query: optional({ ticker: 'exact ticker', type: 'ignored', market: 'stocks, crypto, fx or indices', exchange: 'ignored', search: 'part of the ticker or name', active: 'true (false lists nothing)', order: 'asc or desc', limit: '1 to 1000 (default 100)', sort: 'ticker', cursor: 'from next_url', apiKey: 'the mds API key' }),
    response: M.MassiveTickersSchema,
    examples: ['/v3/reference/tickers?market=crypto&limit=5', '/v3/reference/tickers?search=apple'],
    errorExample: { path: '/v3/reference/tickers?market=options', status: 400 },
  }),
  massive({
    path: '/v3/reference/tickers/:ticker',
    operationId: 'massiveTickerDetails',
    summary: 'what mds knows of a ticker: name, market, locale, type; for US stocks with the fundamentals add-on, primary exchange (MIC), market cap and shares outstanding',
    params: TICKER,
    query: optional({ date: 'accepted, no effect (mds describes the symbol as it is now)', apiKey: 'the mds API key' }),
    response: M.MassiveTickerDetailsSchema,
    examples: ['/v3/reference/tickers/AAPL', '/v3/reference/tickers/X:BTCUSD'],
    errorExample: { path: '/v3/reference/tickers/NOPEXYZ', status: 404 },
  }),
  massive({
    path: '/v1/open-close/:ticker/:date',
    operationId: 'massiveOpenClose',
    summary: "a session's open, high, low, close (and volume) of a US stock or an index: the native daily bar of the date",
    params: T.Object({ ticker: TICKER.properties.ticker, date: DATE.properties.date }),
    query: ADJUSTED,
    response: M.MassiveOpenCloseSchema,
    examples: ['/v1/open-close/AAPL/2026-03-03', '/v1/open-close/I:SPX/2026-03-03'],
    errorExample: { path: '/v1/open-close/AAPL/2026-03-01', status: 404 },
  }),
  massive({
    path: '/v1/open-close/crypto/:from/:to/:date',
    operationId: 'massiveCryptoOpenClose',
    summary: "a crypto pair's UTC day open and close (the native daily bar; no trade lists)",
    params: T.Object({ ...PAIR.properties, date: DATE.properties.date }),
    query: ADJUSTED,
    response: M.MassiveCryptoOpenCloseSchema,
    examples: ['/v1/open-close/crypto/BTC/USD/2026-03-03'],
  }),
  massive({
    path: '/v3/snapshot',
    operationId: 'massiveUniversalSnapshot',
    summary: 'snapshots of any class: the tickers of ticker.any_of in the order given (unknown ones as error items), else every listed ticker of type, by ticker, paged by next_url',
    query: optional({
      'ticker.any_of': 'comma-separated vendor tickers (at most 250)', ticker: 'one vendor ticker', 'ticker.gte': 'listing bound', 'ticker.gt': 'listing bound', 'ticker.lte': 'listing bound', 'ticker.lt': 'listing bound',
      type: 'stocks, crypto, fx, indices (options: none)', order: 'asc or desc', limit: '1 to 250 (default 10)', sort: 'ticker', cursor: 'from next_url', apiKey: 'the mds API key',
    }),
    response: M.MassiveSnapshotV3Schema,
    examples: ['/v3/snapshot?ticker.any_of=AAPL,X:BTCUSD,C:EURUSD,I:SPX', '/v3/snapshot?type=crypto&limit=5'],
    errorExample: { path: '/v3/snapshot?type=bonds', status: 400 },
  }),
  massive({
    path: '/v3/snapshot/indices',
    operationId: 'massiveIndicesSnapshot',
    summary: 'snapshots of indices (value, session, market status), by ticker.any_of or every listed index, paged by next_url',
    query: optional({ 'ticker.any_of': 'comma-separated index tickers (I:SPX)', ticker: 'one index ticker', 'ticker.gte': 'listing bound', 'ticker.gt': 'listing bound', 'ticker.lte': 'listing bound', 'ticker.lt': 'listing bound', order: 'asc or desc', limit: '1 to 250 (default 10)', sort: 'ticker', cursor: 'from next_url', apiKey: 'the mds API key' }),
    response: M.MassiveSnapshotV3Schema,
    examples: ['/v3/snapshot/indices?ticker.any_of=I:SPX,I:NDX'],
  }),
];

const SYMBOL = T.Object({ symbol: str('US stock symbol, e.g. AAPL') });
const LOC = T.Object({ loc: str('us') });
const BARS_QUERY = optional({
  symbols: 'comma-separated symbols (stocks AAPL, crypto BTC/USD)', timeframe: '1Min, 5Min, 15Min, 1Hour, 4Hour or 1Day', start: 'RFC 3339 or YYYY-MM-DD (default: start of today, UTC)', end: 'RFC 3339 or YYYY-MM-DD (default: now)',
  limit: 'bars per page across symbols, 1 to 10000 (default 1000)', page_token: 'from next_page_token', adjustment: 'stocks: raw (default), split, dividend or all (as the native adjustment); crypto: no effect', asof: 'accepted, no effect', feed: 'accepted, no effect (one consolidated line)', currency: 'accepted, no effect', sort: 'asc (default) or desc',
});
const SINGLE_BARS_QUERY = T.Object(Object.fromEntries(Object.entries(BARS_QUERY.properties).filter(([k]) => k !== 'symbols')));
const LATEST_QUERY = optional({ symbols: 'comma-separated symbols', feed: 'accepted, no effect', currency: 'accepted, no effect' });
const SINGLE_LATEST_QUERY = optional({ feed: 'accepted, no effect', currency: 'accepted, no effect' });

const alpacaRows: RouteRow[] = [
  alpaca({ path: '/v2/stocks/bars', operationId: 'alpacaStockBars', summary: 'bars of US stocks over a window (the native range bars), `limit` across symbols', query: BARS_QUERY, response: A.AlpacaBarsSchema, examples: ['/v2/stocks/bars?symbols=AAPL,MSFT&timeframe=1Hour&start=2026-03-03&end=2026-03-03'], errorExample: { path: '/v2/stocks/bars?symbols=AAPL&timeframe=1Fortnight', status: 422 } }),
  alpaca({ path: '/v2/stocks/:symbol/bars', operationId: 'alpacaStockBarsSingle', summary: 'bars of one US stock over a window', params: SYMBOL, query: SINGLE_BARS_QUERY, response: A.AlpacaBarsSingleSchema, examples: ['/v2/stocks/AAPL/bars?timeframe=1Day&start=2026-03-01'], errorExample: { path: '/v2/stocks/AAPL/bars?timeframe=1Day', status: 401, withoutKey: true } }),
  alpaca({ path: '/v2/stocks/quotes/latest', operationId: 'alpacaStockLatestQuotes', summary: 'latest quotes of US stocks (the native quotes)', query: LATEST_QUERY, response: A.AlpacaStockQuotesSchema, examples: ['/v2/stocks/quotes/latest?symbols=AAPL,MSFT'], errorExample: { path: '/v2/stocks/quotes/latest', status: 400 } }),
  alpaca({ path: '/v2/stocks/:symbol/quotes/latest', operationId: 'alpacaStockLatestQuote', summary: 'latest quote of one US stock', params: SYMBOL, query: SINGLE_LATEST_QUERY, response: A.AlpacaStockQuoteSingleSchema, examples: ['/v2/stocks/AAPL/quotes/latest'], errorExample: { path: '/v2/stocks/NOPEXYZ/quotes/latest', status: 404 } }),
  alpaca({ path: '/v2/stocks/trades/latest', operationId: 'alpacaStockLatestTrades', summary: 'latest trades of US stocks (the native last trades)', query: LATEST_QUERY, response: A.AlpacaStockTradesSchema, examples: ['/v2/stocks/trades/latest?symbols=AAPL'] }),
  alpaca({ path: '/v2/stocks/:symbol/trades/latest', operationId: 'alpacaStockLatestTrade', summary: 'latest trade of one US stock', params: SYMBOL, query: SINGLE_LATEST_QUERY, response: A.AlpacaStockTradeSingleSchema, examples: ['/v2/stocks/MSFT/trades/latest'], errorExample: { path: '/v2/stocks/AA$PL/trades/latest', status: 400 } }),
  alpaca({ path: '/v2/stocks/bars/latest', operationId: 'alpacaStockLatestBars', summary: 'latest minute bars of US stocks (the native prev with interval=1m)', query: LATEST_QUERY, response: A.AlpacaLatestBarsSchema, examples: ['/v2/stocks/bars/latest?symbols=AAPL,MSFT'] }),
  alpaca({ path: '/v2/stocks/:symbol/bars/latest', operationId: 'alpacaStockLatestBar', summary: 'latest minute bar of one US stock', params: SYMBOL, query: SINGLE_LATEST_QUERY, response: A.AlpacaLatestBarSingleSchema, examples: ['/v2/stocks/AAPL/bars/latest'] }),
  alpaca({ path: '/v2/stocks/snapshots', operationId: 'alpacaStockSnapshots', summary: 'snapshots of US stocks, keyed by symbol', query: LATEST_QUERY, response: A.AlpacaStockSnapshotsSchema, examples: ['/v2/stocks/snapshots?symbols=AAPL,MSFT'] }),
  alpaca({ path: '/v2/stocks/:symbol/snapshot', operationId: 'alpacaStockSnapshot', summary: 'snapshot of one US stock', params: SYMBOL, query: SINGLE_LATEST_QUERY, response: A.AlpacaStockSnapshotSingleSchema, examples: ['/v2/stocks/AAPL/snapshot'] }),
  alpaca({ path: '/v1beta3/crypto/:loc/bars', operationId: 'alpacaCryptoBars', summary: 'bars of crypto pairs over a window, keyed by BTC/USD-style symbols', params: LOC, query: BARS_QUERY, response: A.AlpacaBarsSchema, examples: ['/v1beta3/crypto/us/bars?symbols=BTC/USD&timeframe=15Min&start=2026-03-03&end=2026-03-03'], errorExample: { path: '/v1beta3/crypto/eu/bars?symbols=BTC/USD&timeframe=1Day', status: 404 } }),
  alpaca({ path: '/v1beta3/crypto/:loc/latest/quotes', operationId: 'alpacaCryptoLatestQuotes', summary: 'latest quotes of crypto pairs', params: LOC, query: LATEST_QUERY, response: A.AlpacaCryptoQuotesSchema, examples: ['/v1beta3/crypto/us/latest/quotes?symbols=BTC/USD,ETH/USD'] }),
  alpaca({ path: '/v1beta3/crypto/:loc/latest/trades', operationId: 'alpacaCryptoLatestTrades', summary: 'latest trades of crypto pairs', params: LOC, query: LATEST_QUERY, response: A.AlpacaCryptoTradesSchema, examples: ['/v1beta3/crypto/us/latest/trades?symbols=BTC/USD'] }),
  alpaca({ path: '/v1beta3/crypto/:loc/latest/bars', operationId: 'alpacaCryptoLatestBars', summary: 'latest minute bars of crypto pairs', params: LOC, query: LATEST_QUERY, response: A.AlpacaLatestBarsSchema, examples: ['/v1beta3/crypto/us/latest/bars?symbols=BTC/USD'] }),
  alpaca({ path: '/v1beta3/crypto/:loc/snapshots', operationId: 'alpacaCryptoSnapshots', summary: 'snapshots of crypto pairs', params: LOC, query: LATEST_QUERY, response: A.AlpacaCryptoSnapshotsSchema, examples: ['/v1beta3/crypto/us/snapshots?symbols=BTC/USD'] }),
  alpaca({ path: '/v2/clock', operationId: 'alpacaClock', summary: 'the US market clock (trading host route, same base path)', response: A.AlpacaClockSchema, examples: ['/v2/clock'] }),
  alpaca({ path: '/v2/calendar', operationId: 'alpacaCalendar', summary: 'US trading days with their hours (trading host route, same base path)', query: optional({ start: 'YYYY-MM-DD or RFC 3339 (its date as written)', end: 'same; default a year after start', date_type: 'accepted, no effect' }), response: A.AlpacaCalendarSchema, examples: ['/v2/calendar?start=2026-03-01&end=2026-03-31'], errorExample: { path: '/v2/calendar?start=March', status: 400 } }),
];

/** Corporate actions in the vendors' reference routes (issue 32). */
const REFERENCE_PAGING = { order: 'asc or desc (default)', limit: '1 to 1000 (default 10)', cursor: 'from next_url', apiKey: 'the mds API key' };
const dated = (field: string) => Object.fromEntries(['', '.gt', '.gte', '.lt', '.lte'].map((s) => [`${field}${s}`, `${s === '' ? 'exactly' : s.slice(1)} YYYY-MM-DD`]));
const corporateActionRows: RouteRow[] = [
  massive({
    path: '/v3/reference/splits',
    operationId: 'massiveSplits',
    summary: 'stock splits imported with mds import splits, filtered and paged by next_url',
    query: optional({ ticker: 'exact ticker', ...dated('execution_date'), reverse_split: 'true or false', sort: 'execution_date (default) or ticker', ...REFERENCE_PAGING }),
    response: CA.MassiveSplitsSchema,
    examples: ['/v3/reference/splits?ticker=AAPL', '/v3/reference/splits?execution_date.gte=2020-01-01&order=asc&limit=5'],
    errorExample: { path: '/v3/reference/splits?execution_date.gte=2020-13-01', status: 400 },
  }),
  massive({
    path: '/v3/reference/dividends',
    operationId: 'massiveDividends',
    summary: 'cash dividends imported with mds import dividends, filtered and paged by next_url',
    query: optional({
      ticker: 'exact ticker', ...dated('ex_dividend_date'), ...dated('record_date'), ...dated('declaration_date'), ...dated('pay_date'), cash_amount: 'ignored', frequency: '0, 1, 2, 4, 12, 24 or 52', dividend_type: 'CD, SC, LT or ST',
      sort: 'ex_dividend_date (default), pay_date, declaration_date, record_date, cash_amount or ticker', ...REFERENCE_PAGING,
    }),
    response: CA.MassiveDividendsSchema,
    examples: ['/v3/reference/dividends?ticker=AAPL', '/v3/reference/dividends?ex_dividend_date.gte=2020-01-01&limit=5'],
    errorExample: { path: '/v3/reference/dividends?limit=5000', status: 400 },
  }),
  alpaca({
    path: '/v1/corporate-actions',
    operationId: 'alpacaCorporateActions',
    summary: 'forward and reverse splits and cash dividends of US stocks with an ex-date in [start, end] (SDK 4 marketData.corporateActions)',
    query: optional({ symbols: 'comma-separated symbols', types: 'forward_split, reverse_split, cash_dividend (default all)', start: 'YYYY-MM-DD (default today, UTC)', end: 'YYYY-MM-DD (default today, UTC)', limit: '1 to 1000 (default 100)', page_token: 'from next_page_token', sort: 'asc (default) or desc', cusips: 'ignored', ids: 'ignored', region: 'ignored' }),
    response: CA.AlpacaCorporateActionsSchema,
    examples: ['/v1/corporate-actions?symbols=AAPL&start=2020-01-01&end=2020-12-31'],
    errorExample: { path: '/v1/corporate-actions?types=merger', status: 400 },
  }),
];

export const compatRows: RouteRow[] = [...massiveRows, ...alpacaRows, ...corporateActionRows];
