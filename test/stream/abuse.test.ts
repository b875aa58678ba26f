// Limits under abuse, on a stream server with small limits: a client that stops reading gets nothing
// more and server memory stays bounded; floods, oversized frames and oversubscription are refused.
import { describe, expect, test } from 'bun:test';
import { connect as netConnect } from 'node:net';
import type { Server } from 'bun';
import { ManualClock } from '../../src/clock.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { CLOSE_FLOOD, createStream, type ConnData, type StreamLimits } from '../../src/stream/connections.ts';
import { StreamHub } from '../../src/stream/hub.ts';
import { tempDir } from '../support/temp-dir.ts';
import { connect } from '../support/ws-client.ts';
import { until } from '../support/cli.ts';

const KEY = 'abuse-key-123';

async function streamServer(limits: Partial<StreamLimits>) {
  const dir = tempDir();
  const store = Store.open({ dataDir: dir.path });
  seedRegistry(store, CATALOG);
  const clock = new ManualClock(Date.parse('2026-03-04T15:30:00Z'));
  const hub = new StreamHub(clock);
  const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: KEY, devPerMinute: 1000 });
  const stream = createStream({ store, clock, hub, auth, limits });
  const server = Bun.serve<ConnData>({ port: 0, hostname: '127.0.0.1', fetch: (req, srv) => stream.upgrade(req, srv), websocket: stream.websocket });
  hub.attach(server as unknown as Server<unknown>);
  stream.start();
  const btc = store.registry.bySymbolName('BTCUSD')!;
  return {
    url: `ws://127.0.0.1:${server.port}/?apiKey=${KEY}`,
    port: server.port!,
    stream,
    store,
    btc: store.registry.bySymbolName('BTCUSD')!,
    /** Publishes `n` BTCUSD quotes through the hub, as the pipeline would. */
    publish(n: number) {
      for (let i = 0; i < n; i++) hub.onQuote(btc, i + 1, { tsMs: 1_772_638_200_000 + i, bid: 95000 + i, ask: 95001 + i, bidSize: 1, askSize: 1 }, null);
    },
    async [Symbol.asyncDispose]() {
      stream.stop();
      await server.stop(true);
      await store.close();
      dir[Symbol.dispose]();
    },
  };
}

