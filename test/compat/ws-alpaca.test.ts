// The Alpaca market data WebSocket dialect over a real server: the official SDK, unmodified, pointed
// at /compat/alpaca by its documented `url` stream option (msgpack framing, as it always asks),
// receives trades and quotes equal to the native stream's ticks of the same sequence number; raw
// JSON-protocol tests hold the control messages, error codes, wildcards and entitlements. The daily
// bar's stamp is checked on the dialect's encoders (test/compat/ws-bars.test.ts streams one to the SDK).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Alpaca, type streaming } from '@alpacahq/alpaca-trade-api';
import { unpack } from 'msgpackr';
import type { SymbolEntry } from '../../src/domain/instrument.ts';
import { ALPACA_JSON_ENCODER, ALPACA_MSGPACK_ENCODER } from '../../src/stream/compat/alpaca-events.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { createKeyOn } from '../support/cli.ts';
import { connect, type WsClient } from '../support/ws-client.ts';
import { connectVendor, type VendorWs } from '../support/vendor-ws.ts';
import { nyMidnight } from './ny-midnight.ts';

let server: TestServer;
let wsBase: string;
beforeAll(async () => {
  server = await startServer();
  wsBase = server.base.replace('http', 'ws');
});
afterAll(() => server.stop());

async function nativeOn(channels: string[], symbols: string[]): Promise<WsClient> {
  const native = await connect(`${wsBase}/?apiKey=${server.key}`);
  await native.next((m) => m.type === 'ready');
  native.send({ action: 'subscribe', channels, symbols });
  await native.next((m) => m.type === 'subscribed');
  return native;
}

/** Resolves with the first value `register` hands its callback that passes `match`. */
function first<T>(register: (fn: (v: T) => void) => void, match: (v: T) => boolean = () => true): Promise<T> {
  return new Promise((resolve, reject) => {
    let done = false;
    const timer = setTimeout(() => reject(new Error('no matching value within 15 s')), 15_000);
    register((v) => {
      if (done || !match(v)) return;
      done = true;
      clearTimeout(timer);
      resolve(v);
    });
  });
}

async function authed(path: string, key = server.key): Promise<VendorWs> {
  const c = await connectVendor(`${wsBase}/compat/alpaca${path}`);
  expect(await c.next()).toEqual({ T: 'success', msg: 'connected' });
  c.send({ action: 'auth', key, secret: 'unused' });
  expect(await c.next()).toEqual({ T: 'success', msg: 'authenticated' });
  return c;
}

const STOCK_LISTS = { bars: [], updatedBars: [], dailyBars: [], statuses: [], lulds: [] };

describe('the official SDK (@alpacahq/alpaca-trade-api stream with a url)', () => {
  test('stocks: a trade and a quote of AAPL equal the native ticks of the same seq', async () => {
    await using native = await nativeOn(['stocks.trades', 'stocks.quotes'], ['US:AAPL']);
    const alpaca = new Alpaca({ keyId: server.key, secret: 'not-checked' });
    const stream = alpaca.marketData.stockStream({ url: `${wsBase}/compat/alpaca/v2/iex`, reconnect: false });
    try {
      const subscribed = first<Record<string, string[]>>((fn) => stream.on('subscription', fn), (s) => s.trades!.length > 0 && s.quotes!.length > 0);
      stream.onConnect(() => {
        stream.subscribeForTrades(['AAPL']);
        stream.subscribeForQuotes(['AAPL']);
      });
      const trade = first<streaming.StreamTrade>((fn) => stream.onTrade(fn));
      const quote = first<streaming.StreamQuote>((fn) => stream.onQuote(fn));
      stream.connect();
      expect(await stream.waitForAuthentication()).toBe(true);
      expect(await subscribed).toMatchObject({ trades: ['AAPL'], quotes: ['AAPL'], bars: [] });
      const t = await trade;
      const nativeTrade = await native.next((m) => m.type === 'trade' && m.seq === t.id);
      expect({ symbol: t.symbol, id: t.id, price: t.price, size: t.size, timestamp: t.timestamp.getTime() }).toEqual({ symbol: 'AAPL', id: nativeTrade.seq, price: nativeTrade.price, size: nativeTrade.size, timestamp: nativeTrade.ts });
      const q = await quote;
      const nativeQuote = await native.next((m) => m.type === 'quote' && m.ts === q.timestamp.getTime() && m.bid === q.bidPrice && m.ask === q.askPrice);
      expect({ symbol: q.symbol, bidSize: q.bidSize, askSize: q.askSize }).toEqual({ symbol: 'AAPL', bidSize: nativeQuote.bid_size, askSize: nativeQuote.ask_size });
    } finally {
      stream.disconnect();
    }
  });

  test('crypto: a BTC/USD trade equals the native trade of the same seq', async () => {
    await using native = await nativeOn(['crypto.trades'], ['BTCUSD']);
    const alpaca = new Alpaca({ keyId: server.key, secret: 'not-checked' });
    const stream = alpaca.marketData.cryptoStream({ url: `${wsBase}/compat/alpaca/v1beta3/crypto/us`, reconnect: false });
    try {
      stream.onConnect(() => stream.subscribeForTrades(['BTC/USD']));
      const trade = first<streaming.StreamTrade>((fn) => stream.onTrade(fn));
      stream.connect();
      const t = await trade;
      const nativeTrade = await native.next((m) => m.type === 'trade' && m.seq === t.id);
      expect({ symbol: t.symbol, price: t.price, size: t.size, timestamp: t.timestamp.getTime() }).toEqual({ symbol: 'BTC/USD', price: nativeTrade.price, size: nativeTrade.size, timestamp: nativeTrade.ts });
    } finally {
      stream.disconnect();
    }
  });

  test('a wrong key fails authentication (402) and the SDK does not retry', async () => {
    const alpaca = new Alpaca({ keyId: 'wrong-key-000', secret: 'x' });
    const stream = alpaca.marketData.stockStream({ url: `${wsBase}/compat/alpaca/v2/sip` });
    stream.connect();
    expect(await stream.waitForAuthenticationResult()).toMatchObject({ authenticated: false, code: 402, message: 'auth failed' });
  });
});

