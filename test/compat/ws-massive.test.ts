// The Massive (formerly Polygon.io) WebSocket dialect over a real server: the official SDK,
// unmodified, pointed at /compat/massive by its documented base-URL argument, receives trades and
// quotes equal to the native stream's ticks of the same sequence number; raw-protocol tests hold
// the status messages, params syntax, wildcards, limits and entitlements.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { websocketClient } from '@massive.com/client-js';
import { startServer, type TestServer } from '../support/server.ts';
import { createKeyOn } from '../support/cli.ts';
import { connect, type WsClient } from '../support/ws-client.ts';
import { connectVendor, type VendorWs } from '../support/vendor-ws.ts';

let server: TestServer;
let wsBase: string;
beforeAll(async () => {
  server = await startServer();
  wsBase = server.base.replace('http', 'ws');
});
afterAll(() => server.stop());

/** A native connection subscribed to the pairs, before the dialect's: it sees every tick the dialect does. */
async function nativeOn(channels: string[], symbols: string[]): Promise<WsClient> {
  const native = await connect(`${wsBase}/?apiKey=${server.key}`);
  await native.next((m) => m.type === 'ready');
  native.send({ action: 'subscribe', channels, symbols });
  await native.next((m) => m.type === 'subscribed');
  return native;
}

/** The official SDK's socket for a cluster, its events queued one by one. */
function sdkEvents(socket: { onmessage: ((m: { data: unknown }) => void) | null; send(data: string): void; close(): void }) {
  const queue: any[] = [];
  const waiters: { match: (e: any) => boolean; resolve: (e: any) => void }[] = [];
  socket.onmessage = (m) => {
    for (const e of JSON.parse(String(m.data)) as any[]) {
      const at = waiters.findIndex((w) => w.match(e));
      if (at >= 0) waiters.splice(at, 1)[0]!.resolve(e);
      else queue.push(e);
    }
  };
  return {
    next: (match: (e: any) => boolean) =>
      new Promise<any>((resolve, reject) => {
        const at = queue.findIndex(match);
        if (at >= 0) return resolve(queue.splice(at, 1)[0]);
        const timer = setTimeout(() => reject(new Error(`no matching event; queued: ${JSON.stringify(queue.slice(-3))}`)), 15_000);
        waiters.push({ match, resolve: (e) => (clearTimeout(timer), resolve(e)) });
      }),
    send: (frame: unknown) => socket.send(JSON.stringify(frame)),
    close: () => socket.close(),
  };
}

async function authed(cluster: string, key = server.key): Promise<VendorWs> {
  const c = await connectVendor(`${wsBase}/compat/massive/${cluster}`);
  expect(await c.next()).toEqual({ ev: 'status', status: 'connected', message: 'Connected Successfully' });
  c.send({ action: 'auth', params: key });
  expect(await c.next()).toEqual({ ev: 'status', status: 'auth_success', message: 'authenticated' });
  return c;
}

const isStatus = (e: any) => e.ev === 'status';

