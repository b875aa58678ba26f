// The official Alpaca SDK, unmodified: its market-data and trading Api classes pointed at a real mds
// by their documented `basePath`, and every compatible REST call answering the native values.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Alpaca, marketData, pagination, trading } from '@alpacahq/alpaca-trade-api';
import { startServer, type TestServer } from '../support/server.ts';
import { nyMidnight, stampedNy } from './ny-midnight.ts';
import { stableRead } from './stable-read.ts';

let server: TestServer;
let stocks: marketData.StockApi;
let crypto: marketData.CryptoApi;
let clock: trading.ClockApi;
let calendar: trading.CalendarApi;
beforeAll(async () => {
  server = await startServer();
  const basePath = `${server.base}/compat/alpaca`;
  // The key id is the mds key; the secret is not checked.
  const market = new marketData.Configuration({ keyId: server.key, secret: 'unused', basePath });
  stocks = new marketData.StockApi(market);
  // The vendor's crypto data needs no key, so its SDK sends none: the documented `headers` option adds it.
  crypto = new marketData.CryptoApi(new marketData.Configuration({ basePath, headers: { 'APCA-API-KEY-ID': server.key } }));
  const tradingConfig = new trading.Configuration({ keyId: server.key, secret: 'unused', basePath });
  clock = new trading.ClockApi(tradingConfig);
  calendar = new trading.CalendarApi(tradingConfig);
});
afterAll(() => server.stop());

type NativeBar = { o: number; h: number; l: number; c: number; v: number | null; t: number };

async function nativeBars(path: string): Promise<NativeBar[]> {
  const { status, body } = await server.json(`${path}?sort=asc&limit=5000`);
  expect(status).toBe(200);
  return body.results;
}

/** The SDK's bar (Date times; numbers as parsed) as plain values to compare with native bars. */
const plain = (bar: { t: Date | string; o: unknown; h: unknown; l: unknown; c: unknown; v?: unknown }) => ({
  t: new Date(bar.t).getTime(),
  o: Number(bar.o),
  h: Number(bar.h),
  l: Number(bar.l),
  c: Number(bar.c),
  v: bar.v === undefined ? null : Number(bar.v),
});

describe('stock bars', () => {
  test('one symbol: the SDK bars equal the native /stocks/agg bars of the window', async () => {
    const native = await nativeBars('/stocks/agg/US:AAPL/5/minute/2026-03-03/2026-03-03');
    const res = await stocks.stockBarSingle({ symbol: 'AAPL', timeframe: '5Min', start: new Date('2026-03-03T00:00:00Z'), end: new Date('2026-03-03T23:59:59.999Z'), limit: 10_000 });
    expect(native.length).toBeGreaterThan(0);
    expect(res.symbol).toBe('AAPL');
    expect(res.bars.map(plain)).toEqual(native);
    expect(res.nextPageToken).toBeNull();
  });

  test('many symbols: limit counts bars across symbols, page_token continues, all pages give every bar', async () => {
    const aapl = await nativeBars('/stocks/agg/US:AAPL/1/hour/2026-03-03/2026-03-03');
    const msft = await nativeBars('/stocks/agg/US:MSFT/1/hour/2026-03-03/2026-03-03');
    const window = { symbols: 'MSFT,AAPL,NOPE', timeframe: '1Hour', start: new Date('2026-03-03T00:00:00Z'), end: new Date('2026-03-03T23:59:59.999Z') };
    const first = await stocks.stockBars({ ...window, limit: 3 });
    expect(Object.keys(first.bars)).toEqual(['AAPL']);
    expect(first.bars.AAPL!.map(plain)).toEqual(aapl.slice(0, 3));
    expect(first.nextPageToken).toEqual(expect.any(String));
    const all = await pagination.collectBySymbol((pageToken) => stocks.stockBars({ ...window, limit: 3, pageToken }).then((p) => ({ data: p.bars, nextPageToken: p.nextPageToken })));
    expect(Object.keys(all).sort()).toEqual(['AAPL', 'MSFT']);
    expect(all.AAPL!.map(plain)).toEqual(aapl);
    expect(all.MSFT!.map(plain)).toEqual(msft);
  });

  test('daily bars are stamped at New York midnight, and sort=desc', async () => {
    const native = await nativeBars('/stocks/agg/US:AAPL/1/day/2026-02-20/2026-03-03');
    const res = await stocks.stockBarSingle({ symbol: 'AAPL', timeframe: '1Day', start: new Date('2026-02-20T00:00:00Z'), end: new Date('2026-03-03T23:59:59Z'), sort: 'desc' });
    expect(res.bars.map(plain)).toEqual([...native].reverse().map(stampedNy));
  });

  test('a window that starts at a bar\'s own stamp includes that bar (paging by the last t)', async () => {
    const native = await nativeBars('/stocks/agg/US:AAPL/1/day/2026-02-20/2026-03-04');
    expect(native.length).toBeGreaterThanOrEqual(2);
    const from = nyMidnight(native[0]!.t);
    const res = await stocks.stockBarSingle({ symbol: 'AAPL', timeframe: '1Day', start: new Date(from), end: new Date(nyMidnight(native[1]!.t)) });
    expect(res.bars.map(plain)).toEqual(native.slice(0, 2).map(stampedNy));
  });
});

