// Feed states that tell the truth, over local venues speaking each public venue's protocol: a
// (re)connected feed is subscribing until the venue answers; a quiet connection that answers a
// probe, sends heartbeats or pings stays live with no reconnect; a dead one is stale from silentMs
// on until data flows again; a refused batch costs only the refused symbol; errors clear; a
// refused upgrade names its HTTP status; every dial counts; each condition is logged once.
import { describe, expect, test } from 'bun:test';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { ManualClock } from '../../../src/clock.ts';
import type { Feed, FeedSink } from '../../../src/domain/feed.ts';
import { VENUE_PROTOCOLS } from '../../../src/ingest/adapters/registry.ts';
import { createVenueFeed } from '../../../src/ingest/adapters/venue-feed.ts';
import type { VenueProtocol } from '../../../src/ingest/adapters/venue-protocol.ts';
import { until } from '../../support/cli.ts';
import { aim, framesFromFixtures, LocalVenue, type FrameTemplate } from '../../support/local-venue.ts';
import { startProxy } from '../../support/tcp-proxy.ts';
import { TEST_VENUE_FRAMES, testVenueProtocol } from '../../support/test-venue-protocol.ts';

class RecordingSink implements FeedSink {
  readonly quotes: number[] = [];
  readonly stales: number[] = [];
  quote(i: number): void {
    this.quotes.push(i);
  }
  trade(): void {}
  stale(i: number): void {
    this.stales.push(i);
  }
}

const T0 = 1_700_000_000_000;
const SILENT_MS = 200;
const FAST = { backoffMinMs: 10, backoffMaxMs: 50 };
const wait = (probe: () => boolean, what: string) => until(async () => probe(), what);
const fixtureText = (venue: string, name: string) => {
  const frame = (JSON.parse(readFileSync(join(import.meta.dir, '..', '..', 'fixtures', venue, `${name}.json`), 'utf8')) as { frame: unknown }).frame;
  return typeof frame === 'string' ? frame : JSON.stringify(frame);
};
const portOf = (url: string) => Number(new URL(url).port);

/** How many frames subscribing these symbols takes, batch by batch within the venue's limit. */
function subscribeFrameCount(protocol: VenueProtocol, symbols: readonly string[]): number {
  let frames = 0;
  for (let i = 0; i < symbols.length; i += protocol.maxSymbolsPerFrame) frames += protocol.subscribeFrames(symbols.slice(i, i + protocol.maxSymbolsPerFrame), 1).length;
  return frames;
}

/** A recorded frame of this venue whose book has an empty side (its one event is `book-empty`), as a template. */
function bookEmptyFixture(venue: string): FrameTemplate | undefined {
  const dir = join(import.meta.dir, '..', '..', 'fixtures', venue);
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    const f = JSON.parse(readFileSync(join(dir, name), 'utf8')) as { frame: unknown; events: unknown };
    if (!Array.isArray(f.events) || f.events.length !== 1 || f.events[0].type !== 'book-empty') continue;
    return { text: typeof f.frame === 'string' ? f.frame : JSON.stringify(f.frame), venueSymbol: (f.events[0] as { venueSymbol: string }).venueSymbol };
  }
  return undefined;
}

async function withFeed(feed: Feed, body: (sink: RecordingSink) => Promise<void>): Promise<void> {
  const sink = new RecordingSink();
  await feed.start(sink);
  try {
    await body(sink);
  } finally {
    await feed.stop();
  }
}

const PUBLIC = VENUE_PROTOCOLS.filter((p) => !p.awaitsAuth && (p.credentials ?? []).length === 0);

/** How each venue's pong answers the client's probe (a venue without a ping frame gets a WebSocket ping). */
const PONG: Record<string, string> = {
  binance: 'list-subscriptions',
  'binance-usdm': 'subscribe-ack',
  coinbase: 'subscriptions',
  kraken: 'pong',
  bybit: 'pong',
  'bybit-linear': 'pong',
  okx: 'pong',
  'okx-swap': 'pong',
  hyperliquid: 'pong',
  deribit: 'test-result',
};
/** What each venue sends on its own while it has nothing to say: a heartbeat frame, or a WebSocket ping. */
const OWN_LIFE: Record<string, { heartbeat: string } | 'websocket-ping'> = {
  binance: 'websocket-ping',
  'binance-usdm': 'websocket-ping',
  coinbase: { heartbeat: 'heartbeats' },
  kraken: { heartbeat: 'heartbeat' },
  deribit: { heartbeat: 'heartbeat' },
};

