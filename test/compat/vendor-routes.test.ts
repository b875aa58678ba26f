// The Massive routes added for the vendor SDKs' calls (ticker details, open/close, universal and
// indices snapshots), pre-market snapshots in both dialects, and keyless Alpaca crypto, over one
// real server whose clock starts before the US session (08:00 New York on a Wednesday).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect as connectTcp } from 'node:net';
import { Alpaca } from '@alpacahq/alpaca-trade-api';
import { restClient } from '@massive.com/client-js';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { keylessCryptoOn, parseServeConfig } from '../../src/config.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp-dir.ts';
import { nyMidnight } from './ny-midnight.ts';

const PRE_MARKET = '2026-03-04T13:00:00Z';
type NativeBar = { o: number; h: number; l: number; c: number; v: number | null; t: number };

let server: TestServer;
let rest: ReturnType<typeof restClient>;
beforeAll(async () => {
  // Three days of minutes: the sessions of Monday and Tuesday, and today before the open.
  server = await startServer({ args: ['--clock-start', PRE_MARKET, '--history-days', '3'] });
  rest = restClient(server.key, `${server.base}/compat/massive`);
});
afterAll(() => server.stop());

async function nativeDays(symbol: string): Promise<NativeBar[]> {
  const { status, body } = await server.json(`/stocks/agg/${symbol}/1/day/2026-02-20/2026-03-04?sort=asc`);
  expect(status).toBe(200);
  return body.results;
}

describe('pre-market snapshots carry the last session', () => {
  test('the native clock is before the US open, with no bar of today', async () => {
    const days = await nativeDays('US:AAPL');
    expect(days.length).toBeGreaterThanOrEqual(2);
    expect(days.at(-1)!.t).toBe(Date.parse('2026-03-03T00:00:00Z'));
  });

  test('Massive: day is the last session (with v), prevDay the one before, min the last minute bar', async () => {
    const days = await nativeDays('US:AAPL');
    const [before, last] = [days.at(-2)!, days.at(-1)!];
    const minute = (await server.json('/stocks/agg/US:AAPL/prev?interval=1m')).body.result as NativeBar;
    const { ticker } = await rest.getStocksSnapshotTicker({ stocksTicker: 'AAPL' });
    expect(ticker!.day as unknown).toEqual({ o: last.o, h: last.h, l: last.l, c: last.c, v: last.v });
    expect(ticker!.prevDay as unknown).toEqual({ o: before.o, h: before.h, l: before.l, c: before.c, v: before.v });
    expect(ticker!.min as unknown).toMatchObject({ o: minute.o, h: minute.h, l: minute.l, c: minute.c, t: minute.t });
  });

  test('Alpaca: dailyBar is the last session, prevDailyBar the one before, both stamped at New York midnight', async () => {
    const days = await nativeDays('US:AAPL');
    const [before, last] = [days.at(-2)!, days.at(-1)!];
    const { body } = await server.json('/compat/alpaca/v2/stocks/AAPL/snapshot');
    expect(body.dailyBar).toEqual({ t: new Date(nyMidnight(last.t)).toISOString().replace('.000Z', 'Z'), o: last.o, h: last.h, l: last.l, c: last.c, v: last.v });
    expect(body.prevDailyBar).toMatchObject({ t: new Date(nyMidnight(before.t)).toISOString().replace('.000Z', 'Z'), c: before.c });
    expect(body.minuteBar).toEqual(expect.objectContaining({ c: expect.any(Number) }));
  });
});

