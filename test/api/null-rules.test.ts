// The spec's null rules and last-trade fallbacks over real HTTP, on a store holding exactly what
// each rule needs (written before the server starts, served with no feed): change metrics null
// without a previous close (every value `stale`: no feed stands behind it), change_percent null when it is 0, the stocks and commodity mid
// fallbacks, an index snapshot's null last_size, an empty symbol's 404s. Then, with the simulator's
// history, prev with interval=4h for a US stock is the range route's 13:30 bar ending at the close.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALL_INSTRUMENTS } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { startServer, type TestServer } from '../support/server.ts';

const CLOCK = '2026-03-04T15:30:00Z';
const QUOTE_TS = Date.parse(CLOCK) - 60_000;
const MAR_3 = Date.parse('2026-03-03T00:00:00Z');

let dataDir: string;
let server: TestServer;

/** Quotes (and one zero daily close) written straight into a fresh store, as a feed would leave them. */
async function writeFixture(dir: string): Promise<void> {
  const store = Store.open({ dataDir: dir });
  seedRegistry(store, ALL_INSTRUMENTS);
  const id = (cls: 'stocks' | 'commodities' | 'indices', symbol: string) => store.registry.resolve(cls, symbol)!.id;
  store.appendQuote(id('stocks', 'US:AAPL'), QUOTE_TS, 270.01, 270.04, 600, 700);
  store.appendQuote(id('commodities', 'XAUUSD'), QUOTE_TS, 4000.13, 4000.14, 100, 200);
  store.appendQuote(id('indices', 'US500'), QUOTE_TS, 6800.25, 6800.75, 1, 1);
  store.appendQuote(id('stocks', 'US:MSFT'), QUOTE_TS, 400.1, 400.3, 100, 100);
  store.appendBar(id('stocks', 'US:MSFT'), '1d', { t: MAR_3, o: 0, h: 0, l: 0, c: 0, v: 0 });
  await store.close();
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mds-nulls-'));
  await writeFixture(dataDir);
  server = await startServer({ dataDir, args: ['--feed', 'none', '--clock-start', CLOCK] });
});
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('snapshot change metrics', () => {
  test('without a daily bar, prev_close, change and change_percent are null (not left out)', async () => {
    const { status, body } = await server.json('/stocks/snapshot/US:AAPL');
    expect(status).toBe(200);
    expect(body).toEqual({ symbol: 'US:AAPL', bid: 270.01, ask: 270.04, bid_size: 600, ask_size: 700, last_price: 270.025, last_timestamp: QUOTE_TS, prev_close: null, change: null, change_percent: null, stale: true });
  });

  test('with a previous close of 0, change is computed and change_percent is null', async () => {
    const { status, body } = await server.json('/stocks/snapshot/US:MSFT');
    expect(status).toBe(200);
    expect(body).toEqual({ symbol: 'US:MSFT', bid: 400.1, ask: 400.3, bid_size: 100, ask_size: 100, last_price: 400.2, last_timestamp: QUOTE_TS, prev_close: 0, change: 400.2, change_percent: null, stale: true });
  });
});

describe('last-trade fallbacks', () => {
  test('stocks: an empty tape falls back to the quote mid with the quote timestamp and a null size', async () => {
    const { status, body } = await server.json('/stocks/trade/last/US:AAPL');
    expect(status).toBe(200);
    expect(body).toEqual({ symbol: 'US:AAPL', price: 270.025, size: null, timestamp: QUOTE_TS });
  });

  test('commodities: a deterministic midpoint one decimal finer than the instrument, the same on every call', async () => {
    const first = await server.json('/commodities/trade/last/XAUUSD');
    const again = await server.json('/commodities/trade/last/xauusd');
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ symbol: 'XAUUSD', price: 4000.135, size: null, timestamp: QUOTE_TS });
    expect(again.body).toEqual(first.body);
    const snapshot = (await server.json('/commodities/snapshot/XAUUSD')).body;
    expect(snapshot.last_price).toBe(4000.135);
    // The fallback has no trade size, so a commodity snapshot leaves last_size out.
    expect('last_size' in snapshot).toBe(false);
  });

  test('a stock snapshot over the mid fallback leaves last_size out (no trade size is available)', async () => {
    expect('last_size' in (await server.json('/stocks/snapshot/US:AAPL')).body).toBe(false);
  });
});

describe('index snapshot', () => {
  test('carries last_size: null when no trade size is known', async () => {
    const { status, body } = await server.json('/indices/snapshot/US500');
    expect(status).toBe(200);
    expect(body).toEqual({ symbol: 'US500', bid: 6800.25, ask: 6800.75, bid_size: 1, ask_size: 1, last_price: 6800.5, last_size: null, last_timestamp: QUOTE_TS, prev_close: null, change: null, change_percent: null, stale: true });
  });
});

describe('a symbol with nothing stored', () => {
  test.each([
    ['/crypto/snapshot/BTCUSD', 'no snapshot available'],
    ['/crypto/quote/BTCUSD', 'no quote available'],
    ['/crypto/trade/last/BTCUSD', 'no trade available'],
    ['/stocks/trade/last/US:NVDA', 'no trade available'],
    ['/stocks/snapshot/US:NVDA', 'no snapshot available'],
    ['/crypto/agg/BTCUSD/prev', 'no bar available'],
  ])('%s is a 404 %p', async (path, message) => {
    const res = await server.get(path);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ status: 404, error: message, request_id: res.headers.get('x-request-id')! });
  });
});

describe('prev with interval=4h for a US stock after the close', () => {
  type Bar = { o: number; h: number; l: number; c: number; v: number | null; t: number };
  test('is the range route 13:30-16:00 New York bar of that day', async () => {
    // 16:30 New York (EST): the 13:30 bar closed with the session at 16:00 and has settled.
    await using sim = await startServer({ args: ['--clock-start', '2026-03-04T21:30:00Z'] });
    const { status, body } = await sim.json('/stocks/agg/US:AAPL/prev?interval=4h');
    expect(status).toBe(200);
    expect({ interval: body.interval, bar_start: body.bar_start, bar_end: body.bar_end }).toEqual({ interval: '4h', bar_start: Date.parse('2026-03-04T18:30:00Z'), bar_end: Date.parse('2026-03-04T21:00:00Z') });
    const range = (await sim.json<{ results: Bar[] }>('/stocks/agg/US:AAPL/4/hour/2026-03-04/2026-03-04?sort=asc')).body.results;
    expect(range.map((b) => b.t)).toEqual([Date.parse('2026-03-04T14:30:00Z'), Date.parse('2026-03-04T18:30:00Z')]);
    expect(body.result).toEqual(range[1]);
  });
});