describe('stream limits', () => {
  test('a client that stops reading gets nothing more, memory stays bounded, and it is closed once it reads again', async () => {
    await using s = await streamServer({ slowConsumerBytes: 64 * 1024 });
    // A raw client: handshake, subscribe, then stop reading.
    const sock = netConnect(s.port, '127.0.0.1');
    await new Promise<void>((resolve) => sock.once('connect', () => resolve()));
    sock.write(`GET /?apiKey=${KEY} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`);
    await new Promise<void>((resolve) => sock.once('data', () => resolve()));
    const payload = Buffer.from(JSON.stringify({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] }));
    const mask = Buffer.from([1, 2, 3, 4]);
    const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]!));
    sock.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length]), mask, masked]));
    await until(async () => s.stream.subscriptions > 0, 'the subscription'); // then stop reading
    sock.pause();
    expect(s.stream.connections).toBe(1);
    const rssBefore = process.memoryUsage().rss;
    // Found slow: it gets nothing more (its subscriptions end), so more ticks cost it no memory.
    // Each round publishes more, then yields so the sweep can measure the unsent bytes.
    await until(async () => {
      if (s.stream.subscriptions === 0) return true;
      s.publish(2000);
      return false;
    }, 'the server to find the client slow and end its subscriptions', 60_000);
    expect(s.stream.subscriptions).toBe(0);
    for (let round = 0; round < 100; round++) s.publish(2000);
    expect(process.memoryUsage().rss - rssBefore).toBeLessThan(200 * 1024 * 1024);
    // Its close waits for it to read what was queued; reading again, it gets the rest and the close.
    expect(s.stream.connections).toBe(1);
    const ended = new Promise<void>((resolve) => sock.once('close', () => resolve()));
    sock.resume();
    await ended;
    expect(s.stream.connections).toBe(0);
  }, 120_000);

  test('a reading client on the same server keeps its connection while the data flows', async () => {
    await using s = await streamServer({ slowConsumerBytes: 256 * 1024 });
    await using c = await connect(s.url);
    c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
    await c.next((m) => m.type === 'subscribed');
    s.publish(500);
    let last = 0;
    while (last < 500) last = (await c.next((m) => m.type === 'quote')).seq;
    expect(s.stream.connections).toBe(1);
  });

  test('flooding with frames gets an error frame and close code 4029', async () => {
    await using s = await streamServer({ maxFramesPer10s: 20 });
    await using c = await connect(s.url);
    for (let i = 0; i < 25; i++) c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
    expect((await c.next((m) => m.type === 'error')).code).toBe('rate_limited');
    expect((await c.closed).code).toBe(CLOSE_FLOOD);
  });

  test('a frame over 64 KiB closes the connection with 1009', async () => {
    await using s = await streamServer({});
    await using c = await connect(s.url);
    await c.next((m) => m.type === 'ready');
    c.send(JSON.stringify({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'], pad: 'x'.repeat(64 * 1024) }));
    expect((await c.closed).code).toBe(1009);
  });

  test('subscriptions beyond the limit are refused as a whole', async () => {
    await using s = await streamServer({ maxSubscriptions: 3 });
    await using c = await connect(s.url);
    c.send({ action: 'subscribe', channels: ['crypto.quotes', 'crypto.trades'], symbols: ['BTCUSD', 'ETHUSD'] });
    const err = await c.next((m) => m.type === 'error');
    expect(err.code).toBe('too_many_subscriptions');
    c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD', 'ETHUSD'] });
    expect((await c.next((m) => m.type === 'subscribed')).subscriptions.length).toBe(2);
  });

  test('more ticks missed than the replay cap: the newest are replayed and the ack reports the gap before them', async () => {
    await using s = await streamServer({ maxReplay: 10 });
    for (let i = 1; i <= 50; i++) s.store.appendQuote(s.btc.id, 1_772_638_200_000 + i, 95000 + i, 95001 + i, 1, 1);
    await using c = await connect(s.url);
    c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'], since: 5 });
    const seqs: number[] = [];
    for (let i = 0; i < 10; i++) seqs.push((await c.next((m) => m.type === 'quote')).seq);
    expect(seqs).toEqual([41, 42, 43, 44, 45, 46, 47, 48, 49, 50]);
    const ack = await c.next((m) => m.type === 'subscribed');
    expect(ack.replay).toEqual([{ channel: 'crypto.quotes', symbol: 'BTCUSD', since: 5, replayed: 10, first_seq: 41, gap: true }]);
  });

  test('replay per connection is bounded per 10 s: resubscribing with since does not multiply it', async () => {
    await using s = await streamServer({ maxReplay: 10 });
    for (let i = 1; i <= 50; i++) s.store.appendQuote(s.btc.id, 1_772_638_200_000 + i, 95000 + i, 95001 + i, 1, 1);
    await using c = await connect(s.url);
    const replays: unknown[] = [];
    // 4 × max_replay = 40 ticks per 10 s: four full replays, then the rest get none and say so.
    for (let round = 0; round < 5; round++) {
      c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'], since: 5 });
      replays.push((await c.next((m) => m.type === 'subscribed')).replay[0]);
      c.send({ action: 'unsubscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
      await c.next((m) => m.type === 'unsubscribed');
    }
    const full = { channel: 'crypto.quotes', symbol: 'BTCUSD', since: 5, replayed: 10, first_seq: 41, gap: true };
    expect(replays).toEqual([full, full, full, full, { ...full, replayed: 0, first_seq: 51 }]);
    expect(c.messages.filter((m) => m.type === 'quote').length).toBe(40);
  });

  test('connections beyond the per-key limit are refused with 429', async () => {
    await using s = await streamServer({ maxConnectionsPerKey: 2 });
    await using a = await connect(s.url);
    await using b = await connect(s.url);
    await a.next((m) => m.type === 'ready');
    await b.next((m) => m.type === 'ready');
    const res = await fetch(s.url.replace('ws', 'http'), { headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } });
    expect(res.status).toBe(429);
  });
});
