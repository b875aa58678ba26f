// Bybit spot: the v5 public spot WebSocket (no key), `orderbook.1` for the top of book and
// `publicTrade`, of the built-in crypto pairs through their USDT pairs (USDT taken as USD).
import { spotCryptoInstruments } from '../default-instruments.ts';
import type { VenueProtocol } from '../venue-protocol.ts';
import { BYBIT_PING_FRAME, BYBIT_PING_INTERVAL_MS, bybitSubscribeFrames, createBybitParser, parseBybitFrameAlone } from './parse-bybit.ts';

/** `BTCUSD` → `BTCUSDT`: Bybit spot quotes these coins in USDT only, so USDT stands in for USD. */
export function bybitSpotSymbolOf(symbol: string): string | null {
  return /^[A-Z0-9]{2,12}USD$/.test(symbol) ? `${symbol}T` : null;
}

export const bybitProtocol: VenueProtocol = {
  id: 'bybit',
  description: 'Bybit spot (v5): top of book (orderbook.1) and trades of the USDT pairs, USDT taken as USD',
  assetClass: 'crypto',
  defaultUrl: 'wss://stream.bybit.com/v5/public/spot',
  defaultInstruments: spotCryptoInstruments(bybitSpotSymbolOf),
  venueSymbolOf: bybitSpotSymbolOf,
  // Spot takes at most 10 topics per subscribe request: two per symbol.
  maxSymbolsPerFrame: 5,
  maxFramesPerSecond: 5,
  subscribeFrames: bybitSubscribeFrames,
  pingFrame: () => BYBIT_PING_FRAME,
  pingIntervalMs: BYBIT_PING_INTERVAL_MS,
  parse: parseBybitFrameAlone,
  createParser: createBybitParser,
};
