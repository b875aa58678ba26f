// Coinbase quirks the shared contract suite does not reach: one channel per subscribe frame,
// envelope times with nanoseconds, trade snapshots left out, symbol mapping.
import { describe, expect, test } from 'bun:test';
import { coinbaseProtocol } from '../../../src/ingest/adapters/coinbase/coinbase-protocol.ts';

const tickerFrame = (timestamp: string | undefined) =>
  JSON.stringify({
    channel: 'ticker',
    client_id: '',
    ...(timestamp === undefined ? {} : { timestamp }),
    sequence_num: 3,
    events: [{ type: 'update', tickers: [{ type: 'ticker', product_id: 'BTC-USD', price: '10', best_bid: '9.5', best_bid_quantity: '2', best_ask: '10.5', best_ask_quantity: '' }] }],
  });

describe('coinbase protocol', () => {
  test('subscribes each batch with one frame per channel, plus heartbeats to keep quiet products open', () => {
    const frames = coinbaseProtocol.subscribeFrames(['BTC-USD', 'ETH-USD'], 1).map((f) => JSON.parse(f));
    expect(frames).toEqual([
      { type: 'subscribe', product_ids: ['BTC-USD', 'ETH-USD'], channel: 'ticker' },
      { type: 'subscribe', product_ids: ['BTC-USD', 'ETH-USD'], channel: 'market_trades' },
      { type: 'subscribe', channel: 'heartbeats' },
    ]);
    // 8 unauthenticated messages a second per IP: the client's pace stays under it.
    expect(coinbaseProtocol.maxFramesPerSecond).toBeLessThan(8);
  });

  test('stamps a quote with the envelope time, nanoseconds cut to milliseconds, and the receive time without one', () => {
    const quote = { type: 'quote' as const, venueSymbol: 'BTC-USD', bid: 9.5, ask: 10.5, bidSize: 2, askSize: null };
    expect(coinbaseProtocol.parse(tickerFrame('2026-11-23T21:30:37.999999999Z'), 5)).toEqual([{ ...quote, tsMs: Date.UTC(2026, 10, 23, 21, 30, 37, 999) }]);
    expect(coinbaseProtocol.parse(tickerFrame(undefined), 5)).toEqual([{ ...quote, tsMs: 5 }]);
  });

  test('takes trades from update events only: the snapshot on subscribe repeats history', () => {
    const trade = { trade_id: '1', product_id: 'ETH-USD', price: '3000', size: '1', side: 'BUY', time: '2026-11-23T21:30:37.250Z' };
    const frame = (type: string) => JSON.stringify({ channel: 'market_trades', timestamp: '2026-11-23T21:30:37.3Z', sequence_num: 1, events: [{ type, trades: [trade] }] });
    expect(coinbaseProtocol.parse(frame('snapshot'), 0)).toEqual([]);
    expect(coinbaseProtocol.parse(frame('update'), 0)).toEqual([{ type: 'trade', venueSymbol: 'ETH-USD', tsMs: Date.UTC(2026, 10, 23, 21, 30, 37, 250), price: 3000, size: 1 }]);
  });

  test('maps USD pairs to product ids and lists only pairs Coinbase trades in USD', () => {
    expect(coinbaseProtocol.venueSymbolOf('BTCUSD')).toBe('BTC-USD');
    expect(coinbaseProtocol.venueSymbolOf('DOGEUSD')).toBe('DOGE-USD');
    expect(coinbaseProtocol.venueSymbolOf('BTCEUR')).toBeNull();
    const symbols = coinbaseProtocol.defaultInstruments.map((i) => i.symbol);
    expect(symbols).toContain('BTCUSD');
    expect(symbols).not.toContain('BNBUSD');
    expect(symbols).not.toContain('TRXUSD');
  });
});
