// The call matrix: every market data call of the Massive (10) and Polygon (8) SDKs, the Alpaca SDK
// 4's market data APIs (its own capability list) and the Alpaca SDK 3's REST calls, run unmodified
// against one real server. The result, call by call, is the generated section of
// docs/compatibility.md: the test fails when the file differs from this run (UPDATE_CALL_MATRIX=1
// rewrites it), and when a call the matrix runs fails.
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Alpaca, capabilities } from '@alpacahq/alpaca-trade-api';
import Alpaca3 from 'alpaca-trade-api-3';
import { DefaultApi as MassiveApi, restClient as massiveClient } from '@massive.com/client-js';
import { DefaultApi as PolygonApi, restClient as polygonClient } from '@polygon.io/client-js';
import { until } from '../support/cli.ts';
import { startServer, WEDNESDAY_US_OPEN, type TestServer } from '../support/server.ts';
import { massiveFamily, renderMatrix, WHY, withMatrix, type Call, type Section } from './call-matrix.ts';

const DOC = join(import.meta.dir, '../../docs/compatibility.md');
const [FROM, TO, DAY] = ['2026-03-02', '2026-03-04', '2026-03-03'];
/**
 * Tick history windows start at the simulator's clock start: the ring holds the ticks the feed has
 * made since (the history build writes bars only), so the window is inside the retention and has
 * ticks by the time the calls run. Indicators read the minute bars of DAY, a full session.
 */
const TICKS_FROM = WEDNESDAY_US_OPEN;

let server: TestServer;
/**
 * The tick lines the calls read: each has live ticks since TICKS_FROM (the window of the calls)
 * before they run. The history's head leaves one tick just before the clock's start, so any tick is not enough.
 */
const TICK_LINES = ['/crypto/trades/BTCUSD', '/crypto/trades/ETHUSD', '/crypto/quotes/BTCUSD', '/forex/quotes/EURUSD', '/stocks/trades/US:AAPL', '/stocks/trades/US:MSFT', '/stocks/quotes/US:AAPL'];
beforeAll(async () => {
  server = await startServer();
  for (const line of TICK_LINES) await until(async () => ((await server.json(`${line}?from=${Date.parse(TICKS_FROM)}`)).body.results?.length ?? 0) > 0, `live ticks on ${line}`);
}, 120_000);
afterAll(() => server.stop());

const run = (f: () => Promise<unknown>): Call => ({ run: f });
/** The list an answer carries, so an empty list reads as an empty answer rather than a full envelope. */
const results = (f: () => Promise<unknown>, pick: (body: any) => unknown): Call => run(async () => pick(await f()));
const why = (text: string): Call => ({ why: text });

