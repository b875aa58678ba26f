// The slow-consumer policy over a real server and a raw TCP client that stops reading, so the
// server's socket genuinely backs up: `?slow=conflate` keeps each line's newest quote and, once the
// client reads again, sends a `conflated` frame and those quotes (never one older than the client
// has), then live quotes; trades past the bound still close 4008; `disconnect` is as before. Either
// policy warns once with a `lag` frame before it acts.
// A fake feed makes every tick, so the test knows each line's newest quote; no clock waits.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { FeedInstrument } from '../../src/domain/feed.ts';
import { FakeFeed } from '../support/fake-feed.ts';
import { serverFrameMismatches } from '../support/frame-contract.ts';
import { delta, scrape } from '../support/prometheus.ts';
import { closeOf, OPCODE, rawConnect, type RawFrame, type RawWs } from '../support/raw-ws.ts';
import { startServer, WEDNESDAY_US_OPEN, type TestServer } from '../support/server.ts';

const SYMBOLS = ['BTCUSD', 'ETHUSD', 'SOLUSD', 'XRPUSD', 'BNBUSD', 'ADAUSD'];
const INSTRUMENTS: FeedInstrument[] = SYMBOLS.map((symbol) => ({ assetClass: 'crypto', symbol, venueSymbol: symbol }));
const BOUND = 65_536;
const feed = new FakeFeed('fake', INSTRUMENTS);
let server: TestServer;
/** Every tick gets a later time and a higher price than the one before: a stale quote shows as a lower bid. */
let tick = 0;
const T0 = Date.parse(WEDNESDAY_US_OPEN);
const lastBid = new Map<string, number>();

beforeAll(async () => {
  server = await startServer({ args: ['--feed', 'none', '--slow-consumer-bytes', String(BOUND), '--metrics-port', '0'], feeds: [feed], waitForHistory: false });
});
afterAll(() => server.stop());

const yieldToServer = () => new Promise<void>((resolve) => setImmediate(resolve));
const text = (f: RawFrame) => JSON.parse(f.payload.toString('utf8')) as Record<string, any>;
const isType = (type: string) => (f: RawFrame) => f.opcode === OPCODE.text && f.payload.includes(`"type":"${type}"`);

/** One quote for every symbol (bids rise with each), or one trade each. */
function quoteRound(): void {
  for (const symbol of SYMBOLS) {
    const bid = 1000 + ++tick;
    feed.quote(symbol, T0 + tick, bid, bid + 1);
    lastBid.set(symbol, bid);
  }
}
const tradeRound = () => SYMBOLS.forEach((symbol) => feed.trade(symbol, T0 + ++tick, 1000 + tick, 1));

/** Ticks in rounds, letting the server run between them, until the server has logged a line with all of `parts`. */
async function feedUntil(round: () => void, ...parts: string[]): Promise<void> {
  const deadline = performance.now() + 90_000;
  while (!server.logs.some((l) => parts.every((p) => l.includes(p)))) {
    if (performance.now() > deadline) throw new Error(`the server never logged ${JSON.stringify(parts)}`);
    for (let i = 0; i < 40; i++) round();
    await yieldToServer();
  }
}

interface Client {
  raw: RawWs;
  ready: Record<string, any>;
  /** Every text frame after the ack, in arrival order. */
  arrived: Record<string, any>[];
  /** Resolves once `holds` is true of `arrived`. */
  until(holds: (arrived: Record<string, any>[]) => boolean): Promise<void>;
}

/** A raw client with `query`, subscribed to `channels` × SYMBOLS. */
async function connectSubscribed(query: string, channels: string[]): Promise<Client> {
  const arrived: Record<string, any>[] = [];
  let wake = () => {};
  let isSubscribed = false;
  const raw = await rawConnect(server.port, `/?apiKey=${server.key}${query}`, (f) => {
    if (f.opcode === OPCODE.close) return true;
    if (!isSubscribed) return f.opcode === OPCODE.text;
    if (f.opcode === OPCODE.text) arrived.push(text(f));
    wake();
    return false;
  });
  const ready = text(await raw.next(isType('ready')));
  raw.sendText(JSON.stringify({ action: 'subscribe', channels, symbols: SYMBOLS }));
  await raw.next(isType('subscribed'));
  isSubscribed = true;
  const until = async (holds: (arrived: Record<string, any>[]) => boolean) => {
    while (!holds(arrived)) await new Promise<void>((resolve) => (wake = resolve));
  };
  return { raw, ready, arrived, until };
}

