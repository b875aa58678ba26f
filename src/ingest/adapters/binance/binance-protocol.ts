// Binance spot: book ticker and trade streams for the built-in crypto pairs quoted in USDT (USDT
// is taken as USD: BTCUSD is fed by BTCUSDT).
import type { FeedInstrument } from '../../../domain/feed.ts';
import { CRYPTO } from '../../reference/crypto.ts';
import { binanceStreamProtocol } from './binance-streams.ts';

/** `BTCUSD` → `BTCUSDT`; only USD-quoted mds pairs map. */
export function binanceSpotSymbolOf(symbol: string): string | null {
  return /^[A-Z0-9]{2,12}USD$/.test(symbol) ? `${symbol}T` : null;
}

const INSTRUMENTS: readonly FeedInstrument[] = CRYPTO.map((spec) => ({
  assetClass: 'crypto',
  symbol: spec.symbol,
  venueSymbol: binanceSpotSymbolOf(spec.symbol)!,
  name: spec.name,
  decimals: spec.decimals,
}));

export const binanceProtocol = binanceStreamProtocol({
  id: 'binance',
  description: 'Binance spot: best bid/offer (bookTicker) and trades of the USDT pairs, USDT taken as USD',
  assetClass: 'crypto',
  defaultUrl: 'wss://stream.binance.com:9443',
  defaultInstruments: INSTRUMENTS,
  venueSymbolOf: binanceSpotSymbolOf,
  // 5 incoming messages per second, pongs included: subscriptions leave one a second free.
  maxFramesPerSecond: 4,
});