test('the venues with a recorded empty side', () => {
  // Bybit's and Kraken's recorded books are never empty; the parsers' own tests cover them.
  expect(PUBLIC.filter((p) => bookEmptyFixture(p.id) !== undefined).map((p) => p.id)).toEqual(['binance', 'coinbase', 'okx', 'hyperliquid', 'deribit']);
});

test('every public venue is covered by the sign-of-life tests', () => {
  for (const p of PUBLIC) expect(p.pingFrame !== undefined ? PONG[p.id] : OWN_LIFE[p.id]).toBeDefined();
});

describe.each(PUBLIC.map((p) => [p.id, p] as const))('feed states over a local %s venue', (id, protocol: VenueProtocol) => {
  const frames = framesFromFixtures(id);
  const instruments = protocol.defaultInstruments.slice(0, 3);
  const [a, b, c] = instruments.map((i) => i.venueSymbol) as [string, string, string];
  const clock = () => new ManualClock(T0);

  test('a connection is subscribing, not live, until the venue acknowledges a subscription', async () => {
    const time = clock();
    await using venue = new LocalVenue(frames);
    venue.silent = true;
    const feed = createVenueFeed(protocol, { url: venue.url, instruments, silentMs: SILENT_MS, ...FAST }, { inThread: true, nowMs: () => time.nowMs() });
    await withFeed(feed, async () => {
      await wait(() => (venue.connections[0]?.received.length ?? 0) > 0, 'the subscription');
      expect(feed.health()).toMatchObject({ state: 'subscribing', connectedSinceMs: null });
      venue.send(frames.ack ?? aim(frames.quote, a));
      await wait(() => feed.health().state === 'live', 'the feed to be live');
      expect(feed.health().connectedSinceMs).toBe(T0);
    });
  });

  test('quiet for half the silence limit it asks for a sign of life, and the answer keeps it live with no reconnect', async () => {
    const time = clock();
    const pingFrame = protocol.pingFrame?.();
    const replies = pingFrame === undefined ? undefined : { [pingFrame]: fixtureText(id, PONG[id]!) };
    await using venue = new LocalVenue(frames, { replies });
    const feed = createVenueFeed(protocol, { url: venue.url, instruments, silentMs: SILENT_MS, ...FAST }, { inThread: true, nowMs: () => time.nowMs() });
    await withFeed(feed, async (sink) => {
      await wait(() => feed.health().state === 'live' && venue.connections[0]!.received.length === subscribeFrameCount(protocol, [a, b, c]), 'the whole subscription');
      const probes = () => (pingFrame === undefined ? 0 : venue.connections[0]!.received.filter((f) => f === pingFrame).length);
      const before = probes();
      // Four quiet spells of 0.6 limits: well over two whole limits without data.
      for (let round = 1; round <= 4; round++) {
        time.advance(SILENT_MS * 0.6);
        await wait(() => feed.health().lastMessageMs === time.nowMs(), 'the answer to the probe');
        expect(feed.health().state).toBe('live');
      }
      // A late answer to the subscription may stand in for the first probe's; the rest were asked for.
      if (pingFrame !== undefined) expect(probes() - before).toBeGreaterThanOrEqual(3);
      expect(venue.connections).toHaveLength(1);
      expect(feed.health().reconnects).toBe(0);
      expect(sink.stales).toEqual([]);
    });
  });

  const own = OWN_LIFE[id];
  if (own !== undefined) {
    test(`${own === 'websocket-ping' ? "the venue's WebSocket pings" : 'heartbeats'} alone keep a quiet connection live with no reconnect`, async () => {
      const time = clock();
      await using venue = new LocalVenue(frames);
      const feed = createVenueFeed(protocol, { url: venue.url, instruments, silentMs: SILENT_MS, ...FAST }, { inThread: true, nowMs: () => time.nowMs() });
      await withFeed(feed, async (sink) => {
        await wait(() => feed.health().state === 'live', 'the ack');
        for (let round = 1; round <= 6; round++) {
          // Less than half the limit: the client never needs to ask.
          time.advance(SILENT_MS * 0.4);
          if (own === 'websocket-ping') venue.pingSockets();
          else venue.send(fixtureText(id, own.heartbeat));
          await wait(() => feed.health().lastMessageMs === time.nowMs(), 'the sign of life');
          expect(feed.health().state).toBe('live');
        }
        expect(venue.connections).toHaveLength(1);
        expect(feed.health().reconnects).toBe(0);
        expect(sink.stales).toEqual([]);
      });
    });
  }

  test('a venue that stops answering, its WebSocket layer still up, is live at half the limit and stale from silentMs on', async () => {
    const time = clock();
    const pingFrame = protocol.pingFrame!();
    await using venue = new LocalVenue(frames);
    const feed = createVenueFeed(protocol, { url: venue.url, instruments, silentMs: SILENT_MS, ...FAST }, { inThread: true, nowMs: () => time.nowMs() });
    await withFeed(feed, async (sink) => {
      await wait(() => feed.health().state === 'live' && venue.connections[0]!.received.length === subscribeFrameCount(protocol, [a, b, c]), 'the whole subscription');
      // Frames of a connection are read in order: once this quote is in, every answer the venue
      // sent before it has been read too, so none lands (and counts as a sign of life) after the clock moves.
      const quotes = sink.quotes.length;
      venue.sendQuote(a);
      await wait(() => sink.quotes.length > quotes, 'a quote after the answers to the subscription');
      const probes = () => venue.connections[0]!.received.filter((f) => f === pingFrame).length;
      const before = probes();
      venue.silent = true;
      time.advance(SILENT_MS / 2);
      // At least one: a busy machine may poll after the feed's next check has asked again.
      await wait(() => probes() >= before + 1, 'the unanswered probe');
      expect(feed.health().state).toBe('live');
      expect(sink.stales).toEqual([]);
      time.advance(SILENT_MS / 2);
      await wait(() => feed.health().state === 'stale', 'the stale state');
      expect([...new Set(sink.stales)].sort()).toEqual([0, 1, 2]);
    });
  });

  test('a dead connection is stale from silentMs on, through the redial, until data flows again', async () => {
    const time = clock();
    await using venue = new LocalVenue(frames);
    await using proxy = await startProxy(portOf(venue.url));
    const logs: string[] = [];
    const feed = createVenueFeed(protocol, { url: `ws://127.0.0.1:${proxy.port}`, instruments, silentMs: SILENT_MS, ...FAST }, { inThread: true, nowMs: () => time.nowMs(), log: (l) => logs.push(l) });
    await withFeed(feed, async (sink) => {
      await wait(() => feed.health().state === 'live', 'the ack');
      venue.sendQuote(a);
      await wait(() => sink.quotes.length === 1, 'the quote');
      proxy.freeze();
      venue.silent = true; // the next connection hears nothing back either
      time.advance(SILENT_MS / 2);
      time.advance(SILENT_MS / 2);
      await wait(() => feed.health().state === 'stale', 'the stale state');
      expect(feed.health().reason).toStartWith(`silent for ${SILENT_MS} ms; `);
      expect([...new Set(sink.stales)].sort()).toEqual([0, 1, 2]);
      await wait(() => venue.connections.length === 2 && feed.health().reason?.endsWith('connected again, waiting for the venue') === true, 'the redial to open');
      expect(feed.health()).toMatchObject({ state: 'stale', reconnects: 1, connectedSinceMs: null });
      venue.sendQuote(b);
      await wait(() => feed.health().state === 'live', 'live again on data');
      expect(feed.health()).toMatchObject({ reason: null, reconnects: 1, connectedSinceMs: time.nowMs() });
      expect(logs).toEqual([`feed ${id}: live (3 instruments)`, `feed ${id}: no message for ${SILENT_MS} ms (limit ${SILENT_MS} ms): lines stale, reconnecting`, `feed ${id}: live (3 instruments)`]);
    });
  });

  const emptyBook = bookEmptyFixture(id);
  if (emptyBook !== undefined) {
    test('an empty side of the book makes no quote and marks the line stale; the next two-sided quote goes on', async () => {
      await using venue = new LocalVenue(frames);
      const feed = createVenueFeed(protocol, { url: venue.url, instruments, ...FAST }, { inThread: true });
      await withFeed(feed, async (sink) => {
        await wait(() => feed.health().state === 'live', 'the ack');
        venue.sendQuote(b);
        await wait(() => sink.quotes.length === 1, 'the quote');
        venue.send(aim(emptyBook, b));
        await wait(() => sink.stales.length === 1, 'the empty side');
        expect(sink.stales).toEqual([1]);
        venue.sendQuote(b);
        await wait(() => sink.quotes.length === 2, 'the next quote');
        expect(sink.quotes).toEqual([1, 1]);
      });
    });
  }

  if (frames.symbolError !== undefined) {
    test(`a refused symbol is reported and ${protocol.refusesWholeBatch ? 'the rest of its batch subscribed again without it' : 'nothing else is resubscribed'}; the error clears when it ticks again`, async () => {
      await using venue = new LocalVenue(frames);
      venue.silent = true; // no acks: only what the test sends
      const feed = createVenueFeed(protocol, { url: venue.url, instruments, ...FAST }, { inThread: true });
      await withFeed(feed, async (sink) => {
        const first = protocol.subscribeFrames([a, b, c], 1);
        await wait(() => venue.connections[0]?.received.length === first.length, 'the subscription');
        venue.sendSymbolError(b);
        await wait(() => feed.health().instrumentErrors !== undefined, 'the error');
        const expected = protocol.refusesWholeBatch ? [...first, ...protocol.subscribeFrames([a, c], 2)] : first;
        await wait(() => venue.connections[0]!.received.length === expected.length, 'the resubscription');
        expect(venue.connections[0]!.received).toEqual(expected);
        expect(Object.keys(feed.health().instrumentErrors!)).toEqual([instruments[1]!.symbol]);
        expect(sink.stales).toEqual([1]);
        venue.sendQuote(a);
        venue.sendQuote(c);
        await wait(() => sink.quotes.length === 2, 'the other symbols tick');
        expect(sink.quotes).toEqual([0, 2]);
        expect(feed.health().state).toBe('live');
        venue.sendQuote(b);
        await wait(() => sink.quotes.length === 3, 'the refused symbol ticks again');
        expect(feed.health().instrumentErrors).toBeUndefined();
      });
    });
  }
});

