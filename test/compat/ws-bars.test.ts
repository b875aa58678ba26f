// Minute bars on the compatibility dialects over a real server: a fake feed prints trades and quotes
// with chosen times, a price of the next minute seals the minute, and the Massive aggregate
// (`AM`, `XA`, `CA`) or Alpaca bar (`b`, `d`) streamed for it equals the native REST bars of that
// minute (and day). The official SDKs receive them unmodified. No clock waits: sealing is by price.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { websocketClient } from '@massive.com/client-js';
import { Alpaca, type streaming } from '@alpacahq/alpaca-trade-api';
import type { FeedInstrument } from '../../src/domain/feed.ts';
import { FakeFeed } from '../support/fake-feed.ts';
import { startServer, WEDNESDAY_US_OPEN, type TestServer } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';
import { connectVendor, type VendorWs } from '../support/vendor-ws.ts';
import { nyMidnight } from './ny-midnight.ts';

const MINUTE = 60_000;
const T0 = Date.parse(WEDNESDAY_US_OPEN);
const DAY = WEDNESDAY_US_OPEN.slice(0, 10);
const INSTRUMENTS: FeedInstrument[] = [
  { assetClass: 'stocks', symbol: 'US:AAPL', venueSymbol: 'AAPL' },
  { assetClass: 'stocks', symbol: 'US:MSFT', venueSymbol: 'MSFT' },
  { assetClass: 'crypto', symbol: 'BTCUSD', venueSymbol: 'BTC-USD' },
  { assetClass: 'forex', symbol: 'EURUSD', venueSymbol: 'EUR/USD' },
  { assetClass: 'indices', symbol: 'US500', venueSymbol: 'SPX' },
];
const feed = new FakeFeed('fake', INSTRUMENTS);
let server: TestServer;
let wsBase: string;
/**
 * Each test trades its own minutes, later than the last test's, so no minute is shared. The
 * server's clock starts at T0 and runs: minutes from T0 + 2 on are not due by time for minutes.
 */
let nextMinute = T0 + 2 * MINUTE;
const takeMinute = () => ((nextMinute += 2 * MINUTE), nextMinute - 2 * MINUTE);

beforeAll(async () => {
  server = await startServer({ args: ['--feed', 'none'], feeds: [feed] });
  wsBase = server.base.replace('http', 'ws');
});
afterAll(() => server.stop());

type RestBar = { o: number; h: number; l: number; c: number; v?: number | null; t: number };

/** The native REST bars of the test day, oldest first. */
async function restBars(cls: string, symbol: string, span: 'minute' | 'day'): Promise<RestBar[]> {
  const { status, body } = await server.json(`/${cls}/agg/${symbol}/1/${span}/${DAY}/${DAY}?sort=asc&limit=5000`);
  expect(status).toBe(200);
  return body.results;
}

async function restMinute(cls: string, symbol: string, t: number): Promise<RestBar> {
  const bar = (await restBars(cls, symbol, 'minute')).find((b) => b.t === t);
  expect(bar).toBeDefined();
  return bar!;
}

/** Trades `prices` (size 10, 20, ...) inside the minute starting at `t`. */
function tradeMinute(symbol: string, t: number, prices: number[]): void {
  prices.forEach((p, i) => feed.trade(symbol, t + 1000 * (i + 1), p, 10 * (i + 1)));
}

/** A price of the next minute seals the minute starting at `t`. */
const sealWithTrade = (symbol: string, t: number, price: number) => feed.trade(symbol, t + MINUTE + 500, price, 1);

async function massive(cluster: string): Promise<VendorWs> {
  const c = await connectVendor(`${wsBase}/compat/massive/${cluster}`);
  await c.next((e) => e.status === 'connected');
  c.send({ action: 'auth', params: server.key });
  await c.next((e) => e.status === 'auth_success');
  return c;
}

async function alpaca(path: string): Promise<VendorWs> {
  const c = await connectVendor(`${wsBase}/compat/alpaca${path}`);
  await c.next((e) => e.T === 'success');
  c.send({ action: 'auth', key: server.key, secret: 'x' });
  await c.next((e) => e.msg === 'authenticated');
  return c;
}

const rfc3339 = (ms: number) => new Date(ms).toISOString().replace('Z', '000000Z');

