// Bybit spot: the v5 public spot WebSocket (no key), `orderbook.1` for the top of book and
// `publicTrade`, of the built-in crypto pairs through their USDT pairs (USDT taken as USD).
import { spotCryptoInstruments } from '../default-instruments.ts';
import type { VenueProtocol } from '../venue-protocol.ts';
import { BYBIT_STREAM } from './parse-bybit.ts';

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
  ...BYBIT_STREAM,
};