describe('stock latest values and snapshots', () => {
  test('latest quote and trade, one and many symbols, equal the native quote and trade', async () => {
    const quote = await stableRead(() => server.json('/stocks/quote/US:AAPL').then((r) => r.body), () => stocks.stockLatestQuoteSingle({ symbol: 'AAPL' }));
    expect(quote.sdk.symbol).toBe('AAPL');
    expect({ bp: Number(quote.sdk.quote.bp), ap: Number(quote.sdk.quote.ap), bs: Number(quote.sdk.quote.bs), as: Number(quote.sdk.quote.as), t: quote.sdk.quote.t.getTime() }).toEqual({
      bp: quote.native.bid, ap: quote.native.ask, bs: quote.native.bid_size, as: quote.native.ask_size, t: quote.native.timestamp,
    });
    const trade = await stableRead(() => server.json('/stocks/trade/last/US:MSFT').then((r) => r.body), () => stocks.stockLatestTradeSingle({ symbol: 'MSFT' }));
    expect({ p: Number(trade.sdk.trade.p), s: Number(trade.sdk.trade.s), t: trade.sdk.trade.t.getTime() }).toEqual({ p: trade.native.price, s: trade.native.size, t: trade.native.timestamp });
    const many = await stocks.stockLatestQuotes({ symbols: 'AAPL,MSFT,NOPE' });
    expect(Object.keys(many.quotes).sort()).toEqual(['AAPL', 'MSFT']);
    const trades = await stocks.stockLatestTrades({ symbols: 'AAPL,MSFT' });
    expect(Object.keys(trades.trades).sort()).toEqual(['AAPL', 'MSFT']);
  });

  test('latest bar is the native prev with interval=1m (the last settled minute bar)', async () => {
    const { native, sdk } = await stableRead(() => server.json('/stocks/agg/US:AAPL/prev?interval=1m').then((r) => r.body.result), () => stocks.stockLatestBarSingle({ symbol: 'AAPL' }));
    expect(plain(sdk.bar)).toEqual(native);
    const many = await stocks.stockLatestBars({ symbols: 'AAPL,MSFT' });
    expect(Object.keys(many.bars).sort()).toEqual(['AAPL', 'MSFT']);
  });

  test('snapshots carry the native quote, trade and previous daily bar', async () => {
    const { native, sdk } = await stableRead(() => server.json('/stocks/snapshot/US:AAPL').then((r) => r.body), () => stocks.stockSnapshotSingle({ symbol: 'AAPL' }));
    expect({ bid: Number(sdk.latestQuote!.bp), ask: Number(sdk.latestQuote!.ap), last: Number(sdk.latestTrade!.p), prev: Number(sdk.prevDailyBar!.c) }).toEqual({ bid: native.bid, ask: native.ask, last: native.last_price, prev: native.prev_close });
    const many = await stocks.stockSnapshots({ symbols: 'AAPL,MSFT' });
    expect(Object.keys(many).sort()).toEqual(['AAPL', 'MSFT']);
  });
});