describe('Massive reference and open/close', () => {
  test('ticker details of a stock and a crypto pair; an unknown ticker is the vendor 404', async () => {
    const aapl = await rest.getTicker({ ticker: 'AAPL' });
    const listed = (await server.json('/stocks/symbols?market=US')).body as { symbols?: { symbol: string; name: string }[] };
    expect(aapl.results).toMatchObject({ ticker: 'AAPL', market: 'stocks', locale: 'us', active: true, type: 'CS', currency_name: 'usd' });
    if (listed.symbols) expect(aapl.results!.name).toBe(listed.symbols.find((s) => s.symbol === 'US:AAPL')!.name);
    const btc = await rest.getTicker({ ticker: 'X:BTCUSD' });
    expect(btc.results).toMatchObject({ ticker: 'X:BTCUSD', market: 'crypto', locale: 'global' });
    const res = await server.get('/compat/massive/v3/reference/tickers/NOPEXYZ');
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ status: 'NOT_FOUND' });
  });

  test('ticker details carry primary exchange, market cap and shares from the fundamentals store, for a key with the add-on', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    seedRegistry(store, CATALOG);
    const record = { symbol: 'US:AAPL', baseSymbol: 'AAPL', market: 'US', profile: { mic: 'XNAS', employees: 150_000, sector: 'Technology', industry: 'Consumer Electronics' }, profileAsOf: '2026-03-01', shares: { marketCap: 3.9e12, sharesTotal: 14_800_000_000 }, sharesAsOf: '2026-03-03' };
    store.fundamentals.update([{ symbol: 'US:AAPL' }], () => ({ record, json: '{}' }));
    const clock = new ManualClock(Date.parse(PRE_MARKET));
    const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: 'd'.repeat(12), devPerMinute: 100 });
    const plain = store.accounts.create({ name: 'no add-on', plan: 'starter', markets: ['*'], addons: [] }, clock.nowMs()).secret;
    store.accounts.refresh();
    const app = createApp({ store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, () => {});
    const details = async (key: string) => (await (await app.handle(new Request(`http://localhost/compat/massive/v3/reference/tickers/AAPL?apiKey=${key}`))).json()) as { results: Record<string, unknown> };
    expect((await details('d'.repeat(12))).results).toMatchObject({ ticker: 'AAPL', primary_exchange: 'XNAS', market_cap: 3.9e12, share_class_shares_outstanding: 14_800_000_000, total_employees: 150_000 });
    const without = (await details(plain)).results;
    expect(without).toMatchObject({ ticker: 'AAPL', market: 'stocks' });
    expect(without.market_cap).toBeUndefined();
    expect(without.primary_exchange).toBeUndefined();
    store.close();
  });

  test('open/close of a session is the native daily bar of the date; a day without one is 404', async () => {
    const last = (await nativeDays('US:MSFT')).at(-1)!;
    const oc = await rest.getStocksOpenClose({ stocksTicker: 'MSFT', date: '2026-03-03' });
    expect(oc as unknown).toEqual({ status: 'OK', from: '2026-03-03', symbol: 'MSFT', open: last.o, high: last.h, low: last.l, close: last.c, volume: last.v });
    const sunday = await server.get('/compat/massive/v1/open-close/MSFT/2026-03-01');
    expect(sunday.status).toBe(404);
    const bad = await server.get('/compat/massive/v1/open-close/MSFT/yesterday');
    expect(bad.status).toBe(400);
  });

  test('crypto open/close is the UTC day of the pair', async () => {
    const { body } = await server.json('/crypto/agg/BTCUSD/1/day/2026-03-03/2026-03-03');
    const day = body.results[0] as NativeBar;
    const oc = await rest.getCryptoOpenClose({ from: 'BTC', to: 'USD', date: '2026-03-03' });
    expect(oc as unknown).toEqual({ symbol: 'BTC-USD', isUTC: true, day: '2026-03-03T00:00:00Z', open: day.o, close: day.c, openTrades: [], closingTrades: [] });
  });
});

describe('v3 snapshots', () => {
  test('ticker.any_of answers in the order given, an unknown ticker as an error item', async () => {
    const res = await rest.getSnapshots({ tickerAnyOf: 'X:BTCUSD,AAPL,NOPEXYZ,C:EURUSD,I:SPX' });
    expect(res.status).toBe('OK');
    expect(res.results!.map((r) => r.ticker)).toEqual(['X:BTCUSD', 'AAPL', 'NOPEXYZ', 'C:EURUSD', 'I:SPX']);
    const [btc, aapl, nope, eur, spx] = res.results!;
    expect(nope).toEqual({ ticker: 'NOPEXYZ', error: 'NOT_FOUND', message: 'Ticker not found.' });
    expect(aapl).toMatchObject({ type: 'stocks', market_status: 'closed', session: { close: (await nativeDays('US:AAPL')).at(-1)!.c } });
    expect(btc).toMatchObject({ type: 'crypto', market_status: 'open' });
    expect(btc!.last_quote!.bid).toBeGreaterThan(0);
    expect(eur).toMatchObject({ type: 'fx' });
    expect(spx).toMatchObject({ type: 'indices' });
    expect(spx!.value).toBeGreaterThan(0);
  });

  test('by type, paged by next_url: all pages list every listed crypto pair once', async () => {
    const listed = (await server.json('/crypto/symbols')).body as { data: { symbol: string }[] };
    const seen: string[] = [];
    let page = (await server.json('/compat/massive/v3/snapshot?type=crypto&limit=3')).body;
    for (;;) {
      seen.push(...page.results.map((r: { ticker: string }) => r.ticker));
      if (!page.next_url) break;
      const next = new URL(page.next_url);
      page = (await server.json(`${next.pathname}${next.search}`)).body;
    }
    expect(seen.length).toBeGreaterThan(3);
    expect(seen).toEqual(listed.data.map((s) => `X:${s.symbol}`).sort());
    const bad = await server.get('/compat/massive/v3/snapshot?type=bonds');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toContain('stocks, crypto, fx, indices');
  });

  test('the indices snapshot: value, session and market status of the named indices', async () => {
    const res = await rest.getIndicesSnapshot({ tickerAnyOf: 'I:SPX,I:NDX' });
    expect(res.results!.map((r) => r.ticker)).toEqual(['I:SPX', 'I:NDX']);
    const { body } = await server.json('/indices/agg/US500/1/day/2026-03-03/2026-03-03');
    expect(res.results![0]).toMatchObject({ type: 'indices', value: expect.any(Number), session: { close: body.results[0].c } });
  });
});

