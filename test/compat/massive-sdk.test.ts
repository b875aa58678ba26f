// The official Massive (formerly Polygon.io) JavaScript SDK, unmodified, pointed at a real mds by its
// base-URL argument: every compatible REST call answers the values the native routes answer.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  GetCryptoAggregatesSortEnum, GetCryptoAggregatesTimespanEnum, GetForexAggregatesTimespanEnum, GetIndicesAggregatesTimespanEnum, GetStocksAggregatesTimespanEnum, ListTickersMarketEnum,
  restClient,
} from '@massive.com/client-js';
import { startServer, type TestServer } from '../support/server.ts';
import { nyMidnight, stampedNy } from './ny-midnight.ts';
import { stableRead } from './stable-read.ts';

let server: TestServer;
let rest: ReturnType<typeof restClient>;
beforeAll(async () => {
  server = await startServer();
  rest = restClient(server.key, `${server.base}/compat/massive`);
});
afterAll(() => server.stop());

/** The native range route's bars for a window, oldest first. */
async function nativeBars(path: string): Promise<{ o: number; h: number; l: number; c: number; v: number | null; t: number }[]> {
  const { status, body } = await server.json(`${path}${path.includes('?') ? '&' : '?'}sort=asc&limit=5000`);
  expect(status).toBe(200);
  return body.results;
}

const massiveOf = (bars: { o: number; h: number; l: number; c: number; v: number | null; t: number }[]) =>
  bars.map(({ v, ...rest }) => (v === null ? rest : { ...rest, v }));

