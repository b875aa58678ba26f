// Tick history through the official SDKs, unmodified, against a real mds: Massive 10 and Polygon 8
// (`/v3/trades`, `/v3/quotes`, with next_url pagination) and Alpaca 4 (historical stock and crypto
// trades and quotes, with page tokens). The data dir is seeded with known ticks (more AAPL trades
// than the ring keeps) and served without a feed, so every answer is exact and stays put.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  GetCryptoTradesOrderEnum, GetStocksQuotesOrderEnum, GetStocksTradesOrderEnum, restClient as massiveClient,
} from '@massive.com/client-js';
import { GetStocksTradesOrderEnum as PolygonOrder, restClient as polygonClient } from '@polygon.io/client-js';
import { marketData, pagination } from '@alpacahq/alpaca-trade-api';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const RING = 256;
const T0 = Date.UTC(2026, 3 - 1, 4, 14, 30);
/** Tick n (from 1) of a symbol: `offset` ms into second n after T0. */
const at = (n: number, offset: number) => T0 + n * 1000 + offset;
const AAPL_TRADES = 400;

let dir: TempDir;
let server: TestServer;
let massive: ReturnType<typeof massiveClient>;
let polygon: ReturnType<typeof polygonClient>;
let stocks: marketData.StockApi;
let crypto: marketData.CryptoApi;

beforeAll(async () => {
  dir = tempDir();
  const store = Store.open({ dataDir: dir.path, ringCapacity: RING });
  seedRegistry(store, CATALOG);
  const id = (cls: 'stocks' | 'crypto' | 'forex', symbol: string) => store.registry.resolve(cls, symbol)!.id;
  for (let n = 1; n <= AAPL_TRADES; n++) store.appendTrade(id('stocks', 'US:AAPL'), at(n, 0), 180 + n / 100, n);
  for (let n = 1; n <= 50; n++) store.appendTrade(id('stocks', 'US:MSFT'), at(n, 100), 400 + n / 100, 10 * n);
  for (let n = 1; n <= 100; n++) store.appendQuote(id('stocks', 'US:AAPL'), at(n, 200), 180 + n / 100, 180.05 + n / 100, 100 + n, 200 + n);
  for (let n = 1; n <= 120; n++) store.appendTrade(id('crypto', 'BTCUSD'), at(n, 300), 60_000 + n, n / 1000);
  for (let n = 1; n <= 30; n++) store.appendTrade(id('crypto', 'ETHUSD'), at(n, 400), 3000 + n, n / 100);
  for (let n = 1; n <= 60; n++) store.appendQuote(id('crypto', 'BTCUSD'), at(n, 500), 60_000 + n, 60_001 + n, 1, 2);
  for (let n = 1; n <= 40; n++) store.appendQuote(id('forex', 'EURUSD'), at(n, 600), 1.08 + n / 10_000, 1.0801 + n / 10_000, null, null);
  await store.flush();
  await store.close();
  server = await startServer({ dataDir: dir.path, args: ['--feed', 'none', '--ring-capacity', String(RING)], waitForHistory: false });
  const base = `${server.base}/compat/massive`;
  massive = massiveClient(server.key, base);
  polygon = polygonClient(server.key, base);
  const basePath = `${server.base}/compat/alpaca`;
  stocks = new marketData.StockApi(new marketData.Configuration({ keyId: server.key, secret: 'unused', basePath }));
  // The vendor's crypto data needs no key, so its Api classes send none: the documented `headers` option adds it.
  crypto = new marketData.CryptoApi(new marketData.Configuration({ basePath, headers: { 'APCA-API-KEY-ID': server.key } }));
});

afterAll(async () => {
  await server?.stop();
  dir?.[Symbol.dispose]();
});

type NativeTrade = { timestamp: number; price: number; size: number | null; seq: number };
type NativeQuote = { timestamp: number; bid: number; ask: number; bid_size: number | null; ask_size: number | null; seq: number };

/** Every retained tick of the native route, oldest first. */
async function native<T>(path: string): Promise<T[]> {
  const { status, body } = await server.json(`${path}?sort=asc&limit=5000`);
  expect(status).toBe(200);
  expect(body.next_cursor).toBeNull();
  return body.results;
}

const ns = (ms: number) => ms * 1_000_000;
const massiveTrade = (t: NativeTrade) => ({ price: t.price, size: t.size ?? 0, sequence_number: t.seq, sip_timestamp: ns(t.timestamp), participant_timestamp: ns(t.timestamp) });
const massiveQuote = (q: NativeQuote) => ({ bid_price: q.bid, ask_price: q.ask, bid_size: q.bid_size ?? 0, ask_size: q.ask_size ?? 0, sequence_number: q.seq, sip_timestamp: ns(q.timestamp) });
const pick = <T extends object>(shape: T, value: object) => Object.fromEntries(Object.keys(shape).map((k) => [k, (value as Record<string, unknown>)[k]]));

