// Deribit quirks the shared contract suite does not reach: JSON-RPC subscribe calls, heartbeats
// answered with public/test, inverse amounts in USD turned into coins, trade_seq as the trade
// sequence, and the inverse/linear symbol mapping.
import { describe, expect, test } from 'bun:test';
import { deribitProtocol, deribitSymbolOf } from '../../../src/ingest/adapters/deribit/deribit-protocol.ts';

const parse = deribitProtocol.parse;

const notification = (channel: string, data: unknown) => JSON.stringify({ jsonrpc: '2.0', method: 'subscription', params: { channel, data } });
const trade = (name: string, seq: number, price: number, amount: number) => ({ trade_seq: seq, trade_id: String(seq), timestamp: 10 + seq, price, instrument_name: name, direction: 'buy', amount });

describe('deribit calls', () => {
  test('one public/subscribe call per batch names the quote and 100 ms trade channels, with the request id', () => {
    expect(JSON.parse(deribitProtocol.subscribeFrames(['BTC-PERPETUAL', 'SOL_USDC-PERPETUAL'], 9)[0]!)).toEqual({
      jsonrpc: '2.0',
      id: 9,
      method: 'public/subscribe',
      params: { channels: ['quote.BTC-PERPETUAL', 'trades.BTC-PERPETUAL.100ms', 'quote.SOL_USDC-PERPETUAL', 'trades.SOL_USDC-PERPETUAL.100ms'] },
    });
  });

  test('a test_request heartbeat is answered with a public/test call, whose answer is a heartbeat', () => {
    const out = parse(JSON.stringify({ jsonrpc: '2.0', method: 'heartbeat', params: { type: 'test_request' } }), 0);
    if (!Array.isArray(out) || out[0]?.type !== 'ping') throw new Error('expected a ping');
    const reply = out[0].reply;
    expect(JSON.parse(reply)).toMatchObject({ jsonrpc: '2.0', method: 'public/test' });
    expect(reply).toBe(deribitProtocol.pingFrame!());
    expect(parse(JSON.stringify({ jsonrpc: '2.0', id: 0, result: { version: '1.2.26' } }), 0)).toEqual([{ type: 'heartbeat' }]);
  });

  test('a notification of a channel it never subscribes is a parse error', () => {
    expect(parse(notification('book.BTC-PERPETUAL.100ms', {}), 0)).toMatchObject({ type: 'parse-error' });
  });
});

describe('deribit sizes', () => {
  test('inverse amounts are USD, turned into coins at each side\'s own price', () => {
    const out = parse(notification('quote.ETH-PERPETUAL', { timestamp: 5, instrument_name: 'ETH-PERPETUAL', best_bid_price: 4000, best_bid_amount: 2000, best_ask_price: 5000, best_ask_amount: 1000 }), 0);
    expect(out).toEqual([{ type: 'quote', venueSymbol: 'ETH-PERPETUAL', tsMs: 5, bid: 4000, ask: 5000, bidSize: 0.5, askSize: 0.2 }]);
  });

  test('linear amounts are coins already', () => {
    expect(parse(notification('trades.XRP_USDC-PERPETUAL.100ms', [trade('XRP_USDC-PERPETUAL', 3, 2.5, 400)]), 0)).toEqual([
      { type: 'trade', venueSymbol: 'XRP_USDC-PERPETUAL', tsMs: 13, price: 2.5, size: 400, seq: 3 },
    ]);
  });
});

describe('deribit trade sequence', () => {
  test('each trade of a batch carries its trade_seq, in order', () => {
    const out = parse(notification('trades.BTC-PERPETUAL.100ms', [trade('BTC-PERPETUAL', 100, 50000, 10), trade('BTC-PERPETUAL', 101, 50000, 20)]), 0);
    expect((out as { seq?: number }[]).map((e) => e.seq)).toEqual([100, 101]);
  });

  test('a trade without trade_seq still counts, without a sequence', () => {
    const { trade_seq: _seq, ...noSeq } = trade('BTC-PERPETUAL', 100, 50000, 10);
    expect(parse(notification('trades.BTC-PERPETUAL.100ms', [noSeq]), 0)).toEqual([{ type: 'trade', venueSymbol: 'BTC-PERPETUAL', tsMs: 110, price: 50000, size: 0.0002 }]);
  });
});

describe('deribit symbols', () => {
  test('BTC and ETH map to the inverse perpetuals, other coins to the USDC linear ones', () => {
    expect(deribitSymbolOf('BTCUSDT')).toBe('BTC-PERPETUAL');
    expect(deribitSymbolOf('ETHUSDT')).toBe('ETH-PERPETUAL');
    expect(deribitSymbolOf('SOLUSDT')).toBe('SOL_USDC-PERPETUAL');
    expect(deribitSymbolOf('BTCUSD')).toBeNull();
    expect(deribitProtocol.defaultInstruments.map((i) => i.venueSymbol)).toEqual(['BTC-PERPETUAL', 'ETH-PERPETUAL', 'SOL_USDC-PERPETUAL']);
  });
});