describe('aggregates', () => {
  test('stock daily bars equal the native /stocks/agg bars of the window, stamped at New York midnight', async () => {
    const native = await nativeBars('/stocks/agg/US:AAPL/1/day/2026-02-20/2026-03-03');
    const res = await rest.getStocksAggregates({ stocksTicker: 'AAPL', multiplier: 1, timespan: GetStocksAggregatesTimespanEnum.Day, from: '2026-02-20', to: '2026-03-03' });
    expect(native.length).toBeGreaterThan(0);
    expect(res).toMatchObject({ ticker: 'AAPL', status: 'OK', adjusted: true, resultsCount: native.length, queryCount: native.length });
    expect(res.results as unknown).toEqual(massiveOf(native.map(stampedNy)));
    // 2026-03-03 is in EST: 05:00 UTC.
    expect(res.results!.at(-1)!.t).toBe(Date.parse('2026-03-03T05:00:00Z'));
    expect(typeof res.request_id).toBe('string');
  });

  test('crypto, forex and index minute bars equal the native bars; forex and index bars carry no volume', async () => {
    const cases = [
      { call: () => rest.getCryptoAggregates({ cryptoTicker: 'X:BTCUSD', multiplier: 5, timespan: GetCryptoAggregatesTimespanEnum.Minute, from: '2026-03-03', to: '2026-03-03' }), native: '/crypto/agg/BTCUSD/5/minute/2026-03-03/2026-03-03' },
      { call: () => rest.getForexAggregates({ forexTicker: 'C:EURUSD', multiplier: 1, timespan: GetForexAggregatesTimespanEnum.Hour, from: '2026-03-02', to: '2026-03-03' }), native: '/forex/agg/EURUSD/1/hour/2026-03-02/2026-03-03' },
      { call: () => rest.getIndicesAggregates({ indicesTicker: 'I:SPX', multiplier: 15, timespan: GetIndicesAggregatesTimespanEnum.Minute, from: '2026-03-03', to: '2026-03-03' }), native: '/indices/agg/US500/15/minute/2026-03-03/2026-03-03' },
    ];
    for (const c of cases) {
      const native = await nativeBars(c.native);
      const res = await c.call();
      expect(native.length).toBeGreaterThan(0);
      expect(res.results as unknown).toEqual(massiveOf(native));
    }
    const fx = await rest.getForexAggregates({ forexTicker: 'C:EURUSD', multiplier: 1, timespan: GetForexAggregatesTimespanEnum.Hour, from: '2026-03-03', to: '2026-03-03' });
    expect(fx.results!.every((b) => !('v' in b))).toBe(true);
  });

  test('daily bars: Unix ms edges name the sessions whose New York midnight they include', async () => {
    const native = await nativeBars('/stocks/agg/US:AAPL/1/day/2026-02-20/2026-03-04');
    expect(native.length).toBeGreaterThanOrEqual(2);
    const from = nyMidnight(native[0]!.t);
    const to = nyMidnight(native[1]!.t);
    const res = await rest.getStocksAggregates({ stocksTicker: 'AAPL', multiplier: 1, timespan: GetStocksAggregatesTimespanEnum.Day, from: String(from), to: String(to) });
    expect(res.results as unknown).toEqual(massiveOf(native.slice(0, 2).map(stampedNy)));
    const after = await rest.getStocksAggregates({ stocksTicker: 'AAPL', multiplier: 1, timespan: GetStocksAggregatesTimespanEnum.Day, from: String(from + 1), to: String(to) });
    expect(after.results as unknown).toEqual(massiveOf(native.slice(1, 2).map(stampedNy)));
  });

  test('from and to as Unix ms bound the window to the instant, both ends included', async () => {
    const native = await nativeBars('/stocks/agg/US:MSFT/1/minute/2026-03-03/2026-03-03');
    const from = native[10]!.t;
    const to = native[20]!.t;
    const res = await rest.getStocksAggregates({ stocksTicker: 'MSFT', multiplier: 1, timespan: GetStocksAggregatesTimespanEnum.Minute, from: String(from), to: String(to) });
    expect(res.results as unknown).toEqual(massiveOf(native.slice(10, 21)));
  });

  test('limit pages the window and next_url (with the key appended) continues it; sort=desc reverses', async () => {
    const native = await nativeBars('/crypto/agg/BTCUSD/1/hour/2026-03-02/2026-03-03');
    const first = await rest.getCryptoAggregates({ cryptoTicker: 'X:BTCUSD', multiplier: 1, timespan: GetCryptoAggregatesTimespanEnum.Hour, from: '2026-03-02', to: '2026-03-03', limit: 20 });
    expect(first.results as unknown).toEqual(massiveOf(native.slice(0, 20)));
    expect((first as { next_url?: string }).next_url).toStartWith(`${server.base}/compat/massive/v2/aggs/ticker/X%3ABTCUSD/range/1/hour/2026-03-02/2026-03-03?cursor=`);
    // What the SDK's pagination does with next_url: append the key and get it.
    const second: any = await (await fetch(`${(first as { next_url?: string }).next_url}&apiKey=${server.key}`)).json();
    expect(second.results).toEqual(massiveOf(native.slice(20, 40)));
    const desc = await rest.getCryptoAggregates({ cryptoTicker: 'X:BTCUSD', multiplier: 1, timespan: GetCryptoAggregatesTimespanEnum.Hour, from: '2026-03-02', to: '2026-03-03', sort: GetCryptoAggregatesSortEnum.Desc, limit: 5 });
    expect(desc.results as unknown).toEqual(massiveOf(native.slice(-5).reverse()));
  });

  test('the SDK with pagination on gathers every page of the window', async () => {
    const native = await nativeBars('/crypto/agg/ETHUSD/1/hour/2026-03-02/2026-03-03');
    const paging = restClient(server.key, `${server.base}/compat/massive`, { pagination: true });
    const res = await paging.getCryptoAggregates({ cryptoTicker: 'X:ETHUSD', multiplier: 1, timespan: GetCryptoAggregatesTimespanEnum.Hour, from: '2026-03-02', to: '2026-03-03', limit: 16 });
    // The SDK puts later pages first; the set of bars is the window's.
    expect([...res.results!].sort((a, b) => a.t - b.t) as unknown).toEqual(massiveOf(native));
  });

  test('previous close equals the native prev bar', async () => {
    for (const [call, path, ticker] of [
      [() => rest.getPreviousStocksAggregates({ stocksTicker: 'AAPL' }), '/stocks/agg/US:AAPL/prev', 'AAPL'],
      [() => rest.getPreviousCryptoAggregates({ cryptoTicker: 'X:BTCUSD' }), '/crypto/agg/BTCUSD/prev', 'X:BTCUSD'],
      [() => rest.getPreviousForexAggregates({ forexTicker: 'C:EURUSD' }), '/forex/agg/EURUSD/prev', 'X'],
      [() => rest.getPreviousIndicesAggregates({ indicesTicker: 'I:NDX' }), '/indices/agg/US100/prev', 'I:NDX'],
    ] as const) {
      const res = (await call()) as { results?: { T?: string }[]; resultsCount: number; ticker: string };
      const { body } = await server.json(path);
      const { v, ...bar } = body.result;
      expect(res.resultsCount).toBe(1);
      // US stock daily bars are stamped at New York midnight, as the vendor does; other classes at 00:00 UTC.
      const t = ticker === 'AAPL' ? nyMidnight(bar.t) : bar.t;
      expect(res.results![0]).toEqual({ T: res.ticker, ...bar, t, ...(v === null ? {} : { v }) });
      if (ticker !== 'X') expect(res.ticker).toBe(ticker);
    }
  });

  test('grouped daily: every US stock with its daily bar of the date, as the native range answers it', async () => {
    const res = await rest.getGroupedStocksAggregates({ date: '2026-03-03' });
    expect(res.resultsCount).toBeGreaterThan(5);
    const aapl = res.results!.find((r) => r.T === 'AAPL')!;
    const [bar] = await nativeBars('/stocks/agg/US:AAPL/1/day/2026-03-03/2026-03-03');
    expect(aapl as unknown).toEqual({ T: 'AAPL', ...massiveOf([stampedNy(bar!)])[0]! });
    const crypto = await rest.getGroupedCryptoAggregates({ date: '2026-03-03' });
    expect(crypto.results!.some((r) => r.T === 'X:BTCUSD')).toBe(true);
  });
});