describe('Massive per-minute aggregates (raw protocol)', () => {
  test('AM.AAPL: the sealed minute equals the REST 1-minute bar; av is the day volume so far', async () => {
    await using c = await massive('stocks');
    c.send({ action: 'subscribe', params: 'AM.AAPL' });
    expect(await c.next((e) => e.ev === 'status')).toEqual({ ev: 'status', status: 'success', message: 'subscribed to: AM.AAPL' });
    const t = takeMinute();
    tradeMinute('US:AAPL', t, [190.1, 190.6, 189.9, 190.3]);
    // Nothing is sent for the minute while it is open.
    expect(c.seen.filter((e) => e.ev === 'AM' && e.s === t)).toEqual([]);
    const before = c.seen.length;
    sealWithTrade('US:AAPL', t, 190.4);
    const am = await c.next((e) => e.ev === 'AM' && e.s === t);
    expect(c.seen.slice(before).filter((e) => e.ev === 'AM' && e.s === t)).toHaveLength(1);
    const rest = await restMinute('stocks', 'US:AAPL', t);
    const dayVolume = (await restBars('stocks', 'US:AAPL', 'minute')).filter((b) => b.t <= t).reduce((sum, b) => sum + (b.v ?? 0), 0);
    expect(am).toEqual({ ev: 'AM', sym: 'AAPL', v: rest.v, av: dayVolume, o: rest.o, h: rest.h, l: rest.l, c: rest.c, s: t, e: t + MINUTE });
    expect(rest).toMatchObject({ o: 190.1, h: 190.6, l: 189.9, c: 190.3, v: 100 });
  });

  test('XA.BTC-USD and CA.EUR/USD equal the REST bars; forex bars carry no volume', async () => {
    await using crypto = await massive('crypto');
    await using forex = await massive('forex');
    crypto.send({ action: 'subscribe', params: 'XA.BTC-USD' });
    forex.send({ action: 'subscribe', params: 'CA.EUR/USD' });
    expect(await crypto.next((e) => e.ev === 'status')).toMatchObject({ status: 'success', message: 'subscribed to: XA.BTC-USD' });
    expect(await forex.next((e) => e.ev === 'status')).toMatchObject({ status: 'success', message: 'subscribed to: CA.EUR/USD' });
    const t = takeMinute();
    tradeMinute('BTCUSD', t, [95000.5, 95010, 94990.25]);
    feed.quote('EURUSD', t + 1000, 1.0801, 1.0803);
    feed.quote('EURUSD', t + 2000, 1.0807, 1.0809);
    feed.quote('EURUSD', t + 3000, 1.0799, 1.0801);
    sealWithTrade('BTCUSD', t, 95001);
    feed.quote('EURUSD', t + MINUTE + 500, 1.0802, 1.0804);

    const xa = await crypto.next((e) => e.ev === 'XA' && e.s === t);
    const btc = await restMinute('crypto', 'BTCUSD', t);
    expect(xa).toEqual({ ev: 'XA', pair: 'BTC-USD', o: btc.o, h: btc.h, l: btc.l, c: btc.c, v: btc.v, s: t, e: t + MINUTE });
    const ca = await forex.next((e) => e.ev === 'CA' && e.s === t);
    const eur = await restMinute('forex', 'EURUSD', t);
    expect(eur.v ?? null).toBeNull();
    expect(ca).toEqual({ ev: 'CA', pair: 'EUR/USD', o: eur.o, h: eur.h, l: eur.l, c: eur.c, s: t, e: t + MINUTE });
    expect([eur.o, eur.h, eur.l, eur.c]).toEqual([1.0802, 1.0808, 1.08, 1.08]);
  });

  test('AM.* streams every stock under its own ticker; indices AM.I:SPX is the index mid bar', async () => {
    await using stocks = await massive('stocks');
    await using indices = await massive('indices');
    stocks.send({ action: 'subscribe', params: 'AM.*' });
    indices.send({ action: 'subscribe', params: 'AM.I:SPX' });
    await stocks.next((e) => e.ev === 'status');
    expect(await indices.next((e) => e.ev === 'status')).toMatchObject({ status: 'success', message: 'subscribed to: AM.I:SPX' });
    const t = takeMinute();
    tradeMinute('US:AAPL', t, [191, 191.5]);
    tradeMinute('US:MSFT', t, [410, 409.5]);
    feed.quote('US500', t + 1000, 6800.1, 6800.5);
    sealWithTrade('US:AAPL', t, 191.2);
    sealWithTrade('US:MSFT', t, 409.8);
    feed.quote('US500', t + MINUTE + 500, 6801, 6801.4);
    const got = [await stocks.next((e) => e.ev === 'AM' && e.s === t), await stocks.next((e) => e.ev === 'AM' && e.s === t)];
    expect(got.map((e) => e.sym).sort()).toEqual(['AAPL', 'MSFT']);
    const msft = await restMinute('stocks', 'US:MSFT', t);
    expect(got.find((e) => e.sym === 'MSFT')).toMatchObject({ o: msft.o, h: msft.h, l: msft.l, c: msft.c, v: msft.v, s: t });
    const spx = await indices.next((e) => e.ev === 'AM' && e.s === t);
    const us500 = await restMinute('indices', 'US500', t);
    expect(spx).toEqual({ ev: 'AM', sym: 'I:SPX', o: us500.o, h: us500.h, l: us500.l, c: us500.c, s: t, e: t + MINUTE });
  });

  test('after unsubscribe no more aggregates arrive; the native stream has no bar channel', async () => {
    await using c = await massive('stocks');
    c.send({ action: 'subscribe', params: 'AM.AAPL,T.AAPL' });
    await c.next((e) => e.ev === 'status');
    await c.next((e) => e.ev === 'status');
    c.send({ action: 'unsubscribe', params: 'AM.AAPL' });
    expect(await c.next((e) => e.ev === 'status')).toEqual({ ev: 'status', status: 'success', message: 'unsubscribed to: AM.AAPL' });
    const t = takeMinute();
    tradeMinute('US:AAPL', t, [192]);
    sealWithTrade('US:AAPL', t, 192.5);
    // Trades keep their order on the connection: once the sealing trade is here, an AM would be too.
    await c.next((e) => e.ev === 'T' && e.p === 192.5);
    expect(c.seen.filter((e) => e.ev === 'AM')).toEqual([]);

    await using native = await connect(`${wsBase}/?apiKey=${server.key}`);
    await native.next((m) => m.type === 'ready');
    native.send({ action: 'subscribe', channels: ['stocks.bars'], symbols: ['US:AAPL'] });
    expect(await native.next((m) => m.type === 'error')).toMatchObject({ code: 'unknown_channel' });
  });
});

