// Binance spot: book ticker and trade streams on the combined-stream endpoint, for the built-in
// crypto pairs quoted in USDT (USDT is taken as USD: BTCUSD is fed by BTCUSDT).
import type { FeedInstrument } from '../../../domain/feed.ts';
import { CRYPTO } from '../../reference/crypto.ts';
import type { VenueProtocol } from '../venue-protocol.ts';
import { binanceStreams, binanceSubscribeFrames, combinedStreamUrl, parseBinanceFrame } from './parse-binance.ts';

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

const CHANNELS = ['bookTicker', 'trade'] as const;

export const binanceProtocol: VenueProtocol = {
  id: 'binance',
  description: 'Binance spot: best bid/offer (bookTicker) and trades of the USDT pairs, USDT taken as USD',
  assetClass: 'crypto',
  defaultUrl: 'wss://stream.binance.com:9443',
  defaultInstruments: INSTRUMENTS,
  venueSymbolOf: binanceSpotSymbolOf,
  // 1,024 streams per connection (two per symbol); 5 incoming messages per second, pongs included,
  // so subscriptions keep one slot a second free.
  maxSymbolsPerFrame: 100,
  maxFramesPerSecond: 4,
  connectUrl: (baseUrl) => combinedStreamUrl(baseUrl),
  subscribeFrames: (venueSymbols, requestId) => binanceSubscribeFrames(binanceStreams(venueSymbols, CHANNELS), requestId),
  // The venue pings at the WebSocket level (answered by the runtime); no application ping.
  parse: parseBinanceFrame,
};
