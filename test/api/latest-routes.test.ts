// Quote, last trade and snapshot over real HTTP, per class: shapes, null rules, fallbacks, errors.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { ErrorSchema, LastTradeSchema, QuoteSchema, SnapshotSchema } from '../../src/domain/schemas.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.stop());

const SAMPLES = [
  ['crypto', 'BTCUSD'],
  ['forex', 'EURUSD'],
  ['stocks', 'US:AAPL'],
  ['indices', 'US500'],
  ['etfs', 'US500ETF'],
  ['commodities', 'XAUUSD'],
] as const;

describe.each(SAMPLES)('%s quote, trade and snapshot', (cls, symbol) => {
  test('quote has the spec shape, the canonical symbol and a sane book', async () => {
    const { status, body } = await server.json(`/${cls}/quote/${encodeURIComponent(' ' + symbol.toLowerCase() + ' ')}`);
    expect(status).toBe(200);
    expect(Value.Check(QuoteSchema, body)).toBe(true);
    expect(Object.keys(body)).toEqual(['symbol', 'bid', 'ask', 'bid_size', 'ask_size', 'timestamp', 'stale']);
    expect(body.symbol).toBe(symbol);
    expect(body.bid).toBeLessThan(body.ask);
    expect(body.timestamp).toBeGreaterThan(Date.parse('2026-03-01'));
  });

  test('last trade has the spec shape and a price near the quote', async () => {
    const [{ body: trade, status }, { body: quote }] = await Promise.all([server.json(`/${cls}/trade/last/${symbol}`), server.json(`/${cls}/quote/${symbol}`)]);
    expect(status).toBe(200);
    expect(Value.Check(LastTradeSchema, trade)).toBe(true);
    expect(trade.symbol).toBe(symbol);
    expect(Math.abs(trade.price - quote.bid) / quote.bid).toBeLessThan(0.02);
  });

  test('snapshot has the spec shape and consistent change metrics', async () => {
    const { status, body } = await server.json(`/${cls}/snapshot/${symbol}`);
    expect(status).toBe(200);
    expect(Value.Check(SnapshotSchema, body)).toBe(true);
    expect(body.symbol).toBe(symbol);
    expect(body.prev_close).toBeGreaterThan(0);
    expect(body.change).toBeCloseTo(body.last_price - body.prev_close, 6);
    expect(body.change_percent).toBeCloseTo((body.change / body.prev_close) * 100, 3);
  });

  test('an unknown well-formed symbol is a 404 with the class message', async () => {
    const unknown = cls === 'stocks' ? 'US:NOPEXYZ' : cls === 'forex' ? 'ABCXYZ' : 'NOPEXYZ';
    const message = cls === 'commodities' ? 'commodity symbol not supported' : 'unknown symbol';
    for (const route of ['quote', 'trade/last', 'snapshot', 'agg']) {
      const path = route === 'agg' ? `/${cls}/agg/${unknown}/prev` : `/${cls}/${route}/${unknown}`;
      const res = await server.get(path);
      const body = await res.json();
      expect(res.status).toBe(404);
      expect(Value.Check(ErrorSchema, body)).toBe(true);
      expect(body).toEqual({ status: 404, error: message, request_id: res.headers.get('x-request-id')! });
    }
  });
});

