// The shared venue client against a local venue: reconnects and resubscribes, silence, malformed
// frames, per-symbol errors, sequence gaps, auth failure, batching and pings. The registered
// (public) protocols run from their recorded fixtures; a tiny keyed test protocol covers what no
// public venue does on demand.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { ManualClock } from '../../../src/clock.ts';
import type { Feed, FeedHealth, FeedSink } from '../../../src/domain/feed.ts';
import { VENUE_PROTOCOLS } from '../../../src/ingest/adapters/registry.ts';
import { createVenueFeed } from '../../../src/ingest/adapters/venue-feed.ts';
import { FEED_WORKER_NICE } from '../../../src/ingest/adapters/thread-priority.ts';
import { PARSE_ERROR_LOG_EVERY_MS, VenueClient } from '../../../src/ingest/adapters/venue-client.ts';
import type { VenueProtocol } from '../../../src/ingest/adapters/venue-protocol.ts';
import { until } from '../../support/cli.ts';
import { aim, framesFromFixtures, LocalVenue } from '../../support/local-venue.ts';
import { TEST_VENUE_FRAMES, testVenueProtocol } from '../../support/test-venue-protocol.ts';

class RecordingSink implements FeedSink {
  readonly quotes: { i: number; bid: number; ask: number }[] = [];
  readonly trades: { i: number; price: number }[] = [];
  readonly stales: number[] = [];
  quote(i: number, _ts: number, bid: number, ask: number): void {
    this.quotes.push({ i, bid, ask });
  }
  trade(i: number, _ts: number, price: number): void {
    this.trades.push({ i, price });
  }
  stale(i: number): void {
    this.stales.push(i);
  }
}

const FAST = { backoffMinMs: 10, backoffMaxMs: 50 };

/** How many frames subscribing these symbols takes, batch by batch within the venue's limit. */
function subscribeFrameCount(protocol: VenueProtocol, symbols: readonly string[]): number {
  let frames = 0;
  for (let i = 0; i < symbols.length; i += protocol.maxSymbolsPerFrame) frames += protocol.subscribeFrames(symbols.slice(i, i + protocol.maxSymbolsPerFrame), 1).length;
  return frames;
}
const wait = (probe: () => boolean, what: string) => until(async () => probe(), what);

async function withFeed(feed: Feed, body: (sink: RecordingSink) => Promise<void>): Promise<void> {
  const sink = new RecordingSink();
  await feed.start(sink);
  try {
    await body(sink);
  } finally {
    await feed.stop();
  }
}

/** The public venues: no credentials needed, driven by their recorded frames. */
const PUBLIC = VENUE_PROTOCOLS.filter((p) => !p.awaitsAuth && (p.credentials ?? []).length === 0);