describe('last trade, last quote and snapshots', () => {
  test('last stock trade and NBBO equal the native trade and quote; times are nanoseconds', async () => {
    const trade = await stableRead(() => server.json('/stocks/trade/last/US:AAPL').then((r) => r.body), () => rest.getLastStocksTrade({ stocksTicker: 'AAPL' }));
    expect(trade.sdk.status).toBe('OK');
    expect(trade.sdk.results).toMatchObject({ T: 'AAPL', p: trade.native.price, s: trade.native.size, t: trade.native.timestamp * 1e6 });
    const quote = await stableRead(() => server.json('/stocks/quote/US:AAPL').then((r) => r.body), () => rest.getLastStocksQuote({ stocksTicker: 'AAPL' }));
    expect(quote.sdk.results).toMatchObject({ T: 'AAPL', p: quote.native.bid, s: quote.native.bid_size, P: quote.native.ask, S: quote.native.ask_size, t: quote.native.timestamp * 1e6 });
  });

  test('last crypto trade and last forex quote equal the native values, in ms', async () => {
    const trade = await stableRead(() => server.json('/crypto/trade/last/BTCUSD').then((r) => r.body), () => rest.getLastCryptoTrade({ from: 'BTC', to: 'USD' }));
    expect(trade.sdk).toMatchObject({ status: 'success', symbol: 'BTC-USD', last: { price: trade.native.price, size: trade.native.size, timestamp: trade.native.timestamp } });
    const quote = await stableRead(() => server.json('/forex/quote/EURUSD').then((r) => r.body), () => rest.getLastCurrencyQuote({ from: 'EUR', to: 'USD' }));
    expect(quote.sdk).toMatchObject({ status: 'success', symbol: 'EUR/USD', last: { bid: quote.native.bid, ask: quote.native.ask, timestamp: quote.native.timestamp } });
  });

  test('a stock snapshot carries the native quote, trade, previous close and change', async () => {
    const { native, sdk } = await stableRead(() => server.json('/stocks/snapshot/US:AAPL').then((r) => r.body), () => rest.getStocksSnapshotTicker({ stocksTicker: 'AAPL' }));
    const s = sdk.ticker!;
    expect(sdk.status).toBe('OK');
    expect(s).toMatchObject({ ticker: 'AAPL', todaysChange: native.change, todaysChangePerc: native.change_percent, lastQuote: { p: native.bid, P: native.ask }, lastTrade: { p: native.last_price } });
    expect(s.prevDay!.c).toBe(native.prev_close);
  });

  test('crypto and forex snapshots, one and many tickers', async () => {
    const btc = await stableRead(() => server.json('/crypto/snapshot/BTCUSD').then((r) => r.body), () => rest.getCryptoSnapshotTicker({ ticker: 'X:BTCUSD' }));
    expect(btc.sdk.ticker).toMatchObject({ ticker: 'X:BTCUSD', lastTrade: { p: btc.native.last_price }, prevDay: { c: btc.native.prev_close } });
    const eur = await stableRead(() => server.json('/forex/snapshot/EURUSD').then((r) => r.body), () => rest.getForexSnapshotTicker({ ticker: 'C:EURUSD' }));
    expect(eur.sdk.ticker).toMatchObject({ ticker: 'C:EURUSD', lastQuote: { b: eur.native.bid, a: eur.native.ask }, prevDay: { c: eur.native.prev_close } });
    const many = await rest.getCryptoSnapshotTickers({ tickers: ['X:BTCUSD', 'X:ETHUSD', 'X:NOPEUSD'] });
    expect(many.tickers!.map((t) => t.ticker)).toEqual(['X:BTCUSD', 'X:ETHUSD']);
    const fx = await rest.getForexSnapshotTickers({ tickers: ['C:EURUSD'] });
    expect(fx.tickers!.map((t) => t.ticker)).toEqual(['C:EURUSD']);
    const stocks = await rest.getStocksSnapshotTickers({ tickers: ['AAPL', 'MSFT'] });
    expect(stocks.tickers!.map((t) => t.ticker)).toEqual(['AAPL', 'MSFT']);
    const all = await rest.getStocksSnapshotTickers();
    expect(all.tickers!.length).toBeGreaterThan(2);
  });
});

