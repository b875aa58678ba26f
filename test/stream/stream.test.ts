// The WebSocket stream over real connections to a real server (clock from Wed 2026-03-04 15:30 UTC:
// crypto, forex, US stocks, indices, ETFs and commodities all trade).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';
import { OPCODE, rawConnect } from '../support/raw-ws.ts';

const HEARTBEAT_MS = 300;

let server: TestServer;
let wsBase: string;
beforeAll(async () => {
  server = await startServer({ args: ['--heartbeat-ms', String(HEARTBEAT_MS)] });
  wsBase = server.base.replace('http', 'ws');
});
afterAll(() => server.stop());

const isType = (type: string) => (m: any) => m.type === type;

describe('connection', () => {
  test('ready frame states the session, server time and limits', async () => {
    await using c = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
    const ready = await c.next(isType('ready'));
    expect(ready).toMatchObject({ type: 'ready', format: 'json', version: '1.0.0' });
    expect(typeof ready.session_id).toBe('string');
    expect(ready.server_time).toBeGreaterThanOrEqual(Date.parse('2026-03-04T15:30:00Z'));
    expect(Object.keys(ready.limits).sort()).toEqual(['heartbeat_ms', 'max_connections', 'max_frames_per_10s', 'max_replay', 'max_subscriptions', 'slow_consumer_bytes']);
    expect(ready.channels).toContain('etfs.quotes');
  });

  test('a JSON heartbeat frame arrives at the heartbeat interval the ready frame states', async () => {
    await using c = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
    expect((await c.next(isType('ready'))).limits.heartbeat_ms).toBe(HEARTBEAT_MS);
    const a = await c.next(isType('heartbeat'));
    const b = await c.next(isType('heartbeat'));
    expect(Object.keys(a)).toEqual(['type', 'ts']);
    expect(b.ts).toBeGreaterThan(a.ts);
  });

  test('the server pings each connection with every heartbeat', async () => {
    await using raw = await rawConnect(server.port, `/?apiKey=${TEST_KEY}`);
    await raw.next((f) => f.opcode === OPCODE.ping);
    await raw.next((f) => f.opcode === OPCODE.ping);
  });

  test.each([
    ['', 401, 'missing API key'],
    ['?apiKey=wrong-key-000', 401, 'invalid API key'],
    [`?apiKey=${TEST_KEY}&format=xml`, 400, 'invalid format'],
  ])('upgrade %p is refused with %d', async (query, status, message) => {
    const res = await fetch(`${server.base}/${query}`, {
      headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' },
    });
    expect(res.status).toBe(status);
    expect(((await res.json()) as { error: string }).error).toStartWith(message);
  });
});