describe.each(PUBLIC.map((p) => [p.id, p] as const))('venue client over a local %s venue', (id, protocol: VenueProtocol) => {
  const frames = framesFromFixtures(id);
  const instruments = protocol.defaultInstruments.slice(0, 2);
  const [a, b] = instruments.map((i) => i.venueSymbol) as [string, string];

  test('in a worker: a dropped connection is reconnected and resubscribed, and health shows the reconnect', async () => {
    await using venue = new LocalVenue(frames);
    const feed = createVenueFeed(protocol, { url: venue.url, instruments, ...FAST });
    await withFeed(feed, async (sink) => {
      await wait(() => venue.connections[0]?.received.length === protocol.subscribeFrames([a, b], 1).length, 'the subscription');
      expect(venue.connections[0]!.received).toEqual(protocol.subscribeFrames([a, b], 1));
      venue.sendQuote(a);
      await wait(() => sink.quotes.length === 1, 'the first quote');
      expect(sink.quotes[0]!.i).toBe(0);
      expect(feed.health().state).toBe('live');

      venue.drop();
      await wait(() => venue.connections[1]?.received.length === protocol.subscribeFrames([a, b], 2).length, 'the resubscription');
      expect(venue.connections[1]!.received).toEqual(protocol.subscribeFrames([a, b], 2));
      expect([...new Set(sink.stales)].sort()).toEqual([0, 1]);
      venue.sendQuote(b);
      await wait(() => sink.quotes.length === 2 && feed.health().reconnects === 1, 'a quote on the new connection');
      expect(sink.quotes[1]!.i).toBe(1);
      const health = feed.health();
      expect(health).toMatchObject({ id, state: 'live', reconnects: 1, parseErrors: 0, instruments: 2 });
      expect(health.connectedSinceMs).not.toBeNull();
      expect(health.lastMessageMs).not.toBeNull();
    });
  });

  test('a silent venue is marked stale at the configured silence and the feed reconnects', async () => {
    await using venue = new LocalVenue(frames);
    const clock = new ManualClock(1_700_000_000_000);
    const silentMs = 5_000;
    const logs: string[] = [];
    const feed = createVenueFeed(protocol, { url: venue.url, instruments, silentMs, ...FAST }, { inThread: true, nowMs: () => clock.nowMs(), log: (l) => logs.push(l) });
    await withFeed(feed, async (sink) => {
      // Every subscribe frame first (venues with one symbol a frame send several, paced): the quote
      // sent after them arrives after their answers, so no answer lands once the clock has moved.
      await wait(() => (venue.connections[0]?.received.length ?? 0) >= subscribeFrameCount(protocol, [a, b]), 'the whole subscription');
      venue.sendQuote(a);
      await wait(() => sink.quotes.length === 1, 'the quote');
      venue.silent = true;
      clock.advance(silentMs);
      await wait(() => sink.stales.length >= 2, 'the lines to go stale');
      expect([...new Set(sink.stales)].sort()).toEqual([0, 1]);
      // Silent for exactly the configured time (the clock moved by no more) is enough.
      expect(logs).toEqual([`feed ${id}: live (2 instruments)`, `feed ${id}: no message for ${silentMs} ms (limit ${silentMs} ms): lines stale, reconnecting`]);
      await wait(() => venue.connections.length === 2 && feed.health().reconnects === 1, 'the reconnect');
    });
  });

  test('a malformed frame is counted, logged at most once a minute, and the connection goes on', async () => {
    await using venue = new LocalVenue(frames);
    const clock = new ManualClock(1_700_000_000_000);
    const logs: string[] = [];
    const feed = createVenueFeed(protocol, { url: venue.url, instruments, ...FAST }, { inThread: true, nowMs: () => clock.nowMs(), log: (l) => logs.push(l) });
    await withFeed(feed, async (sink) => {
      await wait(() => venue.connections[0]?.received.length === 1, 'the subscription');
      venue.sendMalformed();
      venue.sendMalformed();
      venue.sendQuote(a);
      await wait(() => sink.quotes.length === 1, 'the quote after the malformed frames');
      expect(feed.health().parseErrors).toBe(2);
      expect(logs.filter((l) => l.includes('cannot parse'))).toHaveLength(1);

      clock.advance(PARSE_ERROR_LOG_EVERY_MS);
      venue.sendMalformed();
      venue.sendQuote(b);
      await wait(() => sink.quotes.length === 2, 'the next quote');
      expect(feed.health().parseErrors).toBe(3);
      expect(logs.filter((l) => l.includes('cannot parse'))).toHaveLength(2);
      expect(venue.connections).toHaveLength(1);
      expect(feed.health().state).toBe('live');
    });
  });

  if (frames.trade?.seq !== undefined) {
    test('a sequence gap is counted and marks the line stale until its next good update', async () => {
      await using venue = new LocalVenue(frames);
      const feed = createVenueFeed(protocol, { url: venue.url, instruments, ...FAST }, { inThread: true });
      await withFeed(feed, async (sink) => {
        await wait(() => venue.connections[0]?.received.length === 1, 'the subscription');
        venue.sendTrade(a);
        venue.sendTrade(a);
        await wait(() => sink.trades.length === 2, 'two trades');
        venue.sendTradeAfterGap(a, 3);
        venue.sendTrade(a);
        await wait(() => sink.trades.length === 3, 'the trade after the gap');
        expect(sink.stales).toEqual([0]);
        expect(feed.health().sequenceGaps).toBe(1);
        // In-thread, every tick that passed goes to the sink and is counted; none is conflated.
        expect(feed.health()).toMatchObject({ ticks: sink.trades.length + sink.quotes.length, conflated: 0, dropped: 0 });
      });
    });
  }
});