describe('Massive SDK 10: /v3/trades and /v3/quotes', () => {
  test('getStocksTrades: the retained trades in the vendor shape, newest first by default, next_url on this server', async () => {
    const trades = await native<NativeTrade>('/stocks/trades/US:AAPL');
    expect(trades.length).toBe(RING);
    expect(trades[0]!.seq).toBe(AAPL_TRADES - RING + 1);
    const res = await massive.getStocksTrades({ stockTicker: 'AAPL', limit: 10 });
    expect(res.status).toBe('OK');
    expect(res.results!.map((r) => pick(massiveTrade(trades[0]!), r))).toEqual(trades.slice(-10).reverse().map(massiveTrade));
    expect(res.results![0]).toMatchObject({ exchange: 0, conditions: [], id: String(AAPL_TRADES), decimal_size: String(AAPL_TRADES) });
    expect(res.next_url).toStartWith(`${server.base}/compat/massive/v3/trades/AAPL?cursor=`);
  });

  test('with pagination on, the SDK follows next_url through every retained trade', async () => {
    const trades = await native<NativeTrade>('/stocks/trades/US:AAPL');
    const paging = massiveClient(server.key, `${server.base}/compat/massive`, { pagination: true });
    const res = await paging.getStocksTrades({ stockTicker: 'AAPL', order: GetStocksTradesOrderEnum.Asc, limit: 100 });
    // The SDK puts later pages first; the set of trades is every retained one, once each.
    expect([...res.results!].sort((a, b) => a.sequence_number - b.sequence_number).map((r) => pick(massiveTrade(trades[0]!), r))).toEqual(trades.map(massiveTrade));
  });

  test('timestamp.gte and .lt in nanoseconds bound the window; quotes, crypto trades and forex quotes too', async () => {
    const res = await massive.getStocksTrades({ stockTicker: 'AAPL', timestampGte: String(ns(at(300, 0))), timestampLt: String(ns(at(305, 0))), order: GetStocksTradesOrderEnum.Asc });
    expect(res.results!.map((r) => r.sequence_number)).toEqual([300, 301, 302, 303, 304]);
    const quotes = await native<NativeQuote>('/stocks/quotes/US:AAPL');
    const q = await massive.getStocksQuotes({ stockTicker: 'AAPL', order: GetStocksQuotesOrderEnum.Asc, limit: 1000 });
    expect(q.results!.map((r) => pick(massiveQuote(quotes[0]!), r))).toEqual(quotes.map(massiveQuote));
    const btc = await native<NativeTrade>('/crypto/trades/BTCUSD');
    const c = await massive.getCryptoTrades({ cryptoTicker: 'X:BTCUSD', order: GetCryptoTradesOrderEnum.Asc, limit: 1000 });
    expect(c.results!.map((r) => ({ price: r.price, size: r.size }))).toEqual(btc.map((t) => ({ price: t.price, size: t.size! })));
    const fx = await massive.getForexQuotes({ fxTicker: 'C:EURUSD', limit: 5 });
    expect(fx.results!.map((r) => r.bid_price)).toEqual([40, 39, 38, 37, 36].map((n) => 1.08 + n / 10_000));
  });

  test('a window before the oldest retained trade is the 422 in the vendor error body', async () => {
    const error = await massive.getStocksTrades({ stockTicker: 'AAPL', timestamp: '2026-03-04' }).then(
      () => null,
      (e: { response: { status: number; data: { status: string; error: string } } }) => e.response,
    );
    expect(error?.status).toBe(422);
    expect(error?.data.status).toBe('ERROR');
    expect(error?.data.error).toContain(`the oldest retained trade of US:AAPL is at ${new Date(at(AAPL_TRADES - RING + 1, 0)).toISOString()}`);
  });
});

describe('Polygon SDK 8 (positional arguments)', () => {
  test('getStocksTrades and getStocksQuotes answer the native ticks', async () => {
    const trades = await polygon.getStocksTrades('AAPL', undefined, String(ns(at(390, 0))), undefined, undefined, undefined, PolygonOrder.Asc, 50);
    expect(trades.results!.map((r) => r.sequence_number)).toEqual([390, 391, 392, 393, 394, 395, 396, 397, 398, 399, 400]);
    const quotes = await polygon.getStocksQuotes('AAPL', undefined, undefined, undefined, undefined, undefined, undefined, 3);
    expect(quotes.results!.map((r) => r.sequence_number)).toEqual([100, 99, 98]);
  });
});