describe('Alpaca bars (raw protocol)', () => {
  test('JSON: bars and dailyBars of BTC/USD equal the REST minute and the day rolled up to it', async () => {
    await using c = await alpaca('/v1beta3/crypto/us');
    c.send({ action: 'subscribe', bars: ['BTC/USD'], dailyBars: ['BTC/USD'] });
    expect(await c.next((e) => e.T === 'subscription')).toEqual({ T: 'subscription', trades: [], quotes: [], bars: ['BTC/USD'], updatedBars: [], dailyBars: ['BTC/USD'], orderbooks: [] });
    const t = takeMinute();
    tradeMinute('BTCUSD', t, [96000, 96100.5, 95950]);
    sealWithTrade('BTCUSD', t, 96020);
    // A minute's bar comes first, then the day's bar it updated.
    const bar = await c.next((e) => e.T === 'b' && e.t === rfc3339(t));
    const rest = await restMinute('crypto', 'BTCUSD', t);
    expect(bar).toEqual({ T: 'b', S: 'BTC/USD', o: rest.o, h: rest.h, l: rest.l, c: rest.c, v: rest.v, t: rfc3339(t) });
    const daily = await c.next((e) => e.T === 'd' && c.seen.indexOf(e) > c.seen.indexOf(bar));
    const minutes = (await restBars('crypto', 'BTCUSD', 'minute')).filter((b) => b.t <= t);
    const [day] = await restBars('crypto', 'BTCUSD', 'day');
    expect(daily).toEqual({
      T: 'd',
      S: 'BTC/USD',
      o: minutes[0]!.o,
      h: Math.max(...minutes.map((b) => b.h)),
      l: Math.min(...minutes.map((b) => b.l)),
      c: rest.c,
      v: minutes.reduce((sum, b) => sum + b.v!, 0),
      t: rfc3339(day!.t),
    });
  });

  test('updatedBars stay 409 (mds never revises a sealed bar); bars of the others still apply', async () => {
    await using c = await alpaca('/v2/iex');
    c.send({ action: 'subscribe', bars: ['AAPL'], updatedBars: ['AAPL'] });
    await c.next((e) => e.T === 'subscription');
    expect(c.frames.at(-1)).toEqual([
      { T: 'error', code: 409, msg: 'insufficient subscription' },
      { T: 'subscription', trades: [], quotes: [], bars: ['AAPL'], updatedBars: [], dailyBars: [], statuses: [], lulds: [], corrections: [], cancelErrors: [] },
    ]);
    c.send({ action: 'unsubscribe', bars: ['AAPL'] });
    expect(await c.next((e) => e.T === 'subscription')).toMatchObject({ bars: [] });
  });
});