/** The keyed upstreams whose fixtures record both auth answers: run over a local venue that grants or refuses. */
const KEYED = VENUE_PROTOCOLS.filter((p) => p.awaitsAuth === true)
  .map((p) => [p.id, p, framesFromFixtures(p.id)] as const)
  .filter(([, , frames]) => frames.authOk !== undefined && frames.authFail !== undefined);

describe.each(KEYED)('venue client over a local keyed %s venue', (id, protocol, frames) => {
  const instruments = protocol.defaultInstruments.slice(0, 2);
  const credentials = Object.fromEntries((protocol.credentials ?? []).map((name) => [name, `test-${name}`]));

  test('subscribes only once the venue accepts the key, then quotes flow', async () => {
    await using venue = new LocalVenue(frames, { auth: 'accept' });
    const feed = createVenueFeed(protocol, { url: venue.url, instruments, credentials, ...FAST }, { inThread: true });
    const authFrames = protocol.authFrames?.(credentials) ?? [];
    await withFeed(feed, async (sink) => {
      const expected = [...authFrames, ...protocol.subscribeFrames(instruments.map((i) => i.venueSymbol), 1)];
      await wait(() => venue.connections[0]?.received.length === expected.length, 'auth and the subscription');
      expect(venue.connections[0]!.received).toEqual(expected);
      venue.sendQuote(instruments[0]!.venueSymbol);
      await wait(() => sink.quotes.length === 1, 'the quote');
      expect(feed.health().state).toBe('live');
    });
  });

  test('a refused key is a failed state with the venue\'s reason, not a reconnect loop', async () => {
    await using venue = new LocalVenue(frames, { auth: 'refuse' });
    const logs: string[] = [];
    const feed = createVenueFeed(protocol, { url: venue.url, instruments, credentials, backoffMinMs: 1, backoffMaxMs: 1 }, { inThread: true, log: (l) => logs.push(l) });
    await withFeed(feed, async () => {
      await wait(() => feed.health().state === 'failed' && venue.openConnections === 0, 'the feed to fail and close');
      expect(feed.health().reason).toStartWith('authentication failed: ');
      expect(logs.filter((l) => l.includes('authentication failed'))).toHaveLength(1);
      expect(venue.connections).toHaveLength(1);
    });
  });
});