describe('the official SDK (@massive.com/client-js websocketClient with a base URL)', () => {
  test('stocks: T and Q events of AAPL equal the native trade and quote of the same seq', async () => {
    await using native = await nativeOn(['stocks.trades', 'stocks.quotes'], ['US:AAPL']);
    const sdk = sdkEvents(websocketClient(server.key, `${wsBase}/compat/massive`).stocks());
    try {
      expect(await sdk.next(isStatus)).toEqual({ ev: 'status', status: 'connected', message: 'Connected Successfully' });
      expect(await sdk.next(isStatus)).toEqual({ ev: 'status', status: 'auth_success', message: 'authenticated' });
      // The SDK authenticates on open; subscribing is the caller's frame, as the vendor documents.
      sdk.send({ action: 'subscribe', params: 'T.AAPL,Q.AAPL' });
      expect(await sdk.next(isStatus)).toEqual({ ev: 'status', status: 'success', message: 'subscribed to: T.AAPL' });
      expect(await sdk.next(isStatus)).toEqual({ ev: 'status', status: 'success', message: 'subscribed to: Q.AAPL' });
      const trade = await sdk.next((e) => e.ev === 'T');
      const nativeTrade = await native.next((m) => m.type === 'trade' && m.seq === trade.q);
      expect(trade).toEqual({ ev: 'T', sym: 'AAPL', i: String(nativeTrade.seq), p: nativeTrade.price, s: nativeTrade.size, t: nativeTrade.ts, q: nativeTrade.seq });
      const quote = await sdk.next((e) => e.ev === 'Q');
      const nativeQuote = await native.next((m) => m.type === 'quote' && m.seq === quote.q);
      expect(quote).toEqual({ ev: 'Q', sym: 'AAPL', bp: nativeQuote.bid, bs: nativeQuote.bid_size, ap: nativeQuote.ask, as: nativeQuote.ask_size, t: nativeQuote.ts, q: nativeQuote.seq });
    } finally {
      sdk.close();
    }
  });

  test('crypto: XT and XQ events of BTC-USD equal the native ticks (matched by time and values)', async () => {
    await using native = await nativeOn(['crypto.trades', 'crypto.quotes'], ['BTCUSD']);
    const sdk = sdkEvents(websocketClient(server.key, `${wsBase}/compat/massive`).crypto());
    try {
      expect(await sdk.next(isStatus)).toMatchObject({ status: 'connected' });
      expect(await sdk.next(isStatus)).toMatchObject({ status: 'auth_success' });
      sdk.send({ action: 'subscribe', params: 'XT.BTC-USD,XQ.BTC-USD' });
      const trade = await sdk.next((e) => e.ev === 'XT');
      const nativeTrade = await native.next((m) => m.type === 'trade' && m.seq === trade.i);
      expect(trade).toEqual({ ev: 'XT', pair: 'BTC-USD', p: nativeTrade.price, t: nativeTrade.ts, s: nativeTrade.size, i: nativeTrade.seq });
      const quote = await sdk.next((e) => e.ev === 'XQ');
      const nativeQuote = await native.next((m) => m.type === 'quote' && m.ts === quote.t && m.bid === quote.bp && m.ask === quote.ap);
      expect(quote).toEqual({ ev: 'XQ', pair: 'BTC-USD', bp: nativeQuote.bid, bs: nativeQuote.bid_size, ap: nativeQuote.ask, as: nativeQuote.ask_size, t: nativeQuote.ts });
    } finally {
      sdk.close();
    }
  });
});