describe('the official SDKs', () => {
  test('@massive.com/client-js: AM events of AAPL equal the REST minute bar', async () => {
    const socket = websocketClient(server.key, `${wsBase}/compat/massive`).stocks();
    const events: any[] = [];
    const waiters: (() => void)[] = [];
    socket.onmessage = (m: { data: unknown }) => {
      events.push(...(JSON.parse(String(m.data)) as any[]));
      for (const w of waiters.splice(0)) w();
    };
    const until = async (match: (e: any) => boolean) => {
      for (let i = 0; i < 200; i++) {
        const found = events.find(match);
        if (found) return found;
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
      throw new Error(`no matching event; seen ${JSON.stringify(events.slice(-3))}`);
    };
    try {
      await until((e) => e.status === 'auth_success');
      socket.send(JSON.stringify({ action: 'subscribe', params: 'AM.AAPL' }));
      await until((e) => e.status === 'success');
      const t = takeMinute();
      tradeMinute('US:AAPL', t, [193, 193.4, 192.8]);
      sealWithTrade('US:AAPL', t, 193.1);
      const am = await until((e) => e.ev === 'AM' && e.s === t);
      const rest = await restMinute('stocks', 'US:AAPL', t);
      expect(am).toMatchObject({ ev: 'AM', sym: 'AAPL', o: rest.o, h: rest.h, l: rest.l, c: rest.c, v: rest.v, s: t, e: t + MINUTE });
    } finally {
      socket.close();
    }
  });

  test('@alpacahq/alpaca-trade-api (msgpack): onBar and onDailyBar of AAPL equal the REST bars, the day at New York midnight', async () => {
    const client = new Alpaca({ keyId: server.key, secret: 'not-checked' });
    const stream = client.marketData.stockStream({ url: `${wsBase}/compat/alpaca/v2/iex`, reconnect: false });
    const first = <T>(register: (fn: (v: T) => void) => void) =>
      new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no value within 15 s')), 15_000);
        let done = false;
        register((v) => {
          if (done) return;
          done = true;
          clearTimeout(timer);
          resolve(v);
        });
      });
    try {
      const subscribed = first<Record<string, string[]>>((fn) => stream.on('subscription', (s: Record<string, string[]>) => s.dailyBars!.length > 0 && fn(s)));
      stream.onConnect(() => {
        stream.subscribeForBars(['AAPL']);
        stream.subscribeForDailyBars(['AAPL']);
      });
      // Bars and daily bars in the order they came: each minute's bar, then the day's it updated.
      const got: { kind: 'b' | 'd'; bar: streaming.StreamBar }[] = [];
      let arrived = () => {};
      stream.onBar((bar) => (got.push({ kind: 'b', bar }), arrived()));
      stream.onDailyBar((bar) => (got.push({ kind: 'd', bar }), arrived()));
      const after = async (find: () => number) => {
        for (let i = 0; i < 100 && find() < 0; i++) await new Promise<void>((resolve) => (arrived = resolve));
        expect(find()).toBeGreaterThanOrEqual(0);
        return find();
      };
      stream.connect();
      expect(await subscribed).toMatchObject({ bars: ['AAPL'], dailyBars: ['AAPL'] });
      const t = takeMinute();
      tradeMinute('US:AAPL', t, [194, 194.2, 193.7, 193.9]);
      sealWithTrade('US:AAPL', t, 194.1);
      const at = await after(() => got.findIndex((g) => g.kind === 'b' && g.bar.timestamp.getTime() === t));
      const b = got[at]!.bar;
      const rest = await restMinute('stocks', 'US:AAPL', t);
      expect({ symbol: b.symbol, o: b.open, h: b.high, l: b.low, c: b.close, v: b.volume, t: b.timestamp.getTime(), n: b.tradeCount, vw: b.vwap }).toEqual({ symbol: 'AAPL', ...rest, v: rest.v!, n: undefined, vw: undefined });
      const d = got[await after(() => got.findIndex((g, i) => i > at && g.kind === 'd'))]!.bar;
      const minutes = (await restBars('stocks', 'US:AAPL', 'minute')).filter((m) => m.t <= t);
      const [day] = await restBars('stocks', 'US:AAPL', 'day');
      expect({ o: d.open, h: d.high, l: d.low, c: d.close, v: d.volume, t: d.timestamp.getTime() }).toEqual({
        o: minutes[0]!.o,
        h: Math.max(...minutes.map((m) => m.h)),
        l: Math.min(...minutes.map((m) => m.l)),
        c: rest.c,
        v: minutes.reduce((sum, m) => sum + m.v!, 0),
        // A US stock's day is stamped at New York midnight of its date, as the Alpaca REST dialect stamps it.
        t: nyMidnight(day!.t),
      });
    } finally {
      stream.disconnect();
    }
  });
});