describe('reference', () => {
  test('market status now: the US session is open at the test clock (Wednesday 10:30 New York)', async () => {
    const res = await rest.getMarketStatus();
    expect(res).toMatchObject({ market: 'open', earlyHours: false, afterHours: false, exchanges: { nyse: 'open', nasdaq: 'open' }, currencies: { crypto: 'open', fx: 'open' } });
    expect(res.serverTime).toStartWith('2026-03-04T10:30');
  });

  test('upcoming holidays come from the mds US calendar, one row per exchange', async () => {
    const res = await rest.getMarketHolidays();
    const { body } = await server.json('/markets/US/holidays?from=2026-03-04&to=2027-03-04');
    expect(res.length).toBe(body.holidays.length * 2);
    expect(res.filter((h) => h.exchange === 'NYSE').map((h) => [h.date, h.name])).toEqual(body.holidays.map((h: { date: string; name: string }) => [h.date, h.name]));
    expect(res.find((h) => h.status === 'early-close')).toMatchObject({ open: expect.any(String), close: expect.any(String) });
  });

  test('ticker listing: the listed symbols by market, vendor-named, paged by next_url', async () => {
    const crypto = await rest.listTickers({ market: ListTickersMarketEnum.Crypto, limit: 1000 });
    const { body } = await server.json('/crypto/symbols');
    expect(crypto.results!.map((r) => r.ticker)).toEqual(body.data.map((d: { symbol: string }) => `X:${d.symbol}`).sort());
    const page = await rest.listTickers({ market: ListTickersMarketEnum.Stocks, limit: 2 });
    expect(page.results!.length).toBe(2);
    expect(page.next_url).toContain('cursor=');
    const next: any = await (await fetch(`${page.next_url}&apiKey=${server.key}`)).json();
    expect(next.results[0].ticker > page.results![1]!.ticker).toBe(true);
    const indices = await rest.listTickers({ market: ListTickersMarketEnum.Indices });
    expect(indices.results!.map((r) => r.ticker)).toContain('I:SPX');
  });
});
