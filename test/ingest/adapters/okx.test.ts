// OKX v5 quirks the shared contract suite does not reach: the text ping/pong keepalive, one
// subscribe operation per batch within the 64 KB limit, errors naming an instId in their arg or
// their message, swap sizes from contracts to coins, and the USDT-as-USD spot mapping.
import { describe, expect, test } from 'bun:test';
import { okxSpotSymbolOf, okxProtocol } from '../../../src/ingest/adapters/okx/okx-protocol.ts';
import { okxSwapProtocol, okxSwapSymbolOf } from '../../../src/ingest/adapters/okx-swap/okx-swap-protocol.ts';
import { CRYPTO } from '../../../src/ingest/reference/crypto.ts';

const bbo = (instId: string, bid: [string, string], ask: [string, string]) =>
  JSON.stringify({ arg: { channel: 'bbo-tbt', instId }, data: [{ asks: [[ask[0], ask[1], '0', '1']], bids: [[bid[0], bid[1], '0', '2']], ts: '1700000000123', seqId: 42 }] });

describe('okx keepalive', () => {
  test('pings with the text ping well inside the 30 s idle limit, and the text pong is a heartbeat', () => {
    expect(okxProtocol.pingFrame!()).toBe('ping');
    expect(okxProtocol.pingIntervalMs!).toBeLessThan(30_000);
    expect(okxProtocol.parse('pong', 0)).toEqual([{ type: 'heartbeat' }]);
    expect(okxSwapProtocol.parse('pong', 0)).toEqual([{ type: 'heartbeat' }]);
  });
});

describe('okx subscribing', () => {
  test('one subscribe operation carries bbo-tbt and trades of every instrument, with the request id', () => {
    expect(JSON.parse(okxProtocol.subscribeFrames(['BTC-USDT', 'ETH-USDT'], 7)[0]!)).toEqual({
      id: '7',
      op: 'subscribe',
      args: [
        { channel: 'bbo-tbt', instId: 'BTC-USDT' },
        { channel: 'trades', instId: 'BTC-USDT' },
        { channel: 'bbo-tbt', instId: 'ETH-USDT' },
        { channel: 'trades', instId: 'ETH-USDT' },
      ],
    });
  });

  test('a full batch of long swap names stays under the 64 KB a subscribe request may carry', () => {
    const names = Array.from({ length: okxSwapProtocol.maxSymbolsPerFrame }, (_, i) => `LONGCOINNAME${i}-USDT-SWAP`);
    const frames = okxSwapProtocol.subscribeFrames(names, 1);
    expect(frames).toHaveLength(1);
    expect(new TextEncoder().encode(frames[0]!).length).toBeLessThan(64 * 1024);
  });
});

describe('okx errors', () => {
  test('an error whose arg names an instId is that instrument refused', () => {
    const frame = JSON.stringify({ event: 'error', code: '60018', msg: 'channel does not exist', arg: { channel: 'trades', instId: 'ABC-USDT' }, connId: 'x' });
    expect(okxProtocol.parse(frame, 0)).toEqual([{ type: 'symbol-error', venueSymbol: 'ABC-USDT', message: '60018 channel does not exist' }]);
  });

  test('an error naming no instrument concerns the connection and does not end it', () => {
    const frame = JSON.stringify({ event: 'error', code: '60014', msg: 'Requests too frequent.', connId: 'x' });
    expect(okxProtocol.parse(frame, 0)).toEqual([{ type: 'error', message: '60014 Requests too frequent.', fatal: false }]);
  });

  test('the connection-count report and unsubscribe answers carry nothing', () => {
    expect(okxProtocol.parse(JSON.stringify({ event: 'channel-conn-count', channel: 'bbo-tbt', connCount: '2', connId: 'x' }), 0)).toEqual([{ type: 'heartbeat' }]);
    expect(okxProtocol.parse(JSON.stringify({ event: 'unsubscribe', arg: { channel: 'trades', instId: 'BTC-USDT' }, connId: 'x' }), 0)).toEqual([{ type: 'heartbeat' }]);
  });
});