describe('slow consumer policy (?slow=)', () => {
  test('conflate: a client that stops reading gets, once it reads again, a conflated frame and each line\'s newest quote, never a stale one, then live quotes', async () => {
    const { raw, ready, arrived, until } = await connectSubscribed('&slow=conflate', ['crypto.quotes']);
    expect(ready.slow).toBe('conflate');
    const metricsUrl = `http://127.0.0.1:${server.metricsPort}/metrics`;
    const scrapedBefore = await scrape(metricsUrl);
    const before = tick;
    raw.socket.pause();
    await feedUntil(quoteRound, `${ready.session_id} (key`, 'is backed up');
    // Far past the bound: a `disconnect` connection would be closed with 4008 by now.
    for (let i = 0; i < 200; i++) quoteRound();
    const newest = new Map(lastBid);
    const pushed = tick - before;
    raw.socket.resume();

    await until((a) => a.some((f) => f.type === 'conflated'));
    const at = arrived.findIndex((f) => f.type === 'conflated');
    const conflated = arrived[at]!;
    // The lines' `live` status frames come too (each line's first quote makes it live), and one
    // `lag` warning, sent once half of the hold-back (a quarter of the bound) was unsent.
    const warnings = arrived.slice(0, at).filter((f) => f.type !== 'quote' && f.type !== 'status');
    expect(warnings).toEqual([{ type: 'lag', unsent_bytes: expect.any(Number), limit_bytes: BOUND / 4, slow: 'conflate', lag_ms: expect.any(Number), ts: expect.any(Number) }]);
    expect(warnings[0]!.unsent_bytes).toBeGreaterThan(BOUND / 8);
    expect(serverFrameMismatches(warnings[0]!)).toEqual([]);
    const beforeConflated = arrived.slice(0, at).filter((f) => f.type === 'quote');
    expect(conflated.quotes).toBe(SYMBOLS.length);
    // Every quote is accounted for: delivered before the backlog, replaced by a newer one, or one of the newest.
    expect(beforeConflated.length + conflated.dropped + conflated.quotes).toBe(pushed);
    expect(conflated.since).toBeLessThanOrEqual(conflated.ts);

    const quotesAfter = (from: number) => arrived.slice(from).filter((f) => f.type === 'quote');
    await until(() => quotesAfter(at).length >= SYMBOLS.length);
    const caughtUp = quotesAfter(at);
    expect(Object.fromEntries(caughtUp.map((q) => [q.symbol, q.bid]))).toEqual(Object.fromEntries(newest));

    // Live again: the next quote of each line follows its newest one by one seq.
    const end = arrived.length;
    quoteRound();
    await until(() => quotesAfter(end).length >= SYMBOLS.length);
    const live = quotesAfter(end);
    expect(quotesAfter(at)).toEqual([...caughtUp, ...live]);
    expect(Object.fromEntries(live.map((q) => [q.symbol, q.bid]))).toEqual(Object.fromEntries(lastBid));

    // Never stale: per line, seqs and bids only rise over everything the client received.
    const seen = new Map<string, { seq: number; bid: number }>();
    for (const q of [...beforeConflated, ...caughtUp, ...live]) {
      const last = seen.get(q.symbol);
      if (last) {
        expect(q.seq).toBeGreaterThan(last.seq);
        expect(q.bid).toBeGreaterThan(last.bid);
      }
      seen.set(q.symbol, { seq: q.seq, bid: q.bid });
    }
    const caughtUpSeq = new Map(caughtUp.map((q) => [q.symbol, q.seq]));
    for (const q of live) expect(q.seq).toBe(caughtUpSeq.get(q.symbol)! + 1);
    // An operator sees the episode in /metrics: one hold-back, one warning.
    const scrapedAfter = await scrape(metricsUrl);
    expect(delta(scrapedBefore, scrapedAfter, 'mds_stream_conflations_total')).toBe(1);
    expect(delta(scrapedBefore, scrapedAfter, 'mds_stream_lag_warnings_total')).toBe(1);
    await raw[Symbol.asyncDispose]();
  }, 180_000);

  test('conflate: trades are never conflated; past the bound the connection is closed with 4008', async () => {
    const { raw, ready } = await connectSubscribed('&slow=conflate', ['crypto.quotes', 'crypto.trades']);
    raw.socket.pause();
    await feedUntil(() => (quoteRound(), tradeRound()), `closing ${ready.session_id} (key`, 'as a slow consumer');
    raw.socket.resume();
    const close = await raw.next((f) => f.opcode === OPCODE.close, 60_000);
    expect(closeOf(close)).toEqual({ code: 4008, reason: `slow consumer: more than ${BOUND} bytes unsent` });
    await raw.ended;
    await raw[Symbol.asyncDispose]();
  }, 180_000);

  test.each([
    ['default', ''],
    ['disconnect', '&slow=disconnect'],
  ])('%s: a client that stops reading is closed with 4008 after the data it left unread, with no conflated frame', async (_name, query) => {
    const { raw, ready, arrived } = await connectSubscribed(query, ['crypto.quotes']);
    expect(ready.slow).toBe('disconnect');
    raw.socket.pause();
    await feedUntil(quoteRound, `closing ${ready.session_id} (key`, 'as a slow consumer');
    raw.socket.resume();
    const close = await raw.next((f) => f.opcode === OPCODE.close, 60_000);
    expect(closeOf(close)).toEqual({ code: 4008, reason: `slow consumer: more than ${BOUND} bytes unsent` });
    expect(arrived.filter((f) => f.type === 'conflated')).toEqual([]);
    // Before the close, one `lag` warning: half of the bound was unsent.
    const warnings = arrived.filter((f) => f.type === 'lag');
    expect(warnings).toEqual([{ type: 'lag', unsent_bytes: expect.any(Number), limit_bytes: BOUND, slow: 'disconnect', lag_ms: expect.any(Number), ts: expect.any(Number) }]);
    expect(warnings[0]!.unsent_bytes).toBeGreaterThan(BOUND / 2);
    expect(serverFrameMismatches(warnings[0]!)).toEqual([]);
    await raw[Symbol.asyncDispose]();
  }, 180_000);

  test('an unknown policy is refused with 400 and the allowed values', async () => {
    const res = await fetch(`${server.base}/?apiKey=${server.key}&slow=drop`, { headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toContain('invalid slow "drop": allowed values are disconnect, conflate');
  });
});