describe('crypto', () => {
  test('bars of BTC/USD equal the native BTCUSD bars', async () => {
    const native = await nativeBars('/crypto/agg/BTCUSD/15/minute/2026-03-03/2026-03-03');
    const res = await crypto.cryptoBars({ loc: 'us', symbols: 'BTC/USD', timeframe: '15Min', start: new Date('2026-03-03T00:00:00Z'), end: new Date('2026-03-03T23:59:59.999Z') });
    expect(res.bars['BTC/USD']!.map(plain)).toEqual(native);
  });

  test('latest quotes, trades, bars and snapshots keyed by the vendor pair', async () => {
    const quote = await stableRead(() => server.json('/crypto/quote/BTCUSD').then((r) => r.body), () => crypto.cryptoLatestQuotes({ loc: 'us', symbols: 'BTC/USD,ETH/USD' }));
    const q = quote.sdk.quotes['BTC/USD']!;
    expect({ bp: Number(q.bp), ap: Number(q.ap), t: q.t.getTime() }).toEqual({ bp: quote.native.bid, ap: quote.native.ask, t: quote.native.timestamp });
    expect(Object.keys(quote.sdk.quotes).sort()).toEqual(['BTC/USD', 'ETH/USD']);
    const trade = await stableRead(() => server.json('/crypto/trade/last/ETHUSD').then((r) => r.body), () => crypto.cryptoLatestTrades({ loc: 'us', symbols: 'ETH/USD' }));
    expect(Number(trade.sdk.trades['ETH/USD']!.p)).toBe(trade.native.price);
    const bars = await crypto.cryptoLatestBars({ loc: 'us', symbols: 'BTC/USD' });
    expect(Object.keys(bars.bars)).toEqual(['BTC/USD']);
    const snap = await stableRead(() => server.json('/crypto/snapshot/BTCUSD').then((r) => r.body), () => crypto.cryptoSnapshots({ loc: 'us', symbols: 'BTC/USD' }));
    expect(Number(snap.sdk.snapshots['BTC/USD']!.latestTrade!.p)).toBe(snap.native.last_price);
  });
});

describe('clock and calendar (trading host, same base path)', () => {
  test('the clock says the US market is open at the test clock, with the native next close', async () => {
    const res = await clock.legacyClock();
    const { body } = await server.json('/markets/US/status');
    expect(res.isOpen).toBe(true);
    expect(res.nextClose.toISOString().slice(0, 19) + 'Z').toBe(body.next_close);
    expect(res.nextOpen.toISOString().slice(0, 19) + 'Z').toBe(body.next_open);
  });

  test('the calendar lists the native US sessions with local open and close times', async () => {
    const res = await calendar.legacyCalendar({ start: new Date('2026-03-02T00:00:00Z'), end: new Date('2026-03-31T00:00:00Z') });
    const { body } = await server.json('/markets/US/sessions?from=2026-03-02&to=2026-03-31');
    expect(res.map((d) => d.date.toISOString().slice(0, 10))).toEqual(body.sessions.map((s: { date: string }) => s.date));
    expect(res[0]).toMatchObject({ open: '09:30', close: '16:00' });
  });
});

describe('the top-level Alpaca client', () => {
  test('has no base-URL option; its documented middleware can send its requests to mds', async () => {
    const base = `${server.base}/compat/alpaca`;
    const alpaca = new Alpaca({
      keyId: server.key,
      secret: 'unused',
      // Every request of both hosts (data and trading) goes to this server instead.
      middleware: [{ pre: async ({ url, init }) => ({ url: url.replace(/^https:\/\/[^/]+/, base), init }) }],
    });
    const { native, sdk } = await stableRead(() => server.json('/stocks/quote/US:AAPL').then((r) => r.body), () => alpaca.marketData.stocks.stockLatestQuoteSingle({ symbol: 'AAPL' }));
    expect(Number(sdk.quote.bp)).toBe(native.bid);
    expect((await alpaca.trading.clock.legacyClock()).isOpen).toBe(true);
  });
});