describe('okx top of book', () => {
  test('the book seqId is not passed on as seq: it also steps for changes below the best level', () => {
    const out = okxProtocol.parse(bbo('BTC-USDT', ['100', '1'], ['101', '2']), 0);
    expect(out).toEqual([{ type: 'quote', venueSymbol: 'BTC-USDT', tsMs: 1700000000123, bid: 100, ask: 101, bidSize: 1, askSize: 2 }]);
  });

  test('a tickers push with an empty side makes no quote: the book is empty', () => {
    const frame = JSON.stringify({ arg: { channel: 'tickers', instId: 'OP-USDT' }, data: [{ instType: 'SPOT', instId: 'OP-USDT', last: '0.4', askPx: '', askSz: '0', bidPx: '0.39', bidSz: '10', ts: '1700000000000' }] });
    expect(okxProtocol.parse(frame, 0)).toEqual([{ type: 'book-empty', venueSymbol: 'OP-USDT' }]);
  });

  test('a push without its time is a parse error, not a quote at time zero', () => {
    const frame = JSON.stringify({ arg: { channel: 'bbo-tbt', instId: 'BTC-USDT' }, data: [{ asks: [['101', '1', '0', '1']], bids: [['100', '1', '0', '1']] }] });
    expect(okxProtocol.parse(frame, 0)).toMatchObject({ type: 'parse-error' });
  });
});

describe('okx swaps', () => {
  test('book and trade sizes count contracts and leave as coins', () => {
    expect(okxSwapProtocol.parse(bbo('SOL-USDT-SWAP', ['140.1', '30'], ['140.2', '12']), 0)).toEqual([
      { type: 'quote', venueSymbol: 'SOL-USDT-SWAP', tsMs: 1700000000123, bid: 140.1, ask: 140.2, bidSize: 30, askSize: 12 },
    ]);
    expect(okxSwapProtocol.parse(bbo('BTC-USDT-SWAP', ['100', '300'], ['101', '5']), 0)).toEqual([
      { type: 'quote', venueSymbol: 'BTC-USDT-SWAP', tsMs: 1700000000123, bid: 100, ask: 101, bidSize: 3, askSize: 0.05 },
    ]);
  });

  test('a swap of unknown contract size keeps its prices and gives no sizes', () => {
    expect(okxSwapProtocol.parse(bbo('XRP-USDT-SWAP', ['2.2', '30'], ['2.21', '12']), 0)).toEqual([
      { type: 'quote', venueSymbol: 'XRP-USDT-SWAP', tsMs: 1700000000123, bid: 2.2, ask: 2.21, bidSize: null, askSize: null },
    ]);
  });

  test('the same spot frame keeps its coin sizes', () => {
    expect(okxProtocol.parse(bbo('BTC-USDT', ['100', '300'], ['101', '5']), 0)).toMatchObject([{ bidSize: 300, askSize: 5 }]);
  });
});

describe('okx symbols', () => {
  test('spot: mds USD pairs map to the USDT pairs (USDT taken as USD); other symbols do not map', () => {
    expect(okxSpotSymbolOf('BTCUSD')).toBe('BTC-USDT');
    expect(okxSpotSymbolOf('BTCUSDT')).toBeNull();
    expect(okxSpotSymbolOf('EURUSD=')).toBeNull();
    expect(okxProtocol.defaultInstruments.map((i) => i.symbol)).toEqual(CRYPTO.map((c) => c.symbol));
  });

  test('swaps: mds USDT perpetuals map to -USDT-SWAP; the defaults are the crypto ones', () => {
    expect(okxSwapSymbolOf('BTCUSDT')).toBe('BTC-USDT-SWAP');
    expect(okxSwapSymbolOf('BTCUSD')).toBeNull();
    expect(okxSwapProtocol.defaultInstruments.map((i) => i.venueSymbol)).toEqual(['BTC-USDT-SWAP', 'ETH-USDT-SWAP', 'SOL-USDT-SWAP']);
  });
});