describe('raw protocol', () => {
  test('forex C events carry the pair with a slash, ask and bid', async () => {
    await using native = await nativeOn(['forex.quotes'], ['EURUSD']);
    await using c = await authed('forex');
    c.send({ action: 'subscribe', params: 'C.EUR/USD' });
    expect(await c.next(isStatus)).toEqual({ ev: 'status', status: 'success', message: 'subscribed to: C.EUR/USD' });
    const quote = await c.next((e) => e.ev === 'C');
    const nativeQuote = await native.next((m) => m.type === 'quote' && m.ts === quote.t && m.bid === quote.b);
    expect(quote).toEqual({ ev: 'C', p: 'EUR/USD', a: nativeQuote.ask, b: nativeQuote.bid, t: nativeQuote.ts });
  });

  test('indices: V.I:SPX streams the US 500 index value (its mid) as I:SPX', async () => {
    await using native = await nativeOn(['indices.quotes'], ['US500']);
    await using c = await authed('indices');
    c.send({ action: 'subscribe', params: 'V.I:SPX' });
    expect(await c.next(isStatus)).toEqual({ ev: 'status', status: 'success', message: 'subscribed to: V.I:SPX' });
    const value = await c.next((e) => e.ev === 'V');
    const nativeQuote = await native.next((m) => m.type === 'quote' && m.ts === value.t);
    expect(value).toEqual({ ev: 'V', val: Math.round(((nativeQuote.bid + nativeQuote.ask) / 2) * 1000) / 1000, T: 'I:SPX', t: nativeQuote.ts });
  });

  test('a wrong key gets auth_failed, and subscribing before auth is refused', async () => {
    await using c = await connectVendor(`${wsBase}/compat/massive/stocks`);
    expect(await c.next()).toMatchObject({ status: 'connected' });
    c.send({ action: 'subscribe', params: 'T.AAPL' });
    expect(await c.next()).toEqual({ ev: 'status', status: 'error', message: 'not authorized: send {"action":"auth","params":"<API key>"} first' });
    c.send({ action: 'auth', params: 'wrong-key-000' });
    expect(await c.next()).toEqual({ ev: 'status', status: 'auth_failed', message: 'authentication failed: invalid API key' });
  });

  test('bad params are refused one by one; the good ones are subscribed', async () => {
    await using c = await authed('stocks');
    c.send({ action: 'subscribe', params: 'T.AAPL, A.AAPL,XT.BTC-USD,T.NOPE123,Q' });
    await c.next((e) => isStatus(e) && e.message.startsWith('unknown ticker'));
    expect(c.frames.at(-1)).toEqual([
      { ev: 'status', status: 'success', message: 'subscribed to: T.AAPL' },
      { ev: 'status', status: 'error', message: 'A.AAPL: per-second aggregates are not offered on this server (mds builds bars by the minute): subscribe to the per-minute aggregates' },
      { ev: 'status', status: 'error', message: 'unknown event type "XT" for the stocks cluster: it offers T, Q, AM' },
      { ev: 'status', status: 'error', message: 'unknown ticker in T.NOPE123' },
      { ev: 'status', status: 'error', message: 'unknown ticker in Q' },
    ]);
    c.send('not json');
    expect(await c.next((e) => isStatus(e) && e.message.startsWith('could not'))).toEqual({ ev: 'status', status: 'error', message: 'could not parse message: send JSON such as {"action":"subscribe","params":"T.AAPL"}' });
    c.send({ action: 'listen', params: 'T.AAPL' });
    expect(await c.next((e) => isStatus(e) && e.message.startsWith('unknown action'))).toEqual({ ev: 'status', status: 'error', message: 'unknown action "listen": actions are auth, subscribe, unsubscribe' });
  });

  test('after unsubscribe is acknowledged, no more events of that param arrive', async () => {
    await using c = await authed('crypto');
    c.send({ action: 'subscribe', params: 'XQ.BTC-USD,XQ.ETH-USD' });
    await c.next(isStatus);
    await c.next(isStatus);
    await c.next((e) => e.ev === 'XQ' && e.pair === 'BTC-USD');
    c.send({ action: 'unsubscribe', params: 'XQ.BTC-USD' });
    expect(await c.next((e) => isStatus(e))).toEqual({ ev: 'status', status: 'success', message: 'unsubscribed to: XQ.BTC-USD' });
    const acked = c.seen.length;
    // Events on one connection keep their order: everything after the ack follows the unsubscribe.
    for (let i = 0; i < 5; i++) await c.next((e) => e.ev === 'XQ' && e.pair === 'ETH-USD');
    expect(c.seen.slice(acked).filter((e) => e.pair === 'BTC-USD')).toEqual([]);
  });

  test('a wildcard (XQ.*) streams every pair, each under its own name', async () => {
    await using c = await authed('crypto');
    c.send({ action: 'subscribe', params: 'XQ.*' });
    expect(await c.next(isStatus)).toEqual({ ev: 'status', status: 'success', message: 'subscribed to: XQ.*' });
    const pairs = new Set<string>();
    while (pairs.size < 3) pairs.add((await c.next((e) => e.ev === 'XQ')).pair);
    for (const pair of pairs) expect(pair).toMatch(/^[A-Z0-9]+-[A-Z]{3}$/);
  });

  test('a class outside the plan is refused per param; the connection limit answers max_connections', async () => {
    const { key } = await createKeyOn(server, '--plan', 'free');
    await using c = await authed('indices', key);
    c.send({ action: 'subscribe', params: 'V.I:SPX' });
    expect(await c.next(isStatus)).toEqual({ ev: 'status', status: 'error', message: 'not authorized for V.I:SPX: asset class indices is not included in the free plan' });
    // The free plan has 2 stream connections: this key's native and dialect connections count together.
    await using native = await connect(`${wsBase}/?apiKey=${key}`);
    await native.next((m) => m.type === 'ready');
    await using third = await connectVendor(`${wsBase}/compat/massive/stocks`);
    await third.next();
    third.send({ action: 'auth', params: key });
    expect(await third.next()).toEqual({ ev: 'status', status: 'max_connections', message: 'Maximum number of websocket connections exceeded. You have reached the connection limit for your key.' });
    expect((await third.closed).code).toBe(1008);
  });

  test('a plain GET on a cluster path is the REST 404, not an upgrade', async () => {
    const res = await server.get('/compat/massive/stocks');
    expect(res.status).toBe(404);
  });
});
