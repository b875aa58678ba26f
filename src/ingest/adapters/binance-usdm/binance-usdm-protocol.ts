// Binance USDⓈ-M futures: book ticker and trade streams of the USDT-margined perpetuals, on the
// `/public` route of fstream (the route that carries bookTicker and trade; aggTrade is on `/market`).
import type { FeedInstrument } from '../../../domain/feed.ts';
import { CRYPTO } from '../../reference/crypto.ts';
import { PERPETUALS } from '../../reference/perpetuals.ts';
import { binanceStreamProtocol } from '../binance/binance-streams.ts';

/** mds perpetuals are named like Binance's (`BTCUSDT`). */
export function binanceUsdmSymbolOf(symbol: string): string | null {
  return /^[A-Z0-9]{2,16}USDT$/.test(symbol) ? symbol : null;
}

const CRYPTO_CODES = new Set(CRYPTO.map((c) => c.symbol.slice(0, -3)));

/** The built-in perpetuals on a crypto underlying (Binance lists those; the rest are not Binance products). */
const INSTRUMENTS: readonly FeedInstrument[] = PERPETUALS.filter((p) => CRYPTO_CODES.has(p.symbol.slice(0, -4))).map((spec) => ({
  assetClass: 'perpetuals',
  symbol: spec.symbol,
  venueSymbol: spec.symbol,
  name: spec.name,
  decimals: spec.decimals,
}));

export const binanceUsdmProtocol = binanceStreamProtocol({
  id: 'binance-usdm',
  description: 'Binance USDⓈ-M futures: best bid/offer (bookTicker) and trades of the USDT perpetuals',
  assetClass: 'perpetuals',
  defaultUrl: 'wss://fstream.binance.com/public',
  defaultInstruments: INSTRUMENTS,
  venueSymbolOf: binanceUsdmSymbolOf,
  // 10 incoming messages per second, pongs included.
  maxFramesPerSecond: 8,
});
