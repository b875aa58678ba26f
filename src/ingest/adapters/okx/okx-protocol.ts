// OKX spot: the v5 public WebSocket (no key), `bbo-tbt` for the top of book and `trades`, of the
// built-in crypto pairs through their USDT pairs (OKX's global site lists no USD spot pairs for
// them, so USDT is taken as USD).
import { spotCryptoInstruments } from '../default-instruments.ts';
import type { VenueProtocol } from '../venue-protocol.ts';
import { OKX_STREAM, parseOkxFrame } from './parse-okx.ts';

/** `BTCUSD` → `BTC-USDT` (USDT taken as USD). */
export function okxSpotSymbolOf(symbol: string): string | null {
  return /^[A-Z0-9]{2,12}USD$/.test(symbol) ? `${symbol.slice(0, -3)}-USDT` : null;
}

export const okxProtocol: VenueProtocol = {
  id: 'okx',
  description: 'OKX spot (v5): top of book (bbo-tbt) and trades of the USDT pairs, USDT taken as USD',
  assetClass: 'crypto',
  defaultUrl: 'wss://ws.okx.com:8443/ws/v5/public',
  defaultInstruments: spotCryptoInstruments(okxSpotSymbolOf),
  venueSymbolOf: okxSpotSymbolOf,
  ...OKX_STREAM,
  parse: (frame) => parseOkxFrame(frame),
};