describe('a batch refused without naming the symbol (Deribit)', () => {
  const deribit = VENUE_PROTOCOLS.find((p) => p.id === 'deribit')!;
  const instruments = deribit.defaultInstruments.slice(0, 3);
  const [a, b, c] = instruments.map((i) => i.venueSymbol) as [string, string, string];
  const refusal = (requestId: number) => JSON.stringify({ ...(JSON.parse(fixtureText('deribit', 'error')) as object), id: requestId });

  test('is split in halves until the refused symbol stands alone; every other symbol still ticks', async () => {
    await using venue = new LocalVenue(framesFromFixtures('deribit'));
    venue.silent = true;
    const feed = createVenueFeed(deribit, { url: venue.url, instruments, ...FAST }, { inThread: true });
    const received = () => venue.connections[0]!.received;
    await withFeed(feed, async (sink) => {
      await wait(() => venue.connections[0]?.received.length === 1, 'the subscription');
      venue.send(refusal(1));
      await wait(() => received().length === 3, 'the two halves');
      venue.send(refusal(2));
      await wait(() => received().length === 5, 'the halves of the first half');
      venue.send(refusal(5));
      await wait(() => feed.health().instrumentErrors !== undefined, 'the refused symbol');
      expect(received()).toEqual([[a, b, c], [a, b], [c], [a], [b]].flatMap((batch, k) => deribit.subscribeFrames(batch, k + 1)));
      expect(feed.health().instrumentErrors).toEqual({ [instruments[1]!.symbol]: '-32602 Invalid params: wrong format' });
      const frames = framesFromFixtures('deribit');
      venue.send(aim(frames.quote, a));
      venue.send(aim(frames.quote, c));
      await wait(() => sink.quotes.length === 2, 'the other symbols tick');
      expect(sink.quotes).toEqual([0, 2]);
    });
  });
});