describe('raw protocol (JSON)', () => {
  test('trades arrive as {T:"t"} with an RFC 3339 time of nine fractional digits', async () => {
    await using native = await nativeOn(['stocks.trades'], ['US:AAPL']);
    await using c = await authed('/v2/iex');
    c.send({ action: 'subscribe', trades: ['AAPL'] });
    expect(await c.next()).toEqual({ T: 'subscription', trades: ['AAPL'], quotes: [], ...STOCK_LISTS, corrections: ['AAPL'], cancelErrors: ['AAPL'] });
    const trade = await c.next((e) => e.T === 't');
    const n = await native.next((m) => m.type === 'trade' && m.seq === trade.i);
    expect(trade).toEqual({ T: 't', S: 'AAPL', i: n.seq, p: n.price, s: n.size, t: new Date(n.ts).toISOString().replace('Z', '000000Z') });
  });

  test('control errors: 401 before auth, 402 bad key, 403 twice, 400 bad syntax', async () => {
    await using c = await connectVendor(`${wsBase}/compat/alpaca/v2/iex`);
    expect(await c.next()).toEqual({ T: 'success', msg: 'connected' });
    c.send({ action: 'subscribe', trades: ['AAPL'] });
    expect(await c.next()).toEqual({ T: 'error', code: 401, msg: 'not authenticated' });
    c.send({ action: 'auth', key: 'wrong-key-000', secret: 'x' });
    expect(await c.next()).toEqual({ T: 'error', code: 402, msg: 'auth failed' });
    c.send({ action: 'auth', key: server.key, secret: 'x' });
    expect(await c.next()).toEqual({ T: 'success', msg: 'authenticated' });
    c.send({ action: 'auth', key: server.key, secret: 'x' });
    expect(await c.next()).toEqual({ T: 'error', code: 403, msg: 'already authenticated' });
    c.send('{not json');
    expect(await c.next()).toEqual({ T: 'error', code: 400, msg: 'invalid syntax' });
    c.send({ action: 'subscribe', trades: 'AAPL' });
    expect(await c.next()).toEqual({ T: 'error', code: 400, msg: 'invalid syntax' });
  });

  test('an unknown symbol is 400 and the others stay subscribed; statuses are 409 (not offered)', async () => {
    await using c = await authed('/v2/iex');
    c.send({ action: 'subscribe', quotes: ['AAPL', 'NOPE123'], statuses: ['AAPL'] });
    await c.next((e) => e.T === 'subscription');
    expect(c.frames.at(-1)).toEqual([
      { T: 'error', code: 409, msg: 'insufficient subscription' },
      { T: 'error', code: 400, msg: 'invalid syntax' },
      { T: 'subscription', trades: [], quotes: ['AAPL'], ...STOCK_LISTS, corrections: [], cancelErrors: [] },
    ]);
    c.send({ action: 'unsubscribe', quotes: ['AAPL'] });
    expect(await c.next((e) => e.T === 'subscription')).toMatchObject({ trades: [], quotes: [] });
  });

  test('a wildcard streams every pair of the feed', async () => {
    await using c = await authed('/v1beta3/crypto/us');
    c.send({ action: 'subscribe', quotes: ['*'] });
    expect(await c.next()).toEqual({ T: 'subscription', trades: [], quotes: ['*'], bars: [], updatedBars: [], dailyBars: [], orderbooks: [] });
    const pairs = new Set<string>();
    while (pairs.size < 3) pairs.add((await c.next((e) => e.T === 'q')).S);
    for (const pair of pairs) expect(pair).toMatch(/^[A-Z0-9]+\/[A-Z]{3}$/);
  });

  test('entitlements: a plan without stocks gets 409; its connection limit answers 406 and closes', async () => {
    const { key } = await createKeyOn(server, '--plan', 'perpetuals');
    await using c = await authed('/v2/iex', key);
    c.send({ action: 'subscribe', trades: ['AAPL'] });
    expect(await c.next()).toEqual({ T: 'error', code: 409, msg: 'insufficient subscription' });
    const free = await createKeyOn(server, '--plan', 'free');
    await using one = await authed('/v2/iex', free.key);
    await using two = await authed('/v1beta3/crypto/us', free.key);
    await using three = await connectVendor(`${wsBase}/compat/alpaca/v2/iex`);
    await three.next();
    three.send({ action: 'auth', key: free.key, secret: 'x' });
    expect(await three.next()).toEqual({ T: 'error', code: 406, msg: 'connection limit exceeded' });
    expect((await three.closed).code).toBe(1008);
    expect([one.ws.readyState, two.ws.readyState]).toEqual([WebSocket.OPEN, WebSocket.OPEN]);
  });

  test('Content-Type: application/msgpack on the upgrade makes every frame msgpack, times as timestamps', async () => {
    await using c = await connectVendor(`${wsBase}/compat/alpaca/v1beta3/crypto/us`, { headers: { 'content-type': 'application/msgpack' }, msgpack: true });
    expect(await c.next()).toEqual({ T: 'success', msg: 'connected' });
    c.send({ action: 'auth', key: server.key, secret: 'x' });
    expect(await c.next()).toEqual({ T: 'success', msg: 'authenticated' });
    c.send({ action: 'subscribe', trades: ['BTC/USD'] });
    expect(await c.next()).toMatchObject({ T: 'subscription', trades: ['BTC/USD'] });
    const trade = await c.next((e) => e.T === 't');
    // A Date only comes out of a binary frame's timestamp extension (JSON would give text).
    expect(trade.t).toBeInstanceOf(Date);
  });
});


