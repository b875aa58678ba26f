// Hyperliquid quirks the shared contract suite does not reach: one subscription per message, the
// JSON ping, the top level of an l2Book push, numeric sizes, errors that quote a coin, and the
// coin-only symbol mapping of the main dex.
import { describe, expect, test } from 'bun:test';
import { hyperliquidProtocol, hyperliquidSymbolOf } from '../../../src/ingest/adapters/hyperliquid/hyperliquid-protocol.ts';

const parse = hyperliquidProtocol.parse;

describe('hyperliquid subscribing', () => {
  test('each coin takes two messages, one subscription each: bbo and trades', () => {
    expect(hyperliquidProtocol.maxSymbolsPerFrame).toBe(1);
    expect(hyperliquidProtocol.subscribeFrames(['BTC', 'ETH'], 3).map((f) => JSON.parse(f))).toEqual([
      { method: 'subscribe', subscription: { type: 'bbo', coin: 'BTC' } },
      { method: 'subscribe', subscription: { type: 'trades', coin: 'BTC' } },
      { method: 'subscribe', subscription: { type: 'bbo', coin: 'ETH' } },
      { method: 'subscribe', subscription: { type: 'trades', coin: 'ETH' } },
    ]);
  });

  test('sends at most 2000 messages a minute however many coins it subscribes', () => {
    expect(hyperliquidProtocol.maxFramesPerSecond * 60).toBeLessThanOrEqual(2000);
  });

  test('keeps the connection inside the 60 s idle limit with a JSON ping', () => {
    expect(JSON.parse(hyperliquidProtocol.pingFrame!())).toEqual({ method: 'ping' });
    expect(hyperliquidProtocol.pingIntervalMs!).toBeLessThan(60_000);
  });

  test('an unsubscribe answer carries nothing', () => {
    expect(parse(JSON.stringify({ channel: 'subscriptionResponse', data: { method: 'unsubscribe', subscription: { type: 'bbo', coin: 'BTC' } } }), 0)).toEqual([{ type: 'heartbeat' }]);
  });
});

describe('hyperliquid books and trades', () => {
  test('an l2Book push quotes its best levels and ignores the rest', () => {
    const frame = JSON.stringify({ channel: 'l2Book', data: { coin: 'BTC', time: 5, levels: [[{ px: '10', sz: '1', n: 1 }, { px: '9', sz: '5', n: 1 }], [{ px: '11', sz: '2', n: 1 }]] } });
    expect(parse(frame, 0)).toEqual([{ type: 'quote', venueSymbol: 'BTC', tsMs: 5, bid: 10, ask: 11, bidSize: 1, askSize: 2 }]);
  });

  test('an l2Book push with an empty side makes no quote: the book is empty', () => {
    const frame = JSON.stringify({ channel: 'l2Book', data: { coin: 'BTC', time: 5, levels: [[], [{ px: '11', sz: '2', n: 1 }]] } });
    expect(parse(frame, 0)).toEqual([{ type: 'book-empty', venueSymbol: 'BTC' }]);
  });

  test('sizes sent as numbers are read as they are', () => {
    const frame = JSON.stringify({ channel: 'trades', data: [{ coin: 'SOL', side: 'B', px: '140.5', sz: 3, hash: '0x0', time: 7, tid: 1 }] });
    expect(parse(frame, 0)).toEqual([{ type: 'trade', venueSymbol: 'SOL', tsMs: 7, price: 140.5, size: 3 }]);
  });

  test('a trade without its time is a parse error', () => {
    const frame = JSON.stringify({ channel: 'trades', data: [{ coin: 'SOL', side: 'B', px: '140.5', sz: '3' }] });
    expect(parse(frame, 0)).toMatchObject({ type: 'parse-error' });
  });
});

describe('hyperliquid errors', () => {
  test('an error quoting a subscription refuses that coin only', () => {
    const message = 'Invalid subscription: {"type":"bbo","coin":"NOPE"}';
    expect(parse(JSON.stringify({ channel: 'error', data: message }), 0)).toEqual([{ type: 'symbol-error', venueSymbol: 'NOPE', message }]);
  });

  test('"Already subscribed" confirms the subscription instead of failing it', () => {
    expect(parse(JSON.stringify({ channel: 'error', data: 'Already subscribed: {"type":"bbo","coin":"BTC"}' }), 0)).toEqual([{ type: 'subscribed', venueSymbols: ['BTC'] }]);
  });
});

describe('hyperliquid symbols', () => {
  test('mds USDT perpetuals map to the coin; the defaults are the crypto perpetuals of the main dex', () => {
    expect(hyperliquidSymbolOf('BTCUSDT')).toBe('BTC');
    expect(hyperliquidSymbolOf('BTCUSD')).toBeNull();
    expect(hyperliquidProtocol.defaultInstruments.map((i) => [i.symbol, i.venueSymbol])).toEqual([
      ['BTCUSDT', 'BTC'],
      ['ETHUSDT', 'ETH'],
      ['SOLUSDT', 'SOL'],
    ]);
  });
});