describe('a kraken symbol error clears when the venue confirms the symbol', () => {
  test('an ack naming it clears it', async () => {
    const kraken = VENUE_PROTOCOLS.find((p) => p.id === 'kraken')!;
    const instruments = kraken.defaultInstruments.slice(0, 2);
    const b = instruments[1]!.venueSymbol;
    await using venue = new LocalVenue(framesFromFixtures('kraken'));
    venue.silent = true;
    const feed = createVenueFeed(kraken, { url: venue.url, instruments, ...FAST }, { inThread: true });
    await withFeed(feed, async () => {
      await wait(() => venue.connections[0]?.received.length === 2, 'the subscription');
      venue.sendSymbolError(b);
      await wait(() => feed.health().instrumentErrors !== undefined, 'the error');
      venue.send(fixtureText('kraken', 'subscribe-ack').replace('BTC/USD', b));
      await wait(() => feed.health().instrumentErrors === undefined, 'the error to clear');
      expect(feed.health().state).toBe('live');
    });
  });
});

describe('a venue without a ping frame of its own', () => {
  test('is probed with a WebSocket ping when quiet, and its pong keeps it live with no reconnect', async () => {
    const time = new ManualClock(T0);
    const protocol = testVenueProtocol();
    expect(protocol.pingFrame).toBeUndefined();
    await using venue = new LocalVenue(TEST_VENUE_FRAMES, { auth: 'accept' });
    const feed = createVenueFeed(protocol, { url: venue.url, credentials: { TEST_VENUE_KEY: 'k' }, silentMs: SILENT_MS, ...FAST }, { inThread: true, nowMs: () => time.nowMs() });
    await withFeed(feed, async (sink) => {
      await wait(() => feed.health().state === 'live' && venue.connections[0]!.received.length === 4, 'auth and the subscription');
      for (let round = 1; round <= 6; round++) {
        time.advance(SILENT_MS * 0.6);
        await wait(() => feed.health().lastMessageMs === time.nowMs(), 'the pong');
        expect(feed.health().state).toBe('live');
      }
      // Only WebSocket pings went out: no frame of the venue's protocol was sent to ask.
      expect(venue.connections[0]!.received).toHaveLength(4);
      expect(venue.connections).toHaveLength(1);
      expect(sink.stales).toEqual([]);
    });
  });
});