describe('daily bars (T:"d"): stamped as the Alpaca REST dialect stamps them', () => {
  const entry = (symbol: string, assetClass: 'stocks' | 'crypto', market: string | null): SymbolEntry => ({
    id: 1, symbol, assetClass, name: symbol, market, baseSymbol: null, aliases: [], listed: true, decimals: 2,
  });
  const AAPL = entry('US:AAPL', 'stocks', 'US');
  const BTC = entry('BTCUSD', 'crypto', null);
  const day = (date: string) => ({ t: Date.parse(`${date}T00:00:00Z`), o: 10, h: 12, l: 9, c: 11, v: 500 });
  const json = (e: SymbolEntry, d: ReturnType<typeof day>) => JSON.parse(ALPACA_JSON_ENCODER.dailyBar!(e, d) as string)[0];
  const msgpack = (e: SymbolEntry, d: ReturnType<typeof day>) => unpack(ALPACA_MSGPACK_ENCODER.dailyBar!(e, d) as Uint8Array)[0];

  test("a US stock's day at 00:00 New York of its date, in winter (05:00Z) and summer (04:00Z), JSON and msgpack", () => {
    for (const [date, utc] of [['2026-03-04', '05:00'], ['2026-07-15', '04:00']] as const) {
      const bar = day(date);
      expect(nyMidnight(bar.t)).toBe(Date.parse(`${date}T${utc}:00Z`));
      expect(json(AAPL, bar)).toEqual({ T: 'd', S: 'AAPL', o: 10, h: 12, l: 9, c: 11, v: 500, t: `${date}T${utc}:00.000000000Z` });
      expect(msgpack(AAPL, bar)).toEqual({ T: 'd', S: 'AAPL', o: 10, h: 12, l: 9, c: 11, v: 500, t: new Date(nyMidnight(bar.t)) });
    }
  });

  test("a crypto pair's day stays at 00:00 UTC, as its REST daily bars do", () => {
    const bar = day('2026-03-04');
    expect(json(BTC, bar).t).toBe('2026-03-04T00:00:00.000000000Z');
    expect(msgpack(BTC, bar).t).toEqual(new Date(bar.t));
  });
});
