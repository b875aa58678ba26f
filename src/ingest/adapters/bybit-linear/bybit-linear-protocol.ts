// Bybit linear: the v5 public linear WebSocket (no key), `orderbook.1` and `publicTrade` of the
// USDT perpetuals on the built-in crypto underlyings. Same envelope and parsers as Bybit spot.
import { cryptoPerpetualInstruments } from '../default-instruments.ts';
import { BYBIT_PING_FRAME, BYBIT_PING_INTERVAL_MS, bybitSubscribeFrames, createBybitParser, parseBybitFrameAlone } from '../bybit/parse-bybit.ts';
import type { VenueProtocol } from '../venue-protocol.ts';

/** mds perpetuals are named like Bybit's linear contracts (`BTCUSDT`). */
export function bybitLinearSymbolOf(symbol: string): string | null {
  return /^[A-Z0-9]{2,16}USDT$/.test(symbol) ? symbol : null;
}

export const bybitLinearProtocol: VenueProtocol = {
  id: 'bybit-linear',
  description: 'Bybit USDT perpetuals (v5 linear): top of book (orderbook.1) and trades',
  assetClass: 'perpetuals',
  defaultUrl: 'wss://stream.bybit.com/v5/public/linear',
  defaultInstruments: cryptoPerpetualInstruments(bybitLinearSymbolOf),
  venueSymbolOf: bybitLinearSymbolOf,
  // Linear states only a total of 21,000 characters of topics per connection; spot's 10 topics a
  // request is kept here too.
  maxSymbolsPerFrame: 5,
  maxFramesPerSecond: 5,
  subscribeFrames: bybitSubscribeFrames,
  pingFrame: () => BYBIT_PING_FRAME,
  pingIntervalMs: BYBIT_PING_INTERVAL_MS,
  parse: parseBybitFrameAlone,
  createParser: createBybitParser,
};
