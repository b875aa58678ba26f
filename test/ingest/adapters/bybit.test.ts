// Bybit v5 quirks the shared contract suite does not reach: orderbook.1 deltas merged with the
// last known side per connection, update ids as a gap-free sequence across restarts, subscribe
// batches within 10 topics, app-level pings, and the spot/linear differences.
import { describe, expect, test } from 'bun:test';
import { bybitLinearProtocol } from '../../../src/ingest/adapters/bybit-linear/bybit-linear-protocol.ts';
import { bybitProtocol } from '../../../src/ingest/adapters/bybit/bybit-protocol.ts';
import type { VenueEvent, VenueParser } from '../../../src/ingest/adapters/venue-protocol.ts';

type Level = [string, string];

function book(type: 'snapshot' | 'delta', u: number, b: Level[], a: Level[], symbol = 'BTCUSDT'): string {
  return JSON.stringify({ topic: `orderbook.1.${symbol}`, type, ts: 1000 + u, data: { s: symbol, b, a, u, seq: 9000 + u }, cts: 900 + u });
}

/** The quotes a parser makes of the frames, as [bid, ask, seq]. */
function quotes(parse: VenueParser, frames: string[]): [number, number, number | undefined][] {
  const out: [number, number, number | undefined][] = [];
  for (const f of frames) {
    const events = parse(f, 0);
    if (!Array.isArray(events)) throw new Error(`parse error: ${events.message}`);
    for (const e of events as VenueEvent[]) if (e.type === 'quote') out.push([e.bid, e.ask, e.seq]);
  }
  return out;
}

describe('bybit orderbook.1 on one connection', () => {
  test('a delta with one side keeps the other side from the snapshot', () => {
    const parse = bybitProtocol.createParser!();
    expect(
      quotes(parse, [
        book('snapshot', 10, [['100', '1']], [['101', '2']]),
        book('delta', 11, [], [['100.5', '3']]),
        book('delta', 12, [['99.5', '4']], []),
      ]),
    ).toEqual([
      [100, 101, 10],
      [100, 100.5, 11],
      [99.5, 100.5, 12],
    ]);
  });

  test('sizes follow their side, and the quote time is the matching engine time', () => {
    const parse = bybitProtocol.createParser!();
    parse(book('snapshot', 10, [['100', '1']], [['101', '2']]), 0);
    expect(parse(book('delta', 11, [], [['100.5', '3']]), 0)).toEqual([
      { type: 'quote', venueSymbol: 'BTCUSDT', tsMs: 911, bid: 100, ask: 100.5, bidSize: 1, askSize: 3, seq: 11 },
    ]);
  });

  test('a level removed with size 0 empties its side: no quote until it is back, and no false gap', () => {
    const parse = bybitProtocol.createParser!();
    expect(
      quotes(parse, [
        book('snapshot', 10, [['100', '1']], [['101', '2']]),
        book('delta', 11, [['100', '0']], []),
        book('delta', 12, [['99', '5']], []),
        book('delta', 13, [], [['100.8', '1']]),
      ]),
    ).toEqual([
      [100, 101, 10],
      [99, 101, 11],
      [99, 100.8, 12],
    ]);
  });

  test('a missed update shows as a gap in seq', () => {
    const parse = bybitProtocol.createParser!();
    const seqs = quotes(parse, [book('snapshot', 10, [['100', '1']], [['101', '2']]), book('delta', 13, [], [['100.5', '3']])]).map((q) => q[2]);
    expect(seqs).toEqual([10, 13]);
  });

  test('the snapshot a service restart sends with u = 1 continues the sequence instead of going back', () => {
    const parse = bybitProtocol.createParser!();
    const seqs = quotes(parse, [
      book('snapshot', 500, [['100', '1']], [['101', '2']]),
      book('delta', 501, [], [['100.5', '3']]),
      book('snapshot', 1, [['99', '1']], [['100', '2']]),
      book('delta', 2, [['99.5', '1']], []),
    ]).map((q) => q[2]);
    expect(seqs).toEqual([500, 501, 502, 503]);
  });

  test('the snapshot repeated after quiet seconds keeps its update id, so it reads as a repeat', () => {
    const parse = bybitProtocol.createParser!();
    const seqs = quotes(parse, [book('snapshot', 10, [['100', '1']], [['101', '2']]), book('snapshot', 10, [['100', '1']], [['101', '2']])]).map((q) => q[2]);
    expect(seqs).toEqual([10, 10]);
  });

  test('symbols and connections keep their own books', () => {
    const a = bybitProtocol.createParser!();
    const b = bybitProtocol.createParser!();
    a(book('snapshot', 10, [['100', '1']], [['101', '2']]), 0);
    a(book('snapshot', 20, [['5', '1']], [['6', '2']], 'ETHUSDT'), 0);
    expect(quotes(a, [book('delta', 11, [], [['100.5', '3']])])).toEqual([[100, 100.5, 11]]);
    // Another connection has seen no snapshot: the one-sided delta alone makes no quote.
    expect(quotes(b, [book('delta', 11, [], [['100.5', '3']])])).toEqual([]);
  });

  test('the stateless parse quotes only frames that give both sides, without seq', () => {
    expect(quotes(bybitProtocol.parse, [book('snapshot', 10, [['100', '1']], [['101', '2']])])).toEqual([[100, 101, undefined]]);
    expect(quotes(bybitProtocol.parse, [book('delta', 11, [], [['100.5', '3']])])).toEqual([]);
  });
});

describe.each([
  ['bybit', bybitProtocol],
  ['bybit-linear', bybitLinearProtocol],
] as const)('%s protocol', (_id, protocol) => {
  test('subscribes top of book and trades, at most 10 topics a request, covering every symbol', () => {
    const symbols = protocol.defaultInstruments.map((i) => i.venueSymbol);
    const topics: string[] = [];
    for (let i = 0; i < symbols.length; i += protocol.maxSymbolsPerFrame) {
      for (const frame of protocol.subscribeFrames(symbols.slice(i, i + protocol.maxSymbolsPerFrame), i + 1)) {
        const msg = JSON.parse(frame);
        expect(msg.op).toBe('subscribe');
        expect(msg.req_id).toBe(String(i + 1));
        expect(msg.args.length).toBeLessThanOrEqual(10);
        topics.push(...msg.args);
      }
    }
    expect(topics.sort()).toEqual(symbols.flatMap((s) => [`orderbook.1.${s}`, `publicTrade.${s}`]).sort());
  });

  test('pings with {"op":"ping"} every 20 s', () => {
    expect(protocol.pingFrame?.()).toBe('{"op":"ping"}');
    expect(protocol.pingIntervalMs).toBe(20_000);
  });
});

describe('bybit symbol mapping', () => {
  test('spot takes USDT as USD: BTCUSD is fed by BTCUSDT', () => {
    expect(bybitProtocol.venueSymbolOf('BTCUSD')).toBe('BTCUSDT');
    expect(bybitProtocol.venueSymbolOf('BTCEUR')).toBeNull();
    expect(bybitProtocol.defaultInstruments.find((i) => i.symbol === 'ETHUSD')?.venueSymbol).toBe('ETHUSDT');
  });

  test('linear perpetuals keep their name and cover the crypto perpetuals', () => {
    expect(bybitLinearProtocol.venueSymbolOf('BTCUSDT')).toBe('BTCUSDT');
    expect(bybitLinearProtocol.venueSymbolOf('BTCUSD')).toBeNull();
    expect(bybitLinearProtocol.defaultInstruments.map((i) => i.symbol)).toEqual(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
  });
});
