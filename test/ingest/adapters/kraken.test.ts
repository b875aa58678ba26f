// Kraken v2 quirks the shared contract suite does not reach: subscribe parameters, numbers as JSON
// numbers, trade ids as the sequence, acks one per symbol, v2 symbol names.
import { describe, expect, test } from 'bun:test';
import { krakenProtocol } from '../../../src/ingest/adapters/kraken/kraken-protocol.ts';

describe('kraken protocol', () => {
  test('subscribes the ticker on every best bid/offer change with a snapshot, and trades without one', () => {
    const frames = krakenProtocol.subscribeFrames(['BTC/USD', 'ETH/USD'], 9).map((f) => JSON.parse(f));
    expect(frames).toEqual([
      { method: 'subscribe', params: { channel: 'ticker', symbol: ['BTC/USD', 'ETH/USD'], event_trigger: 'bbo', snapshot: true }, req_id: 9 },
      { method: 'subscribe', params: { channel: 'trade', symbol: ['BTC/USD', 'ETH/USD'], snapshot: false }, req_id: 9 },
    ]);
  });

  test('numbers trades by trade_id so a skipped trade shows as a gap', () => {
    const trade = (id: number) => ({ symbol: 'SOL/USD', side: 'buy', price: 140.1, qty: 2, ord_type: 'limit', trade_id: id, timestamp: '2026-11-23T21:30:37.000001Z' });
    const out = krakenProtocol.parse(JSON.stringify({ channel: 'trade', type: 'update', data: [trade(41), trade(43)] }), 0);
    expect(Array.isArray(out) && out.map((e) => (e.type === 'trade' ? e.seq : null))).toEqual([41, 43]);
  });

  test('refuses prices sent as strings (v2 sends numbers)', () => {
    const frame = JSON.stringify({ channel: 'ticker', type: 'update', data: [{ symbol: 'BTC/USD', bid: '1', bid_qty: 1, ask: '2', ask_qty: 1 }] });
    expect(krakenProtocol.parse(frame, 0)).toMatchObject({ type: 'parse-error' });
  });

  test('acknowledges each symbol on its own', () => {
    const ack = (symbol: string) => JSON.stringify({ method: 'subscribe', result: { channel: 'trade', snapshot: false, symbol }, success: true, req_id: 1 });
    expect(krakenProtocol.parse(ack('ETH/USD'), 0)).toEqual([{ type: 'subscribed', venueSymbols: ['ETH/USD'] }]);
  });

  test('maps USD pairs to v2 names (BTC and DOGE, not v1 XBT and XDG)', () => {
    expect(krakenProtocol.venueSymbolOf('BTCUSD')).toBe('BTC/USD');
    expect(krakenProtocol.venueSymbolOf('DOGEUSD')).toBe('DOGE/USD');
    expect(krakenProtocol.venueSymbolOf('BTCUSDT')).toBeNull();
    expect(krakenProtocol.defaultInstruments.map((i) => i.venueSymbol)).toContain('DOGE/USD');
  });
});