/** Massive 10, object arguments. */
function massiveCalls(rest: ReturnType<typeof massiveClient>): Record<string, Call> {
  const r = rest as unknown as Record<string, (args?: unknown) => Promise<unknown>>;
  const call = (name: string, args?: unknown) => run(() => r[name]!.call(rest, args));
  const ticks = (name: string, args: object) => results(() => r[name]!.call(rest, { ...args, timestampGte: TICKS_FROM, order: 'asc', limit: 5 }), (b) => b.results);
  const indicator = (name: string, args: object) => results(() => r[name]!.call(rest, { ...args, timespan: 'minute', timestamp: DAY, limit: 5 }), (b) => b.results.values);
  const indicators = (cls: string, args: object) => Object.fromEntries(['SMA', 'EMA', 'RSI', 'MACD'].map((i) => [`get${cls}${i}`, indicator(`get${cls}${i}`, args)]));
  return {
    getStocksAggregates: call('getStocksAggregates', { stocksTicker: 'AAPL', multiplier: 1, timespan: 'day', from: FROM, to: TO }),
    getCryptoAggregates: call('getCryptoAggregates', { cryptoTicker: 'X:BTCUSD', multiplier: 1, timespan: 'hour', from: FROM, to: TO }),
    getForexAggregates: call('getForexAggregates', { forexTicker: 'C:EURUSD', multiplier: 1, timespan: 'hour', from: FROM, to: TO }),
    getIndicesAggregates: call('getIndicesAggregates', { indicesTicker: 'I:SPX', multiplier: 15, timespan: 'minute', from: DAY, to: DAY }),
    getPreviousStocksAggregates: call('getPreviousStocksAggregates', { stocksTicker: 'AAPL' }),
    getPreviousCryptoAggregates: call('getPreviousCryptoAggregates', { cryptoTicker: 'X:BTCUSD' }),
    getPreviousForexAggregates: call('getPreviousForexAggregates', { forexTicker: 'C:EURUSD' }),
    getPreviousIndicesAggregates: call('getPreviousIndicesAggregates', { indicesTicker: 'I:SPX' }),
    getGroupedStocksAggregates: call('getGroupedStocksAggregates', { date: DAY }),
    getGroupedCryptoAggregates: call('getGroupedCryptoAggregates', { date: DAY }),
    getGroupedForexAggregates: call('getGroupedForexAggregates', { date: DAY }),
    getLastStocksTrade: call('getLastStocksTrade', { stocksTicker: 'AAPL' }),
    getLastStocksQuote: call('getLastStocksQuote', { stocksTicker: 'AAPL' }),
    getLastCryptoTrade: call('getLastCryptoTrade', { from: 'BTC', to: 'USD' }),
    getLastCurrencyQuote: call('getLastCurrencyQuote', { from: 'EUR', to: 'USD' }),
    getStocksSnapshotTicker: call('getStocksSnapshotTicker', { stocksTicker: 'AAPL' }),
    getStocksSnapshotTickers: call('getStocksSnapshotTickers', { tickers: ['AAPL', 'MSFT'] }),
    getCryptoSnapshotTicker: call('getCryptoSnapshotTicker', { ticker: 'X:BTCUSD' }),
    getCryptoSnapshotTickers: call('getCryptoSnapshotTickers', { tickers: ['X:BTCUSD'] }),
    getForexSnapshotTicker: call('getForexSnapshotTicker', { ticker: 'C:EURUSD' }),
    getForexSnapshotTickers: call('getForexSnapshotTickers', { tickers: ['C:EURUSD'] }),
    getSnapshots: call('getSnapshots', { tickerAnyOf: 'AAPL,X:BTCUSD,C:EURUSD,I:SPX' }),
    getIndicesSnapshot: call('getIndicesSnapshot', { tickerAnyOf: 'I:SPX,I:NDX' }),
    getStocksOpenClose: call('getStocksOpenClose', { stocksTicker: 'AAPL', date: DAY }),
    getIndicesOpenClose: call('getIndicesOpenClose', { indicesTicker: 'I:SPX', date: DAY }),
    getCryptoOpenClose: call('getCryptoOpenClose', { from: 'BTC', to: 'USD', date: DAY }),
    getMarketStatus: call('getMarketStatus'),
    getMarketHolidays: call('getMarketHolidays'),
    listTickers: call('listTickers', { market: 'crypto', limit: 5 }),
    getTicker: call('getTicker', { ticker: 'AAPL' }),
    getStocksTrades: ticks('getStocksTrades', { stockTicker: 'AAPL' }),
    getStocksQuotes: ticks('getStocksQuotes', { stockTicker: 'AAPL' }),
    getCryptoTrades: ticks('getCryptoTrades', { cryptoTicker: 'X:BTCUSD' }),
    getForexQuotes: ticks('getForexQuotes', { fxTicker: 'C:EURUSD' }),
    ...indicators('Stocks', { stockTicker: 'AAPL' }),
    ...indicators('Crypto', { cryptoTicker: 'X:BTCUSD' }),
    ...indicators('Forex', { fxTicker: 'C:EURUSD' }),
    ...indicators('Indices', { indicesTicker: 'I:SPX' }),
  };
}

