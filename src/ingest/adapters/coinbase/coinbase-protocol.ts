// Coinbase: the Advanced Trade market data WebSocket (public, no key), `ticker` for the best
// bid/ask and `market_trades` for trades, of the built-in crypto pairs Coinbase lists in USD.
import { spotCryptoInstruments } from '../default-instruments.ts';
import type { VenueProtocol } from '../venue-protocol.ts';
import { coinbaseSubscribeFrames, parseCoinbaseFrame } from './parse-coinbase.ts';

/** `BTCUSD` → `BTC-USD`; only USD-quoted mds pairs map. */
export function coinbaseSymbolOf(symbol: string): string | null {
  return /^[A-Z0-9]{2,12}USD$/.test(symbol) ? `${symbol.slice(0, -3)}-USD` : null;
}

export const coinbaseProtocol: VenueProtocol = {
  id: 'coinbase',
  description: 'Coinbase Advanced Trade: best bid/ask (ticker) and trades (market_trades) of the USD pairs',
  assetClass: 'crypto',
  defaultUrl: 'wss://advanced-trade-ws.coinbase.com',
  // BNB and TRX have no Coinbase USD market.
  defaultInstruments: spotCryptoInstruments(coinbaseSymbolOf, ['BNBUSD', 'TRXUSD']),
  venueSymbolOf: coinbaseSymbolOf,
  // Unauthenticated messages are limited to 8 a second per IP; each batch is three frames.
  maxSymbolsPerFrame: 50,
  maxFramesPerSecond: 4,
  // One unknown product in a subscribe request fails the whole request.
  refusesWholeBatch: true,
  subscribeFrames: (productIds) => coinbaseSubscribeFrames(productIds),
  // Heartbeats come every second while subscribed. A quiet connection subscribes them again, which
  // the venue answers with its subscriptions: a round trip that proves the connection alive.
  pingFrame: () => '{"type":"subscribe","channel":"heartbeats"}',
  parse: parseCoinbaseFrame,
};