describe('keyless Alpaca crypto', () => {
  test('the top-level client sends no key on crypto data; the default server (development key on) answers', async () => {
    const base = `${server.base}/compat/alpaca`;
    const alpaca = new Alpaca({ keyId: server.key, secret: 'unused', middleware: [{ pre: async ({ url, init }) => ({ url: url.replace(/^https:\/\/[^/]+/, base), init }) }] });
    const quotes = await alpaca.marketData.crypto.cryptoLatestQuotes({ loc: 'us', symbols: 'BTC/USD' });
    expect(Number(quotes.quotes['BTC/USD']!.bp)).toBeGreaterThan(0);
    const keyless = await server.get('/compat/alpaca/v1beta3/crypto/us/latest/trades?symbols=BTC/USD', { key: null });
    expect(keyless.status).toBe(200);
    expect(keyless.headers.get('x-ratelimit-limit')).toBe('120');
  });

  test('keyless requests reach only the crypto data routes', async () => {
    const stocks = await server.get('/compat/alpaca/v2/stocks/AAPL/snapshot', { key: null });
    expect(stocks.status).toBe(401);
    expect(await stocks.json()).toEqual({ code: 40110000, message: 'request is not authorized' });
    expect((await server.get('/crypto/quote/BTCUSD', { key: null })).status).toBe(401);
    expect((await server.get('/compat/massive/v2/last/trade/AAPL', { key: null })).status).toBe(401);
  });

  test.each(['/compat/alpaca/v1beta3/crypto/us/../../../v2/stocks/AAPL/snapshot', '/compat/alpaca/v1beta3/crypto/us/%2e%2e/%2e%2e/%2e%2e/v2/stocks/AAPL/snapshot'])('a keyless path that climbs out of the crypto routes is not served: %s', async (path) => {
    const sock = connectTcp(server.port, '127.0.0.1');
    let got = '';
    sock.on('data', (d) => (got += d));
    const ended = new Promise<void>((resolve) => sock.on('close', () => resolve()));
    sock.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    await ended;
    expect(got).toMatch(/^HTTP\/1\.1 (401|404)/);
    expect(got).not.toContain('latestTrade');
  });

  test('--keyless-crypto: auto follows the development key; off refuses keyless crypto requests', async () => {
    expect(keylessCryptoOn({ keylessCrypto: 'auto', noDevKey: false })).toBe(true);
    expect(keylessCryptoOn({ keylessCrypto: 'auto', noDevKey: true })).toBe(false);
    expect(keylessCryptoOn({ keylessCrypto: 'on', noDevKey: true })).toBe(true);
    expect(keylessCryptoOn({ keylessCrypto: 'off', noDevKey: false })).toBe(false);
    expect(() => parseServeConfig(['--keyless-crypto', 'maybe'], {})).toThrow('--keyless-crypto must be one of auto, on, off, got "maybe"');
    expect(parseServeConfig([], { MDS_KEYLESS_CRYPTO: 'OFF' })).toMatchObject({ keylessCrypto: 'off' });
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    seedRegistry(store, CATALOG);
    const clock = new ManualClock(Date.parse(PRE_MARKET));
    const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: null, devPerMinute: 100 });
    const deps = { store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' };
    const path = 'http://localhost/compat/alpaca/v1beta3/crypto/us/latest/quotes?symbols=BTC/USD';
    const off = createApp(deps, () => {}, { peerAddress: () => '10.0.0.1' });
    expect((await off.handle(new Request(path))).status).toBe(401);
    const on = createApp(deps, () => {}, { peerAddress: () => '10.0.0.2', keylessCrypto: true });
    const res = await on.handle(new Request(path));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ quotes: {} });
    // Metered per address: the keyless limit, then the vendor's 429.
    for (let i = 1; i < 120; i++) await on.handle(new Request(path));
    const over = await on.handle(new Request(path));
    expect(over.status).toBe(429);
    expect(await over.json()).toEqual({ code: 42910000, message: 'too many requests' });
    store.close();
  });
});