/** Polygon 8, positional arguments. */
function polygonCalls(rest: ReturnType<typeof polygonClient>): Record<string, Call> {
  const r = rest as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const call = (name: string, ...args: unknown[]) => run(() => r[name]!.apply(rest, args));
  const u = undefined;
  // (ticker, timestamp, timestamp.gte, .gt, .lte, .lt, order, limit)
  const ticks = (name: string, ticker: string) => results(() => r[name]!.call(rest, ticker, u, TICKS_FROM, u, u, u, 'asc', 5), (b) => b.results);
  // (ticker, timestamp, timespan, adjusted, windows, series_type, expand_underlying, order, limit): crypto's have no `adjusted`.
  const indicator = (name: string, ticker: string) => {
    const tail = name.startsWith('getCrypto') ? [] : [u];
    const windows = name.endsWith('MACD') ? [u, u, u] : [u];
    return results(() => r[name]!.call(rest, ticker, DAY, 'minute', ...tail, ...windows, u, u, u, 5), (b) => b.results.values);
  };
  const indicators = (cls: string, ticker: string) => Object.fromEntries(['SMA', 'EMA', 'RSI', 'MACD'].map((i) => [`get${cls}${i}`, indicator(`get${cls}${i}`, ticker)]));
  return {
    getStocksAggregates: call('getStocksAggregates', 'AAPL', 1, 'day', FROM, TO),
    getCryptoAggregates: call('getCryptoAggregates', 'X:BTCUSD', 1, 'hour', FROM, TO),
    getForexAggregates: call('getForexAggregates', 'C:EURUSD', 1, 'hour', FROM, TO),
    getIndicesAggregates: call('getIndicesAggregates', 'I:SPX', 15, 'minute', DAY, DAY),
    getPreviousStocksAggregates: call('getPreviousStocksAggregates', 'AAPL'),
    getPreviousCryptoAggregates: call('getPreviousCryptoAggregates', 'X:BTCUSD'),
    getPreviousForexAggregates: call('getPreviousForexAggregates', 'C:EURUSD'),
    getPreviousIndicesAggregates: call('getPreviousIndicesAggregates', 'I:SPX'),
    getGroupedStocksAggregates: call('getGroupedStocksAggregates', DAY),
    getGroupedCryptoAggregates: call('getGroupedCryptoAggregates', DAY),
    getGroupedForexAggregates: call('getGroupedForexAggregates', DAY),
    getLastStocksTrade: call('getLastStocksTrade', 'AAPL'),
    getLastStocksQuote: call('getLastStocksQuote', 'AAPL'),
    getLastCryptoTrade: call('getLastCryptoTrade', 'BTC', 'USD'),
    getLastCurrencyQuote: call('getLastCurrencyQuote', 'EUR', 'USD'),
    getStocksSnapshotTicker: call('getStocksSnapshotTicker', 'AAPL'),
    getStocksSnapshotTickers: call('getStocksSnapshotTickers', ['AAPL', 'MSFT']),
    getCryptoSnapshotTicker: call('getCryptoSnapshotTicker', 'X:BTCUSD'),
    getCryptoSnapshotTickers: call('getCryptoSnapshotTickers', ['X:BTCUSD']),
    getForexSnapshotTicker: call('getForexSnapshotTicker', 'C:EURUSD'),
    getForexSnapshotTickers: call('getForexSnapshotTickers', ['C:EURUSD']),
    getSnapshots: call('getSnapshots', u, u, u, u, u, u, 'AAPL,X:BTCUSD,C:EURUSD,I:SPX'),
    getIndicesSnapshot: call('getIndicesSnapshot', 'I:SPX,I:NDX'),
    getStocksOpenClose: call('getStocksOpenClose', 'AAPL', DAY),
    getIndicesOpenClose: call('getIndicesOpenClose', 'I:SPX', DAY),
    getCryptoOpenClose: call('getCryptoOpenClose', 'BTC', 'USD', DAY),
    getMarketStatus: call('getMarketStatus'),
    getMarketHolidays: call('getMarketHolidays'),
    listTickers: call('listTickers', u, u, 'crypto', u, u, u, u, u, u, u, u, u, u, u, 5),
    getTicker: call('getTicker', 'AAPL'),
    getStocksTrades: ticks('getStocksTrades', 'AAPL'),
    getStocksQuotes: ticks('getStocksQuotes', 'AAPL'),
    getCryptoTrades: ticks('getCryptoTrades', 'X:BTCUSD'),
    getForexQuotes: ticks('getForexQuotes', 'C:EURUSD'),
    ...indicators('Stocks', 'AAPL'),
    ...indicators('Crypto', 'X:BTCUSD'),
    ...indicators('Forex', 'C:EURUSD'),
    ...indicators('Indices', 'I:SPX'),
  };
}