/** The SDK's trade or quote time in Unix ms. */
const ms = (t: Date | string) => new Date(t).getTime();

describe('Alpaca SDK 4: historical trades and quotes', () => {
  test('stockTradeSingle, paged by page_token with pagination.collect: every retained trade, oldest first', async () => {
    const trades = await native<NativeTrade>('/stocks/trades/US:AAPL');
    const all = await pagination.collect((pageToken) => stocks.stockTradeSingle({ symbol: 'AAPL', limit: 100, pageToken }).then((p) => ({ items: p.trades, nextPageToken: p.nextPageToken })));
    expect(all.map((t) => ({ t: ms(t.t), p: Number(t.p), s: Number(t.s), i: Number(t.i) }))).toEqual(trades.map((t) => ({ t: t.timestamp, p: t.price, s: t.size!, i: t.seq })));
  });

  test('stockTrades over many symbols: limit counts across symbols, collectBySymbol gathers each', async () => {
    const aapl = await native<NativeTrade>('/stocks/trades/US:AAPL');
    const msft = await native<NativeTrade>('/stocks/trades/US:MSFT');
    const window = { symbols: 'MSFT,AAPL,NOPE', start: new Date(at(350, 0)) };
    const first = await stocks.stockTrades({ ...window, limit: 30 });
    expect(Object.keys(first.trades)).toEqual(['AAPL']);
    expect(first.nextPageToken).toEqual(expect.any(String));
    // MSFT's trades start before `start`: its oldest retained one is older, so the window is inside its retention.
    const all = await pagination.collectBySymbol((pageToken) => stocks.stockTrades({ ...window, limit: 30, pageToken }).then((p) => ({ data: p.trades, nextPageToken: p.nextPageToken })));
    expect(all.AAPL!.map((t) => Number(t.i))).toEqual(aapl.filter((t) => t.timestamp >= at(350, 0)).map((t) => t.seq));
    expect(all.MSFT).toBeUndefined();
    expect(msft.every((t) => t.timestamp < at(350, 0))).toBe(true);
  });

  test('stockQuoteSingle and stockQuotes with start and end, desc', async () => {
    const one = await stocks.stockQuoteSingle({ symbol: 'AAPL', start: new Date(at(10, 200)), end: new Date(at(12, 200)), sort: 'desc' });
    expect(one.quotes.map((q) => ({ t: ms(q.t), bp: Number(q.bp), ap: Number(q.ap), bs: Number(q.bs), as: Number(q.as) }))).toEqual(
      [12, 11, 10].map((n) => ({ t: at(n, 200), bp: 180 + n / 100, ap: 180.05 + n / 100, bs: 100 + n, as: 200 + n })),
    );
    const many = await stocks.stockQuotes({ symbols: 'AAPL', limit: 2 });
    expect(many.quotes.AAPL!.map((q) => ms(q.t))).toEqual([at(1, 200), at(2, 200)]);
  });

  test('cryptoTrades and cryptoQuotes keyed by BTC/USD, paged across pairs', async () => {
    const btc = await native<NativeTrade>('/crypto/trades/BTCUSD');
    const eth = await native<NativeTrade>('/crypto/trades/ETHUSD');
    const all = await pagination.collectBySymbol((pageToken) => crypto.cryptoTrades({ loc: 'us', symbols: 'BTC/USD,ETH/USD', limit: 50, pageToken }).then((p) => ({ data: p.trades, nextPageToken: p.nextPageToken })));
    expect(all['BTC/USD']!.map((t) => ({ t: ms(t.t), p: Number(t.p), s: Number(t.s) }))).toEqual(btc.map((t) => ({ t: t.timestamp, p: t.price, s: t.size! })));
    expect(all['ETH/USD']!.map((t) => Number(t.i))).toEqual(eth.map((t) => t.seq));
    const quotes = await crypto.cryptoQuotes({ loc: 'us', symbols: 'BTC/USD', limit: 3, sort: 'desc' });
    expect(quotes.quotes['BTC/USD']!.map((q) => Number(q.bp))).toEqual([60_060, 60_059, 60_058]);
  });

  test('a start before the oldest retained trade is the 422 with the vendor code', async () => {
    const response = await stocks.stockTradeSingle({ symbol: 'AAPL', start: new Date(T0) }).then(
      () => null,
      (e: { response: Response }) => e.response,
    );
    expect(response?.status).toBe(422);
    const body = (await response!.json()) as { code: number; message: string };
    expect(body.code).toBe(42210000);
    expect(body.message).toContain('the oldest retained trade of US:AAPL');
  });
});
