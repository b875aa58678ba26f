// OKX swaps: the v5 public WebSocket (no key), `bbo-tbt` and `trades` of the USDT-margined
// perpetual swaps on the built-in crypto underlyings. Same envelope and parsers as OKX spot; sizes
// arrive in contracts and leave in coins.
import { cryptoPerpetualInstruments } from '../default-instruments.ts';
import { OKX_STREAM, parseOkxFrame } from '../okx/parse-okx.ts';
import type { VenueProtocol } from '../venue-protocol.ts';

/** `BTCUSDT` → `BTC-USDT-SWAP`. */
export function okxSwapSymbolOf(symbol: string): string | null {
  return /^[A-Z0-9]{2,16}USDT$/.test(symbol) ? `${symbol.slice(0, -4)}-USDT-SWAP` : null;
}

/**
 * Coins per contract (`ctVal` of OKX's public instruments list) for the default swaps. A swap named
 * in the feeds file outside this table is served with prices and without sizes.
 */
export const OKX_SWAP_CONTRACT_SIZES: ReadonlyMap<string, number> = new Map([
  ['BTC-USDT-SWAP', 0.01],
  ['ETH-USDT-SWAP', 0.1],
  ['SOL-USDT-SWAP', 1],
]);

export const okxSwapProtocol: VenueProtocol = {
  id: 'okx-swap',
  description: 'OKX USDT perpetual swaps (v5): top of book (bbo-tbt) and trades, sizes in coins',
  assetClass: 'perpetuals',
  defaultUrl: 'wss://ws.okx.com:8443/ws/v5/public',
  defaultInstruments: cryptoPerpetualInstruments(okxSwapSymbolOf),
  venueSymbolOf: okxSwapSymbolOf,
  ...OKX_STREAM,
  parse: (frame) => parseOkxFrame(frame, OKX_SWAP_CONTRACT_SIZES),
};