/** Every method of a generated Massive/Polygon API class: run when the table has it, else its family's reason. */
function vendorSection(title: string, api: { prototype: object }, table: Record<string, Call>): Section {
  const names = Object.getOwnPropertyNames(api.prototype).filter((n) => n !== 'constructor');
  return { title, calls: names.map((n) => [n, table[n] ?? why(massiveFamily(n) ?? 'UNCLASSIFIED: add it to the matrix')]) };
}

/** Alpaca SDK 4: the market data APIs of its capability list, through the top-level client as documented. */
function alpaca4Section(alpaca: Alpaca): Section {
  const md = alpaca.marketData as unknown as Record<string, Record<string, (args: unknown) => Promise<unknown>>>;
  const start = new Date(`${FROM}T00:00:00Z`);
  const end = new Date(`${TO}T23:59:59Z`);
  const ticksFrom = new Date(TICKS_FROM);
  const table: Record<string, (() => Promise<unknown>) | string> = {
    stockBars: () => md.stocks!.stockBars!({ symbols: 'AAPL,MSFT', timeframe: '1Hour', start, end }),
    stockSnapshots: () => md.stocks!.stockSnapshots!({ symbols: 'AAPL,MSFT' }),
    stockLatestBars: () => md.stocks!.stockLatestBars!({ symbols: 'AAPL' }),
    stockLatestQuotes: () => md.stocks!.stockLatestQuotes!({ symbols: 'AAPL' }),
    stockLatestTrades: () => md.stocks!.stockLatestTrades!({ symbols: 'AAPL' }),
    stockTrades: () => md.stocks!.stockTrades!({ symbols: 'AAPL,MSFT', start: ticksFrom, limit: 10 }).then((r: any) => r.trades),
    stockQuotes: () => md.stocks!.stockQuotes!({ symbols: 'AAPL,MSFT', start: ticksFrom, limit: 10 }).then((r: any) => r.quotes),
    stockAuctions: WHY.auctions,
    stockMetaConditions: WHY.codes,
    stockMetaExchanges: WHY.codes,
    cryptoBars: () => md.crypto!.cryptoBars!({ loc: 'us', symbols: 'BTC/USD', timeframe: '15Min', start, end }),
    cryptoSnapshots: () => md.crypto!.cryptoSnapshots!({ loc: 'us', symbols: 'BTC/USD' }),
    cryptoLatestBars: () => md.crypto!.cryptoLatestBars!({ loc: 'us', symbols: 'BTC/USD' }),
    cryptoLatestQuotes: () => md.crypto!.cryptoLatestQuotes!({ loc: 'us', symbols: 'BTC/USD' }),
    cryptoLatestTrades: () => md.crypto!.cryptoLatestTrades!({ loc: 'us', symbols: 'BTC/USD' }),
    cryptoTrades: () => md.crypto!.cryptoTrades!({ loc: 'us', symbols: 'BTC/USD,ETH/USD', start: ticksFrom, limit: 10 }).then((r: any) => r.trades),
    cryptoQuotes: () => md.crypto!.cryptoQuotes!({ loc: 'us', symbols: 'BTC/USD', start: ticksFrom, limit: 10 }).then((r: any) => r.quotes),
    cryptoLatestOrderbooks: WHY.book,
  };
  const familyOf: Record<string, string> = {
    CryptoPerpetualFuturesApi: WHY.perps, FixedIncomeApi: WHY.fixedIncome, ForexApi: WHY.forexApi, IndexApi: WHY.indicesApi, LogosApi: WHY.logos,
    NewsApi: WHY.news, OptionApi: WHY.options, ScreenerApi: WHY.movers, CorporateActionsApi: WHY.corporate,
  };
  const calls: [string, Call][] = [];
  for (const cap of capabilities.capabilities.filter((c) => c.group === 'marketData')) {
    for (const m of cap.methods) {
      const entry = table[m] ?? familyOf[cap.api] ?? 'UNCLASSIFIED: add it to the matrix';
      calls.push([`${cap.accessor}.${m}`, typeof entry === 'string' ? why(entry) : run(entry)]);
    }
  }
  calls.push(['trading.clock.legacyClock', run(() => alpaca.trading.clock.legacyClock())]);
  calls.push(['trading.calendar.legacyCalendar', run(() => (alpaca.trading.calendar as unknown as { legacyCalendar(a: unknown): Promise<unknown> }).legacyCalendar({ start: new Date(`${FROM}T00:00:00Z`), end: new Date(`${TO}T00:00:00Z`) }))]);
  return { title: 'Alpaca SDK 4 (`@alpacahq/alpaca-trade-api` 4.0.2, top-level `Alpaca` client)', calls };
}