describe('venue client with a keyed test venue', () => {
  const instruments = testVenueProtocol().defaultInstruments;
  const credentials = { TEST_VENUE_KEY: 'k-123' };

  test('authenticates first, then subscribes in batches of the venue limit', async () => {
    await using venue = new LocalVenue(TEST_VENUE_FRAMES, { auth: 'accept' });
    const protocol = testVenueProtocol();
    const feed = createVenueFeed(protocol, { url: venue.url, credentials, ...FAST }, { inThread: true });
    await withFeed(feed, async (sink) => {
      await wait(() => venue.connections[0]?.received.length === 4, 'auth and three subscribe frames');
      expect(venue.connections[0]!.received.map((f) => JSON.parse(f) as unknown)).toEqual([
        { op: 'auth', key: 'k-123' },
        { op: 'sub', symbols: ['AAA-X', 'BBB-X'], id: 1 },
        { op: 'sub', symbols: ['CCC-X', 'DDD-X'], id: 2 },
        { op: 'sub', symbols: ['EEE-X'], id: 3 },
      ]);
      venue.sendQuote('CCC-X');
      await wait(() => sink.quotes.length === 1, 'the quote');
      expect(sink.quotes).toEqual([{ i: 2, bid: 10, ask: 11 }]);
    });
  });

  test('an auth failure is a failed state with a clear reason and log line, not a reconnect loop', async () => {
    await using venue = new LocalVenue(TEST_VENUE_FRAMES, { auth: 'refuse' });
    const logs: string[] = [];
    const feed = createVenueFeed(testVenueProtocol(), { url: venue.url, credentials, backoffMinMs: 1, backoffMaxMs: 1 }, { inThread: true, log: (l) => logs.push(l) });
    await withFeed(feed, async (sink) => {
      await wait(() => feed.health().state === 'failed' && venue.openConnections === 0, 'the feed to fail and close');
      const health: FeedHealth = feed.health();
      expect(health.reason).toBe('authentication failed: invalid key');
      expect(logs).toEqual(['feed test-venue: authentication failed: invalid key; not reconnecting']);
      expect(venue.connections).toHaveLength(1);
      expect(venue.connections[0]!.received).toEqual([JSON.stringify({ op: 'auth', key: 'k-123' })]);
      expect([...new Set(sink.stales)].sort()).toEqual(instruments.map((_, i) => i));
    });
  });

  test('a venue error for one symbol is reported for that symbol while the others go on', async () => {
    await using venue = new LocalVenue(TEST_VENUE_FRAMES, { auth: 'accept' });
    const feed = createVenueFeed(testVenueProtocol(), { url: venue.url, credentials, ...FAST }, { inThread: true });
    await withFeed(feed, async (sink) => {
      await wait(() => venue.connections[0]?.received.length === 4, 'the subscriptions');
      venue.sendSymbolError('BBB-X');
      venue.sendQuote('AAA-X');
      venue.sendQuote('CCC-X');
      await wait(() => sink.quotes.length === 2, 'the other symbols');
      expect(sink.stales).toEqual([1]);
      expect(sink.quotes.map((q) => q.i)).toEqual([0, 2]);
      const health = feed.health();
      expect(health.instrumentErrors).toEqual({ BBBUSD: 'unknown symbol BBB-X' });
      expect(health.state).toBe('live');
    });
  });

  test('answers venue pings and sends its own keepalive every pingIntervalMs', async () => {
    await using venue = new LocalVenue(TEST_VENUE_FRAMES, { auth: 'accept' });
    const protocol = testVenueProtocol({ pingFrame: () => '{"op":"ping"}', pingIntervalMs: 20 });
    const feed = createVenueFeed(protocol, { url: venue.url, credentials, ...FAST }, { inThread: true });
    await withFeed(feed, async () => {
      await wait(() => venue.connections[0]?.received.some((f) => f.includes('"id":3')) === true, 'the subscriptions');
      venue.send('{"t":"ping","id":7}');
      await wait(() => venue.connections[0]!.received.includes('{"t":"pong","id":7}'), 'the pong');
      await wait(() => venue.connections[0]!.received.filter((f) => f === '{"op":"ping"}').length >= 2, 'two keepalives');
    });
  });

  test.each([
    [1, [10, 20, 40, 40]],
    [0, [5, 10, 20, 20]],
  ])('backoff doubles from backoffMinMs to backoffMaxMs, jittered down to half (jitter draw %d)', async (draw, delays) => {
    // Port 9 on 127.0.0.1 refuses, so every attempt fails at once and the next delay is drawn.
    const client = new VenueClient(testVenueProtocol(), { url: 'ws://127.0.0.1:9', credentials, backoffMinMs: 10, backoffMaxMs: 40 }, { random: () => draw });
    const reasons: string[] = [];
    client.onStateChange = () => {
      const reason = client.health().reason;
      if (client.health().state === 'backoff' && reason !== null) reasons.push(reason);
    };
    client.start(new RecordingSink());
    try {
      await wait(() => reasons.length >= delays.length, 'four backoffs');
    } finally {
      client.stop();
    }
    expect(reasons.slice(0, delays.length).map((r) => Number(r.match(/reconnecting in (\d+) ms$/)?.[1]))).toEqual(delays);
  });

  test('a refused connection leaves the lines stale and the feed in backoff until stopped', async () => {
    const logs: string[] = [];
    // Port 9 on 127.0.0.1 refuses: each attempt fails and is retried with backoff.
    const feed = createVenueFeed(testVenueProtocol(), { url: 'ws://127.0.0.1:9', credentials, ...FAST }, { inThread: true, log: (l) => logs.push(l) });
    await withFeed(feed, async (sink) => {
      await wait(() => feed.health().state === 'backoff', 'the backoff');
      expect(feed.health().reason).toMatch(/reconnecting in \d+ ms$/);
      expect(sink.stales.length).toBeGreaterThan(0);
    });
    expect(feed.health().state).toBe('stopped');
  });
});

