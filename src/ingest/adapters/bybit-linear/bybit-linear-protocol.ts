// Bybit linear: the v5 public linear WebSocket (no key), `orderbook.1` and `publicTrade` of the
// USDT perpetuals on the built-in crypto underlyings. Same envelope and parsers as Bybit spot.
import { cryptoPerpetualInstruments } from '../default-instruments.ts';
import { BYBIT_STREAM } from '../bybit/parse-bybit.ts';
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
  ...BYBIT_STREAM,
};