/** Alpaca SDK 3 REST (its stream needs wss: see the TLS docs). */
function alpaca3Section(a: any): Section {
  const collect = async (gen: AsyncIterable<unknown>) => {
    const out: unknown[] = [];
    for await (const x of gen) out.push(x);
    return out;
  };
  const bars = { start: `${FROM}T00:00:00Z`, end: `${TO}T23:59:59Z`, timeframe: '1Hour' };
  // A total limit, so the SDK's paging stops after one page instead of reading every retained tick.
  const ticks = () => ({ start: TICKS_FROM, limit: 10 });
  const entries: [string, Call][] = [
    ['getBarsV2', run(() => collect(a.getBarsV2('AAPL', bars)))],
    ['getMultiBarsV2', run(async () => [...(await a.getMultiBarsV2(['AAPL', 'MSFT'], bars)).entries()])],
    ['getMultiBarsAsyncV2', run(() => collect(a.getMultiBarsAsyncV2(['AAPL', 'MSFT'], bars)))],
    ['getTradesV2', run(() => collect(a.getTradesV2('AAPL', ticks())))],
    ['getMultiTradesV2', run(async () => [...(await a.getMultiTradesV2(['AAPL', 'MSFT'], ticks())).entries()])],
    ['getMultiTradesAsyncV2', run(() => collect(a.getMultiTradesAsyncV2(['AAPL', 'MSFT'], ticks())))],
    ['getQuotesV2', run(() => collect(a.getQuotesV2('AAPL', ticks())))],
    ['getMultiQuotesV2', run(async () => [...(await a.getMultiQuotesV2(['AAPL', 'MSFT'], ticks())).entries()])],
    ['getMultiQuotesAsyncV2', run(() => collect(a.getMultiQuotesAsyncV2(['AAPL', 'MSFT'], ticks())))],
    ['getLatestTrade', run(() => a.getLatestTrade('AAPL'))],
    ['getLatestTrades', run(async () => [...(await a.getLatestTrades(['AAPL', 'MSFT'])).entries()])],
    ['getLatestQuote', run(() => a.getLatestQuote('AAPL'))],
    ['getLatestQuotes', run(async () => [...(await a.getLatestQuotes(['AAPL', 'MSFT'])).entries()])],
    ['getLatestBar', run(() => a.getLatestBar('AAPL'))],
    ['getLatestBars', run(async () => [...(await a.getLatestBars(['AAPL', 'MSFT'])).entries()])],
    ['getSnapshot', run(() => a.getSnapshot('AAPL'))],
    ['getSnapshots', run(() => a.getSnapshots(['AAPL', 'MSFT']))],
    ['getCryptoBars', run(async () => [...(await a.getCryptoBars(['BTC/USD'], { ...bars, timeframe: '15Min' })).entries()])],
    ['getLatestCryptoTrades', run(async () => [...(await a.getLatestCryptoTrades(['BTC/USD'])).entries()])],
    ['getLatestCryptoQuotes', run(async () => [...(await a.getLatestCryptoQuotes(['BTC/USD'])).entries()])],
    ['getLatestCryptoBars', run(async () => [...(await a.getLatestCryptoBars(['BTC/USD'])).entries()])],
    ['getCryptoSnapshots', run(async () => [...(await a.getCryptoSnapshots(['BTC/USD'])).entries()])],
    ['getCryptoTrades', run(async () => [...(await a.getCryptoTrades(['BTC/USD', 'ETH/USD'], ticks())).entries()])],
    ['getCryptoQuotes', run(async () => [...(await a.getCryptoQuotes(['BTC/USD'], ticks())).entries()])],
    ['getCryptoOrderbooks', why(WHY.book)],
    ['getOptionBars', why(WHY.options)],
    ['getOptionTrades', why(WHY.options)],
    ['getOptionLatestTrades', why(WHY.options)],
    ['getOptionLatestQuotes', why(WHY.options)],
    ['getOptionSnapshots', why(WHY.options)],
    ['getOptionChain', why(WHY.options)],
    ['getCorporateActions', why(WHY.corporate)],
    ['getNews', why(WHY.news)],
    ['getClock', run(() => a.getClock())],
    ['getCalendar', run(() => a.getCalendar({ start: FROM, end: TO }))],
  ];
  return { title: 'Alpaca SDK 3 (`@alpacahq/alpaca-trade-api` 3.1.3, REST over http; its stream needs wss)', calls: entries };
}