describe('venue feed in a worker', () => {
  test('a protocol the registry lacks fails with a reason instead of hanging in connecting', async () => {
    const logs: string[] = [];
    const feed = createVenueFeed(testVenueProtocol(), { url: 'ws://127.0.0.1:9' }, { log: (l) => logs.push(l) });
    await withFeed(feed, async () => {
      await wait(() => feed.health().state === 'failed', 'the failed state');
      expect(feed.health().reason).toBe('no venue protocol test-venue in the registry (run it with inThread)');
      expect(logs).toEqual(['feed test-venue: no venue protocol test-venue in the registry (run it with inThread)']);
    });
  });
});

describe('venue feed in a worker, beside the serving thread', () => {
  const niceOf = (tid: string | number) => Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
  /** Nice of each Worker thread of this process (Bun names its worker threads so). */
  const workerNices = (): number[] => readdirSync('/proc/self/task').filter((tid) => readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim() === 'Worker').map(niceOf);

  test.if(process.platform === 'linux')('runs below the serving thread\'s priority, so requests go first on a shared core', async () => {
    const binance = VENUE_PROTOCOLS.find((p) => p.id === 'binance')!;
    await using venue = new LocalVenue(framesFromFixtures('binance'));
    const feed = createVenueFeed(binance, { url: venue.url, instruments: binance.defaultInstruments.slice(0, 1), ...FAST });
    await withFeed(feed, async () => {
      await wait(() => venue.connections.length === 1, 'the connection');
      const nices = workerNices();
      expect(nices.length).toBeGreaterThan(0);
      expect(nices.every((n) => n === FEED_WORKER_NICE)).toBe(true);
      expect(niceOf(process.pid)).toBe(0);
    });
  });
});