describe('dials that never open', () => {
  const credentials = { TEST_VENUE_KEY: 'k' };

  test.each([403, 429])('a refused WebSocket upgrade (HTTP %d) shows its status in the reason', async (status) => {
    using refusing = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('no', { status }) });
    const url = `ws://127.0.0.1:${refusing.port}`;
    const feed = createVenueFeed(testVenueProtocol(), { url, credentials, ...FAST }, { inThread: true });
    await withFeed(feed, async (sink) => {
      await wait(() => feed.health().state === 'backoff', 'the backoff');
      expect(feed.health().reason).toMatch(new RegExp(`^the venue refused the WebSocket upgrade at ${url}: HTTP ${status}; reconnecting in \\d+ ms$`));
      expect(sink.stales.length).toBeGreaterThan(0);
    });
  });

  test('against a closed port every dial counts in reconnects, and the failure is logged once', async () => {
    const closed = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('') });
    const url = `ws://127.0.0.1:${closed.port}`;
    await closed.stop(true);
    const logs: string[] = [];
    const feed = createVenueFeed(testVenueProtocol(), { url, credentials, backoffMinMs: 1, backoffMaxMs: 2 }, { inThread: true, log: (l) => logs.push(l) });
    await withFeed(feed, async () => {
      await wait(() => feed.health().reconnects >= 5, 'five redials');
      expect(feed.health().state).toMatch(/^(backoff|connecting)$/);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toStartWith(`feed test-venue: cannot connect to ${url}: `);
    });
  });

  test('a dial that gets no answer (an unroutable address) is abandoned at silentMs, counted and logged once', async () => {
    const time = new ManualClock(T0);
    const sockets: Socket[] = [];
    const mute = createServer((s) => void sockets.push(s));
    await new Promise<void>((resolve) => mute.listen(0, '127.0.0.1', resolve));
    await using _mute = {
      [Symbol.asyncDispose]: async () => {
        for (const s of sockets) s.destroy();
        await new Promise<void>((resolve) => mute.close(() => resolve()));
      },
    };
    const port = (mute.address() as { port: number }).port;
    const url = `ws://127.0.0.1:${port}`;
    const logs: string[] = [];
    const feed = createVenueFeed(testVenueProtocol(), { url, credentials, silentMs: SILENT_MS, backoffMinMs: 200, backoffMaxMs: 200 }, { inThread: true, nowMs: () => time.nowMs(), log: (l) => logs.push(l) });
    await withFeed(feed, async () => {
      // Backoff long enough for the poll below to see it between dials.
      for (let dial = 1; dial <= 3; dial++) {
        await wait(() => sockets.length === dial && feed.health().state === 'connecting', `dial ${dial}`);
        time.advance(SILENT_MS);
        await wait(() => feed.health().state === 'backoff', `dial ${dial} abandoned`);
        expect(feed.health().reason).toMatch(new RegExp(`^cannot connect to ${url}: no answer within ${SILENT_MS} ms; reconnecting in \\d+ ms$`));
      }
      expect(feed.health().reconnects).toBe(2);
      expect(logs).toEqual([`feed test-venue: cannot connect to ${url}: no answer within ${SILENT_MS} ms; reconnecting with backoff (logged again when this changes)`]);
    });
  });
});