/** A value worth calling an answer: something, not an empty list or object. */
function hasContent(v: unknown): boolean {
  if (v === null || v === undefined) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}

async function outcome(call: Call): Promise<string> {
  if ('why' in call) return `not supported: ${call.why}`;
  try {
    const value = await call.run();
    return hasContent(value) ? 'ok' : 'fails: empty answer';
  } catch (error) {
    const e = error as { response?: { status?: number }; message?: string };
    return `fails: ${e.response?.status ?? ''} ${String(e.message ?? error).slice(0, 120)}`.replace(/\|/g, '/');
  }
}

test('every listed SDK call: the matrix in docs/compatibility.md is this run', async () => {
  const massive = `${server.base}/compat/massive`;
  const alpacaBase = `${server.base}/compat/alpaca`;
  const alpaca4 = new Alpaca({ keyId: server.key, secret: 'unused', middleware: [{ pre: async ({ url, init }) => ({ url: url.replace(/^https:\/\/[^/]+/, alpacaBase), init }) }] });
  const alpaca3 = new (Alpaca3 as any)({ keyId: server.key, secretKey: 'unused', baseUrl: alpacaBase, dataBaseUrl: alpacaBase, paper: true });
  const sections: Section[] = [
    vendorSection('Massive SDK (`@massive.com/client-js` 10.8.0)', MassiveApi, massiveCalls(massiveClient(server.key, massive))),
    vendorSection('Polygon SDK (`@polygon.io/client-js` 8.2.0)', PolygonApi, polygonCalls(polygonClient(server.key, massive))),
    alpaca4Section(alpaca4),
    alpaca3Section(alpaca3),
  ];
  const rendered: { title: string; rows: [string, string][] }[] = [];
  for (const s of sections) {
    const rows: [string, string][] = [];
    for (const [name, call] of s.calls) rows.push([name, await outcome(call)]);
    rendered.push({ title: s.title, rows });
  }
  const matrix = renderMatrix(rendered);
  const bad = rendered.flatMap((s) => s.rows.filter(([, r]) => r.startsWith('fails') || r.includes('UNCLASSIFIED')).map(([n, r]) => `${s.title}: ${n}: ${r}`));
  expect(bad).toEqual([]);
  let file = readFileSync(DOC, 'utf8');
  const expected = withMatrix(file, matrix);
  // Rewritten only from a run in which every call the matrix makes answered.
  if (process.env.UPDATE_CALL_MATRIX === '1' && expected !== file) writeFileSync(DOC, (file = expected));
  expect(file).toBe(expected);
});