describe('venue feed in a worker, behind a busy serving thread', () => {
  const binance = VENUE_PROTOCOLS.find((p) => p.id === 'binance')!;
  const frames = framesFromFixtures('binance');
  const instruments = binance.defaultInstruments.slice(0, 2);
  const a = instruments[0]!.venueSymbol;
  const bidOf = (k: number) => 10 + k / 10_000;
  const template = aim(frames.quote, a);
  const ask = Number(/"a":"([0-9.]+)"/.exec(template)![1]);
  const quoteFrame = (k: number) => template.replace(/"b":"[0-9.]+"/, `"b":"${bidOf(k).toFixed(8)}"`);

  test('quotes conflate to the latest book, trades all arrive in order, and health counts both', async () => {
    expect(quoteFrame(1)).toContain('"b":"10.00010000"');
    expect(ask).toBeGreaterThan(bidOf(100_000));
    await using venue = new LocalVenue(frames);
    // This thread acknowledges no batch until released: the worker finds it behind, as behind a
    // busy serving thread, however fast or slow the machine is.
    let release = () => {};
    const holdAcks = new Promise<void>((resolve) => (release = resolve));
    const feed = createVenueFeed(binance, { url: venue.url, instruments, ...FAST }, { holdAcks });
    const bursts = { quotes: 20_000, trades: 0 };
    await withFeed(feed, async (sink) => {
      await wait(() => venue.connections[0]?.received.length === subscribeFrameCount(binance, [a, instruments[1]!.venueSymbol]), 'the subscription');
      // A burst far larger than the batches the worker may have out: past them, quotes conflate.
      for (let k = 1; k <= bursts.quotes; k++) {
        venue.send(quoteFrame(k));
        if (k % 2_000 === 0) venue.sendTrade(a), bursts.trades++;
      }
      await wait(() => feed.health().ticks === bursts.quotes + bursts.trades, 'every tick counted');
      expect(feed.health().conflated).toBeGreaterThan(0);
      release();
      await wait(() => sink.quotes.length + (feed.health().conflated ?? 0) === bursts.quotes, 'every quote ingested or conflated');
      expect(feed.health().dropped).toBe(0);
      expect(sink.quotes.at(-1)).toEqual({ i: 0, bid: bidOf(bursts.quotes), ask });
      expect(sink.trades.length).toBe(bursts.trades);
      const bids = sink.quotes.map((q) => q.bid);
      expect(bids).toEqual([...bids].sort((x, y) => x - y));
    });
  });

  test('an expensive ingest path conflates the rest of a batch on the serving thread, and health counts it', async () => {
    await using venue = new LocalVenue(frames);
    const feed = createVenueFeed(binance, { url: venue.url, instruments, ...FAST });
    const sink = new RecordingSink();
    // Each quote costs this thread 50 µs (as one published to many subscribers would): a batch
    // no longer fits in one slice.
    const slow: FeedSink = {
      quote: (i, ts, bid, a, bs, as) => {
        const until = performance.now() + 0.05;
        while (performance.now() < until) {
          // an expensive tick
        }
        sink.quote(i, ts, bid, a);
      },
      trade: (i, ts, price) => sink.trade(i, ts, price),
      stale: (i) => sink.stale(i),
    };
    await feed.start(slow);
    try {
      await wait(() => venue.connections[0]?.received.length === subscribeFrameCount(binance, [a, instruments[1]!.venueSymbol]), 'the subscription');
      const quotes = 20_000;
      let trades = 0;
      for (let k = 1; k <= quotes; k++) {
        venue.send(quoteFrame(k));
        if (k % 2_000 === 0) venue.sendTrade(a), trades++;
      }
      await wait(() => feed.health().ticks === quotes + trades, 'every tick counted');
      await wait(() => sink.quotes.length + (feed.health().conflated ?? 0) === quotes, 'every quote ingested or conflated');
      expect(sink.quotes.length).toBeLessThan(quotes / 2);
      expect(sink.quotes.at(-1)).toEqual({ i: 0, bid: bidOf(quotes), ask });
      expect(sink.trades.length).toBe(trades);
      expect(feed.health().dropped).toBe(0);
    } finally {
      await feed.stop();
    }
  });

  test('once stopped, nothing more reaches the sink, even in the middle of a sliced batch', async () => {
    await using venue = new LocalVenue(frames);
    const all = binance.defaultInstruments;
    const feed = createVenueFeed(binance, { url: venue.url, instruments: all, ...FAST });
    let calls = 0;
    const slow: FeedSink = {
      quote: () => {
        const until = performance.now() + 1;
        while (performance.now() < until) {
          // an expensive tick: every batch takes several slices
        }
        calls++;
      },
      trade: () => void calls++,
      stale: () => {},
    };
    await feed.start(slow);
    await wait(() => venue.connections[0]?.received.length === subscribeFrameCount(binance, all.map((i) => i.venueSymbol)), 'the subscription');
    // A book for every instrument, many times over: a batch's rest, conflated, still holds one
    // quote per instrument, 26 ms of work in 2 ms slices.
    for (let k = 1; k <= 40; k++) for (const inst of all) venue.send(aim(frames.quote, inst.venueSymbol).replace(/"b":"[0-9.]+"/, `"b":"${bidOf(k).toFixed(8)}"`));
    await wait(() => calls > 0, 'the first ticks');
    await feed.stop();
    const atStop = calls;
    // Slices run one per event-loop turn: give any left-over slice many turns to show itself.
    for (let turn = 0; turn < 50; turn++) await new Promise((resolve) => setImmediate(resolve));
    expect(calls).toBe(atStop);
  });
});
