// The stream client against a real server, its connections cut on purpose: by the server (a slow
// consumer's close, 4008), by the network (a TCP proxy severs them, or goes silent), and for longer
// than the replay window. Across each cut every seq per pair arrives exactly once, or the client
// says which ones never will (a gap).
// Each test starts a server and waits for its first start's history (up to 120 s on a busy
// machine) before its own waits: the limit of each test is above their sum.
import { describe, expect, test } from 'bun:test';
import { CLOSE_SILENT, MdsClient, MdsError, type MdsStream } from '../../client/src/index.ts';
import { createKeyOn, runMds, until } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { Recorder, Watcher, expectExactlyOnce } from '../support/stream-recorder.ts';
import { startProxy, type TcpProxy } from '../support/tcp-proxy.ts';

const FAST_RETRY = { initialDelayMs: 5, maxDelayMs: 50 };
const CRYPTO = ['crypto.quotes', 'crypto.trades'] as const;

const wsUrl = (server: TestServer) => `${server.base.replace('http', 'ws')}/?apiKey=${server.key}`;
/** A client of the server through the proxy. */
const viaProxy = (server: TestServer, proxy: TcpProxy) => new MdsClient({ baseUrl: `http://127.0.0.1:${proxy.port}`, apiKey: server.key });

/** Waits until the server has sent `ahead` more quotes of the pair than the client has seen. */
async function serverMovesOn(watcher: Watcher, client: Recorder, pair: string, ahead: number): Promise<void> {
  const seen = client.lastSeq(pair);
  await until(async () => watcher.lastSeq(pair) > seen + ahead, `the server to send ${ahead} more ${pair}`, 30_000);
}

async function closed(stream: MdsStream, recorder: Recorder): Promise<void> {
  stream.close();
  await recorder.done;
}