describe('subscriptions', () => {
  test.each([
    ['crypto.quotes', 'BTCUSD', 'crypto'],
    ['forex.quotes', 'EURUSD', 'forex'],
    ['stocks.quotes', 'US:AAPL', 'stocks'],
    ['indices.quotes', 'US500', 'indices'],
    ['etfs.quotes', 'US500ETF', 'etfs'],
  ])('%s %s: acknowledged, then quotes with the spec fields', async (channel, symbol, asset) => {
    await using c = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
    c.send({ action: 'subscribe', channels: [channel], symbols: [` ${symbol.toLowerCase()} `], id: 7 });
    expect(await c.next(isType('subscribed'))).toEqual({ type: 'subscribed', id: 7, replayed: 0, subscriptions: [{ channel, symbol }] });
    const q = await c.next(isType('quote'));
    expect(Object.keys(q)).toEqual(['type', 'channel', 'asset', 'symbol', 'bid', 'ask', 'bid_size', 'ask_size', 'ts', 'timestamp', 'seq']);
    expect(q).toMatchObject({ type: 'quote', channel, asset, symbol });
    expect(q.ts).toBe(q.timestamp);
    expect(q.bid).toBeLessThan(q.ask);
  });

  test.each([
    ['crypto.trades', 'crypto'],
    ['stocks.trades', 'stocks'],
    ['commodities.trades', 'commodities'],
  ])('%s (a channel with a tape): trades carry type, channel, asset, symbol, price, size, ts, timestamp, seq', async (channel, asset) => {
    await using c = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
    c.send({ action: 'subscribe', channels: [channel], symbols: ['*'] });
    await c.next(isType('subscribed'));
    const t = await c.next(isType('trade'));
    expect(Object.keys(t)).toEqual(['type', 'channel', 'asset', 'symbol', 'price', 'size', 'ts', 'timestamp', 'seq']);
    expect(t).toMatchObject({ type: 'trade', channel, asset });
    expect(t.price).toBeGreaterThan(0);
    expect(t.ts).toBe(t.timestamp);
  });

  test('forex ts is strictly increasing per symbol', async () => {
    await using c = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
    c.send({ action: 'subscribe', channels: ['forex.quotes'], symbols: ['*'] });
    await c.next(isType('subscribed'));
    const last = new Map<string, number>();
    for (let i = 0; i < 150; i++) {
      const q = await c.next(isType('quote'));
      const prev = last.get(q.symbol);
      if (prev !== undefined) expect(q.ts).toBeGreaterThan(prev);
      last.set(q.symbol, q.ts);
    }
    expect(last.size).toBeGreaterThan(5);
  });

  test('unsubscribe stops delivery for that pair', async () => {
    await using c = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
    c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD', 'ETHUSD'] });
    await c.next(isType('subscribed'));
    await c.next((m) => m.type === 'quote' && m.symbol === 'BTCUSD');
    c.send({ action: 'unsubscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
    expect(await c.next(isType('unsubscribed'))).toEqual({ type: 'unsubscribed', subscriptions: [{ channel: 'crypto.quotes', symbol: 'ETHUSD' }] });
    c.messages.length = 0;
    // ETH keeps coming; after 8 of them (about two seconds of ticks) no BTC has arrived.
    for (let i = 0; i < 8; i++) expect((await c.next(isType('quote'))).symbol).toBe('ETHUSD');
  });

  test('resume: since replays missed ticks from the ring, then goes live without a gap', async () => {
    let lastSeq: number;
    {
      await using first = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
      first.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['SOLUSD'] });
      await first.next(isType('subscribed'));
      lastSeq = (await first.next(isType('quote'))).seq;
    }
    // Let ticks pass while disconnected.
    await fetch(`${server.base}/health`);
    const since = lastSeq - 3;
    await using c = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
    c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['SOLUSD'], since });
    const seqs: number[] = [];
    for (let i = 0; i < 8; i++) seqs.push((await c.next(isType('quote'))).seq);
    const ack = c.messages.find(isType('subscribed')) ?? (await c.next(isType('subscribed')));
    expect(ack.replayed).toBeGreaterThanOrEqual(3);
    expect(seqs[0]).toBe(since + 1);
    seqs.forEach((s, i) => i > 0 && expect(s).toBe(seqs[i - 1]! + 1));
  });

  test('resume: since per channel resumes quotes and trades exactly, though their seqs are separate counters', async () => {
    const last: Record<string, number> = {};
    {
      await using first = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
      first.send({ action: 'subscribe', channels: ['crypto.quotes', 'crypto.trades'], symbols: ['BTCUSD'] });
      await first.next(isType('subscribed'));
      last.quote = (await first.next(isType('quote'))).seq;
      last.trade = (await first.next(isType('trade'))).seq;
    }
    // Ticks of both kinds pass while disconnected.
    {
      await using watcher = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
      watcher.send({ action: 'subscribe', channels: ['crypto.quotes', 'crypto.trades'], symbols: ['BTCUSD'] });
      await watcher.next((m) => m.type === 'trade' && m.seq > last.trade! + 1);
      await watcher.next((m) => m.type === 'quote' && m.seq > last.quote! + 1);
    }
    await using c = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
    c.send({ action: 'subscribe', channels: ['crypto.quotes', 'crypto.trades'], symbols: ['BTCUSD'], since: { 'crypto.quotes': { BTCUSD: last.quote }, 'crypto.trades': { BTCUSD: last.trade } } });
    const ack = await c.next(isType('subscribed'));
    expect(ack.replay).toEqual([
      { channel: 'crypto.quotes', symbol: 'BTCUSD', since: last.quote, replayed: expect.any(Number), first_seq: last.quote! + 1, gap: false },
      { channel: 'crypto.trades', symbol: 'BTCUSD', since: last.trade, replayed: expect.any(Number), first_seq: last.trade! + 1, gap: false },
    ]);
    expect(ack.replay.every((r: { replayed: number }) => r.replayed >= 1)).toBe(true);
    expect((await c.next(isType('quote'))).seq).toBe(last.quote! + 1);
    expect((await c.next(isType('trade'))).seq).toBe(last.trade! + 1);
  });

  test('msgpack frames decode to exactly the JSON messages', async () => {
    await using j = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
    await using m = await connect(`${wsBase}/?apiKey=${TEST_KEY}&format=msgpack`);
    for (const c of [j, m]) c.send({ action: 'subscribe', channels: ['crypto.quotes', 'crypto.trades'], symbols: ['BTCUSD'] });
    await j.next(isType('subscribed'));
    await m.next(isType('subscribed'));
    for (const type of ['quote', 'trade']) {
      const { __binary, ...binary } = await m.next(isType(type));
      expect(__binary).toBe(true);
      const text = await j.next((x) => x.type === type && x.seq === binary.seq);
      expect(binary).toEqual(text);
      expect(Object.keys(binary)).toEqual(Object.keys(text));
    }
  });

  test('msgpack format sends the same messages as binary frames', async () => {
    await using c = await connect(`${wsBase}/?apiKey=${TEST_KEY}&format=msgpack`);
    const ready = await c.next(isType('ready'));
    expect(ready.__binary).toBe(true);
    expect(ready.format).toBe('msgpack');
    c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
    await c.next(isType('subscribed'));
    const q = await c.next(isType('quote'));
    expect(q.__binary).toBe(true);
    expect(q).toMatchObject({ channel: 'crypto.quotes', asset: 'crypto', symbol: 'BTCUSD' });
    expect(q.ts).toBe(q.timestamp);
  });
});