describe('class rules', () => {
  test('crypto snapshot always carries last_size; ETF snapshot never does', async () => {
    expect('last_size' in (await server.json('/crypto/snapshot/ETHUSD')).body).toBe(true);
    expect('last_size' in (await server.json('/etfs/snapshot/US500ETF')).body).toBe(false);
    expect('last_size' in (await server.json('/v1/etfs/snapshot/USGOLD')).body).toBe(false);
  });

  test('stocks and commodities snapshots carry last_size when the tape has a size', async () => {
    for (const path of ['/stocks/snapshot/US:MSFT', '/commodities/snapshot/XAGUSD']) {
      const { body } = await server.json(path);
      expect(typeof body.last_size).toBe('number');
    }
  });

  test('forex last trade falls back to the consolidated quote mid with a null size', async () => {
    const [{ body: trade }, { body: quote }] = await Promise.all([server.json('/forex/trade/last/GBPUSD'), server.json('/forex/quote/GBPUSD')]);
    if (trade.timestamp === quote.timestamp) {
      expect(trade.price).toBeCloseTo((quote.bid + quote.ask) / 2, 5);
      expect(trade.size).toBeNull();
    } else {
      // The quote moved between the two requests: the fallback still has no size.
      expect(trade.size).toBeNull();
    }
    expect('last_size' in (await server.json('/forex/snapshot/GBPUSD')).body).toBe(false);
  });

  test('the forex raw line has null sizes, is served for quote, trade and snapshot, and is not listed', async () => {
    const quote = await server.json('/forex/quote/eurusd.raw');
    expect(quote.status).toBe(200);
    expect(quote.body.symbol).toBe('EURUSD.RAW');
    expect(quote.body.bid_size).toBeNull();
    expect(quote.body.ask_size).toBeNull();
    expect((await server.json('/forex/trade/last/EURUSD.RAW')).status).toBe(200);
    expect((await server.json('/forex/snapshot/EURUSD.RAW')).body.bid_size).toBeNull();
    const list = (await server.json('/forex/symbols')).body.symbols.map((s: { symbol: string }) => s.symbol);
    expect(list).toContain('EURUSD');
    expect(list.some((s: string) => s.endsWith('.RAW'))).toBe(false);
  });

  test.each([
    ['CL1', 'WTIUSD'],
    ['usoilusd', 'WTIUSD'],
    ['XBRUSD', 'BRENTUSD'],
    ['BZUSD', 'BRENTUSD'],
    ['HG1', 'COPPERUSD'],
  ])('commodity alias %s resolves to %s on quote, trade, snapshot and bars', async (alias, canonical) => {
    for (const path of [`/commodities/quote/${alias}`, `/commodities/trade/last/${alias}`, `/commodities/snapshot/${alias}`, `/commodities/agg/${alias}/prev`, `/commodities/agg/${alias}/1/day/2026-03-01/2026-03-04`]) {
      const { status, body } = await server.json(path);
      expect(status).toBe(200);
      expect(body.symbol).toBe(canonical);
    }
  });

  test('a plain stock ticker is a 400 that asks for MARKET:BASE', async () => {
    for (const route of ['quote', 'trade/last', 'snapshot']) {
      const { status, body } = await server.json(`/stocks/${route}/AAPL`);
      expect(status).toBe(400);
      expect(body.error).toContain('MARKET:BASE');
    }
  });

  test('a prefixed index code is a 400; indices are not served through stocks routes', async () => {
    const { status, body } = await server.json('/indices/quote/HK:HK50');
    expect(status).toBe(400);
    expect(body.error).toContain('bare');
    expect((await server.json('/stocks/quote/HK:HK50')).status).toBe(404);
  });

  test('ETF routes answer the same under /etfs and /v1/etfs', async () => {
    for (const route of ['trade/last', 'snapshot']) {
      const [a, b] = await Promise.all([server.json(`/etfs/${route}/USBOND`), server.json(`/v1/etfs/${route}/USBOND`)]);
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      expect(Object.keys(a.body)).toEqual(Object.keys(b.body));
      expect(b.body.symbol).toBe('USBOND');
    }
  });
});

describe('a store with symbols but no data (--feed none)', () => {
  let empty: TestServer;
  beforeAll(async () => {
    empty = await startServer({ args: ['--feed', 'none'] });
  });
  afterAll(() => empty.stop());

  test.each([
    ['/crypto/quote/BTCUSD', 'no quote available'],
    ['/stocks/quote/US:AAPL', 'no quote available'],
    ['/crypto/trade/last/BTCUSD', 'no trade available'],
    ['/stocks/trade/last/US:AAPL', 'no trade available'],
    ['/forex/trade/last/EURUSD', 'no trade available'],
    ['/etfs/trade/last/US500ETF', 'symbol not available'],
    ['/v1/etfs/trade/last/US500ETF', 'symbol not available'],
    ['/indices/trade/last/US500', 'symbol not available'],
    ['/commodities/quote/XAUUSD', 'no quote available'],
    ['/commodities/trade/last/XAUUSD', 'no fresh trade available'],
    ['/commodities/snapshot/XAUUSD', 'no snapshot available'],
    ['/crypto/snapshot/BTCUSD', 'no snapshot available'],
    ['/stocks/snapshot/US:AAPL', 'no snapshot available'],
    ['/crypto/agg/BTCUSD/prev', 'no bar available'],
    ['/stocks/agg/US:AAPL/prev?interval=1h', 'no bar available'],
  ])('%s → 404 %p', async (path, message) => {
    const { status, body } = await empty.json(path);
    expect(status).toBe(404);
    expect(body.error).toBe(message);
  });

  test('ranges over an empty store are empty pages, not errors', async () => {
    const { status, body } = await empty.json('/crypto/agg/BTCUSD/1/day/2026-01-01/2026-03-04');
    expect(status).toBe(200);
    expect(body).toEqual({ symbol: 'BTCUSD', results_count: 0, total_count: 0, results: [], next_offset: null });
  });
});