describe('stream client', () => {
  test('the first subscribe starts each pair with its latest tick (snapshot), then live ticks follow in seq order', async () => {
    await using server = await startServer({ args: ['--sim-rate', '20'] });
    const stream = new MdsClient({ baseUrl: server.base, apiKey: server.key }).stream();
    const rec = new Recorder(stream);
    const ack = await stream.subscribe({ channels: 'crypto.quotes', symbols: ['btcusd'] });
    expect(ack.subscriptions).toEqual([{ channel: 'crypto.quotes', symbol: 'BTCUSD' }]);
    expect(ack.snapshots).toBe(1);
    await until(async () => (rec.ticks.get('crypto.quotes|BTCUSD')?.length ?? 0) >= 3, 'live quotes');
    const [snap, ...live] = rec.ticks.get('crypto.quotes|BTCUSD')!;
    expect(snap!.snapshot).toBe(true);
    expect(live.map((t) => t.seq)).toEqual(live.map((_, i) => snap!.seq + 1 + i));
    expect(rec.of('connected')).toEqual([{ type: 'connected', sessionId: expect.any(String), reconnect: false }]);
    await closed(stream, rec);
    expect(rec.of('disconnected').at(-1)).toEqual({ type: 'disconnected', code: 1000, reason: 'closed by the client', reconnectInMs: null });
    expect(rec.error).toBeNull();
  }, 180_000);

  test('network cut (the proxy severs the connection and refuses for a while): every seq per pair arrives exactly once', async () => {
    await using server = await startServer({ args: ['--sim-rate', '100'] });
    await using proxy = await startProxy(server.port);
    const watcher = await Watcher.open(wsUrl(server), [{ channels: [...CRYPTO], symbols: ['BTCUSD', 'ETHUSD'] }]);
    const stream = viaProxy(server, proxy).stream({ backoff: FAST_RETRY });
    const rec = new Recorder(stream);
    await stream.subscribe({ channels: [...CRYPTO], symbols: ['BTCUSD', 'ETHUSD'] });
    await until(async () => rec.lastSeq('crypto.quotes|BTCUSD') > 0, 'quotes through the proxy');
    proxy.refuse();
    proxy.sever();
    const cutAt = rec.lastSeq('crypto.quotes|BTCUSD');
    await serverMovesOn(watcher, rec, 'crypto.quotes|BTCUSD', 100);
    proxy.allow();
    await until(async () => rec.of('connected').length === 2 && rec.lastSeq('crypto.quotes|BTCUSD') > watcher.lastSeq('crypto.quotes|BTCUSD') - 5, 'the client to resume and catch up');
    await closed(stream, rec);
    watcher.close();
    expect(rec.of('disconnected')[0]).toMatchObject({ type: 'disconnected', reconnectInMs: expect.any(Number) });
    expect(rec.of('gap')).toEqual([]);
    expect(stream.stats.reconnects).toBe(1);
    // The 100 quotes sent while the client was away came by replay.
    expect(rec.lastSeq('crypto.quotes|BTCUSD')).toBeGreaterThan(cutAt + 100);
    await expectExactlyOnce(rec, watcher);
  }, 180_000);

  test('server-side close (the server evicts the connection as a slow consumer, 4008): every seq per pair arrives exactly once', async () => {
    await using server = await startServer({ args: ['--sim-rate', '100', '--slow-consumer-bytes', '65536'] });
    await using proxy = await startProxy(server.port);
    const rest = new MdsClient({ baseUrl: server.base, apiKey: server.key });
    const crypto = (await rest.listCryptoSymbols()).data.map((s) => s.symbol);
    const forex = (await rest.listForexSymbols()).symbols.map((s) => s.symbol);
    const pairs = [{ channels: [...CRYPTO], symbols: crypto }, { channels: ['forex.quotes'], symbols: forex }];
    const watcher = await Watcher.open(wsUrl(server), pairs);
    // MdsClient.stream() asks for conflate; this case is about the close and the resume after it.
    const stream = viaProxy(server, proxy).stream({ backoff: FAST_RETRY, slow: 'disconnect' });
    const rec = new Recorder(stream);
    await stream.subscribe({ channels: [...CRYPTO], symbols: crypto });
    await stream.subscribe({ channels: 'forex.quotes', symbols: forex });
    await until(async () => rec.tickCount() > 200, 'ticks through the proxy');
    // The proxy stops reading the server's side: what the server sends piles up until it gives up.
    proxy.pauseUpstream();
    await until(async () => server.logs.some((l) => l.includes('as a slow consumer')), 'the server to find the slow consumer', 30_000);
    proxy.resumeUpstream();
    await until(async () => rec.of('connected').length === 2, 'the client to reconnect', 30_000);
    await serverMovesOn(watcher, rec, 'crypto.quotes|BTCUSD', 20);
    await until(async () => rec.lastSeq('crypto.quotes|BTCUSD') >= watcher.lastSeq('crypto.quotes|BTCUSD') - 5, 'the client to catch up');
    await closed(stream, rec);
    watcher.close();
    expect(rec.of('disconnected')[0]).toMatchObject({ code: 4008, reason: 'slow consumer: more than 65536 bytes unsent' });
    expect(rec.of('gap')).toEqual([]);
    expect(rec.ticks.size).toBeGreaterThan(crypto.length + forex.length / 2);
    await expectExactlyOnce(rec, watcher);
  }, 180_000);

  test('conflate (the default of MdsClient.stream()): a backed-up client gets a lag event, then a conflated event and each line\'s newest quote, with no gap and no reconnect', async () => {
    await using server = await startServer({ args: ['--sim-rate', '100', '--slow-consumer-bytes', '65536'] });
    await using proxy = await startProxy(server.port);
    const rest = new MdsClient({ baseUrl: server.base, apiKey: server.key });
    const crypto = (await rest.listCryptoSymbols()).data.map((s) => s.symbol);
    const forex = (await rest.listForexSymbols()).symbols.map((s) => s.symbol);
    const watcher = await Watcher.open(wsUrl(server), [{ channels: ['crypto.quotes'], symbols: crypto }, { channels: ['forex.quotes'], symbols: forex }]);
    const stream = viaProxy(server, proxy).stream({ backoff: FAST_RETRY });
    const rec = new Recorder(stream);
    await stream.subscribe({ channels: 'crypto.quotes', symbols: crypto });
    await stream.subscribe({ channels: 'forex.quotes', symbols: forex });
    await until(async () => rec.tickCount() > 200, 'ticks through the proxy');
    proxy.pauseUpstream();
    await until(async () => server.logs.some((l) => l.includes('is backed up')), 'the server to hold the client back', 30_000);
    proxy.resumeUpstream();
    await until(async () => rec.of('conflated').length > 0, 'the conflated event', 30_000);
    await serverMovesOn(watcher, rec, 'crypto.quotes|BTCUSD', 20);
    await until(async () => rec.lastSeq('crypto.quotes|BTCUSD') >= watcher.lastSeq('crypto.quotes|BTCUSD') - 5, 'the client to catch up');
    await closed(stream, rec);
    watcher.close();
    expect(rec.of('conflated')[0]).toEqual({ type: 'conflated', dropped: expect.any(Number), quotes: expect.any(Number), since: expect.any(Number), ts: expect.any(Number) });
    expect(stream.stats.conflated).toBe(rec.of('conflated').reduce((n, c) => n + c.dropped, 0));
    expect(stream.stats.conflated).toBeGreaterThan(0);
    // Warned first: a `lag` event (half of the hold-back, a quarter of the bound, was unsent) before the conflated one.
    const lag = rec.of('lag');
    expect(lag[0]).toEqual({ type: 'lag', unsent_bytes: expect.any(Number), limit_bytes: 65536 / 4, slow: 'conflate', lag_ms: expect.any(Number), ts: expect.any(Number) });
    expect(rec.events.indexOf(lag[0]!)).toBeLessThan(rec.events.indexOf(rec.of('conflated')[0]!));
    expect(stream.stats.lagWarnings).toBe(lag.length);
    expect(rec.of('gap')).toEqual([]);
    expect(stream.stats.reconnects).toBe(0);
    // Never a stale quote: per pair, seqs only rise.
    for (const [pair, ticks] of rec.ticks) {
      for (let i = 1; i < ticks.length; i++) if (ticks[i]!.seq <= ticks[i - 1]!.seq) throw new Error(`${pair}: seq ${ticks[i]!.seq} after ${ticks[i - 1]!.seq}`);
    }
  }, 180_000);

  test('a silent socket (the proxy stops carrying frames, the connection stays open) is replaced after the heartbeat timeout, and resumes', async () => {
    await using server = await startServer({ args: ['--sim-rate', '50', '--heartbeat-ms', '200'] });
    await using proxy = await startProxy(server.port);
    const watcher = await Watcher.open(wsUrl(server), [{ channels: ['crypto.quotes'], symbols: ['BTCUSD'] }]);
    const stream = viaProxy(server, proxy).stream({ backoff: FAST_RETRY, heartbeatTimeoutFactor: 3 });
    const rec = new Recorder(stream);
    await stream.subscribe({ channels: 'crypto.quotes', symbols: 'BTCUSD' });
    await until(async () => rec.lastSeq('crypto.quotes|BTCUSD') > 0, 'quotes through the proxy');
    proxy.freeze();
    await until(async () => rec.of('disconnected').some((d) => d.code === CLOSE_SILENT), 'the client to give up on the silent socket');
    await serverMovesOn(watcher, rec, 'crypto.quotes|BTCUSD', 20);
    await until(async () => rec.lastSeq('crypto.quotes|BTCUSD') >= watcher.lastSeq('crypto.quotes|BTCUSD'), 'the client to catch up');
    await closed(stream, rec);
    watcher.close();
    expect(rec.of('disconnected')[0]).toEqual({ type: 'disconnected', code: CLOSE_SILENT, reason: 'no frame (not even a heartbeat) within 600 ms', reconnectInMs: expect.any(Number) });
    expect(rec.of('gap')).toEqual([]);
    await expectExactlyOnce(rec, watcher);
  }, 180_000);

  test('a cut longer than the replay window (the ring holds 128 ticks) yields a gap item naming the seqs that will never come', async () => {
    await using server = await startServer({ args: ['--sim-rate', '100', '--ring-capacity', '128'] });
    await using proxy = await startProxy(server.port);
    const watcher = await Watcher.open(wsUrl(server), [{ channels: ['crypto.quotes'], symbols: ['BTCUSD'] }]);
    const stream = viaProxy(server, proxy).stream({ backoff: FAST_RETRY });
    const rec = new Recorder(stream);
    await stream.subscribe({ channels: 'crypto.quotes', symbols: 'BTCUSD' });
    await until(async () => rec.lastSeq('crypto.quotes|BTCUSD') > 0, 'quotes through the proxy');
    proxy.refuse();
    proxy.sever();
    // Quotes the client had received but not yet handled still come before its close: the last
    // one before the cut is known once the close is.
    await until(async () => rec.of('disconnected').length > 0, 'the cut to be noticed');
    const lastBefore = rec.lastSeq('crypto.quotes|BTCUSD');
    await serverMovesOn(watcher, rec, 'crypto.quotes|BTCUSD', 400);
    proxy.allow();
    await until(async () => rec.of('gap').length > 0 && rec.lastSeq('crypto.quotes|BTCUSD') > lastBefore + 400, 'the client to resume past the gap');
    await closed(stream, rec);
    watcher.close();
    const [gap, ...more] = rec.of('gap');
    expect(more).toEqual([]);
    const seqs = rec.ticks.get('crypto.quotes|BTCUSD')!.map((t) => t.seq);
    const resumedAt = seqs[seqs.indexOf(lastBefore) + 1]!;
    expect(gap).toEqual({ type: 'gap', channel: 'crypto.quotes', symbol: 'BTCUSD', from: lastBefore + 1, to: resumedAt - 1 });
    expect(gap!.to - gap!.from + 1).toBeGreaterThan(400 - 128);
    // The gap item comes right before the first tick after it.
    const at = rec.events.indexOf(gap!);
    expect(rec.events[at + 1]).toMatchObject({ type: 'quote', seq: resumedAt });
    // Around the gap, nothing is missing or doubled.
    expect(seqs).toEqual([...seqs.slice(0, seqs.indexOf(lastBefore) + 1), ...Array.from({ length: seqs.at(-1)! - resumedAt + 1 }, (_, i) => resumedAt + i)]);
  }, 180_000);

  test('restored after a reconnect: the subscriptions confirmed before, including ones made while disconnected', async () => {
    await using server = await startServer({ args: ['--sim-rate', '50'] });
    await using proxy = await startProxy(server.port);
    const stream = viaProxy(server, proxy).stream({ backoff: FAST_RETRY });
    const rec = new Recorder(stream);
    await stream.subscribe({ channels: 'crypto.quotes', symbols: 'BTCUSD' });
    proxy.refuse();
    proxy.sever();
    await until(async () => rec.of('disconnected').length > 0, 'the cut to be noticed');
    const later = stream.subscribe({ channels: 'forex.quotes', symbols: 'EURUSD' });
    proxy.allow();
    expect((await later).subscriptions).toEqual([
      { channel: 'crypto.quotes', symbol: 'BTCUSD' },
      { channel: 'forex.quotes', symbol: 'EURUSD' },
    ]);
    expect(stream.subscriptions()).toEqual((await later).subscriptions);
    await until(async () => rec.lastSeq('forex.quotes|EURUSD') > 0 && rec.of('connected').length === 2, 'EURUSD quotes');
    await closed(stream, rec);
  }, 180_000);

  test('a refused subscribe rejects with the server error; the stream carries on', async () => {
    await using server = await startServer({ args: ['--sim-rate', '20'] });
    const stream = new MdsClient({ baseUrl: server.base, apiKey: server.key }).stream();
    const rec = new Recorder(stream);
    const refused = await stream.subscribe({ channels: 'crypto.quotes', symbols: 'NOPEUSD' }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ name: 'StreamRequestError', code: 'unknown_symbol' });
    await stream.subscribe({ channels: 'crypto.quotes', symbols: 'BTCUSD' });
    await until(async () => rec.lastSeq('crypto.quotes|BTCUSD') > 0, 'quotes');
    await closed(stream, rec);
  }, 180_000);

  test('a wrong key ends the stream with an MdsError 401 (found out by asking the server why), without retrying forever', async () => {
    await using server = await startServer({ args: ['--feed', 'none'] });
    const stream = new MdsClient({ baseUrl: server.base, apiKey: 'wrong-key-000000' }).stream({ backoff: FAST_RETRY });
    const rec = new Recorder(stream);
    const refused = await stream.subscribe({ channels: 'crypto.quotes', symbols: 'BTCUSD' }).catch((e: unknown) => e);
    await rec.done;
    expect(refused).toBeInstanceOf(MdsError);
    expect(rec.error).toBe(refused);
    expect({ status: (refused as MdsError).status, message: (refused as MdsError).message }).toEqual({ status: 401, message: 'invalid API key' });
    expect(rec.of('disconnected').at(-1)!.reconnectInMs).toBeNull();
  }, 180_000);

  test('a revoked key (the server closes with 4001) ends the stream with an MdsError; no reconnect', async () => {
    await using server = await startServer({ args: ['--sim-rate', '20'] });
    const { id, key } = await createKeyOn(server, '--plan', 'free');
    const stream = new MdsClient({ baseUrl: server.base, apiKey: key }).stream({ backoff: FAST_RETRY });
    const rec = new Recorder(stream);
    await stream.subscribe({ channels: 'crypto.quotes', symbols: 'BTCUSD' });
    expect((await runMds('keys', 'revoke', id, '--data-dir', server.dataDir)).code).toBe(0);
    await rec.done;
    expect(rec.error).toBeInstanceOf(MdsError);
    expect(rec.error).toMatchObject({ status: 401, message: 'API key revoked' });
    expect(rec.of('connected').length).toBe(1);
    expect(rec.of('disconnected')).toEqual([{ type: 'disconnected', code: 4001, reason: 'API key revoked', reconnectInMs: null }]);
  }, 180_000);
});