describe('bad frames get error frames and the connection stays open', () => {
  test.each([
    ['not json', 'bad_json'],
    ['[1,2]', 'bad_frame'],
    [{ action: 'dance', channels: ['crypto.quotes'], symbols: ['BTCUSD'] }, 'unknown_action'],
    [{ action: 'subscribe', channels: ['crypto.candles'], symbols: ['BTCUSD'] }, 'unknown_channel'],
    [{ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['NOPEUSD'] }, 'unknown_symbol'],
    [{ action: 'subscribe', channels: ['stocks.quotes'], symbols: ['AAPL'] }, 'invalid_symbol'],
    [{ action: 'subscribe', channels: ['crypto.quotes'], symbols: [] }, 'bad_frame'],
    [{ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'], since: -1 }, 'bad_frame'],
  ])('%p → %s', async (frame, code) => {
    await using c = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
    await c.next(isType('ready'));
    c.send(frame);
    const err = await c.next(isType('error'));
    expect(err.code).toBe(code);
    expect(err.message.length).toBeGreaterThan(10);
    c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
    expect((await c.next(isType('subscribed'))).subscriptions).toEqual([{ channel: 'crypto.quotes', symbol: 'BTCUSD' }]);
  });

  test('a stocks symbol in a crypto channel is refused as unknown and nothing is subscribed', async () => {
    await using c = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
    c.send({ action: 'subscribe', channels: ['crypto.quotes', 'stocks.quotes'], symbols: ['US:AAPL'] });
    expect((await c.next(isType('error'))).code).toBe('unknown_symbol');
    c.send({ action: 'unsubscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
    expect((await c.next(isType('unsubscribed'))).subscriptions).toEqual([]);
  });
});
