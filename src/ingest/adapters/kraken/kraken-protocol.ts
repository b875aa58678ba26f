// Kraken: the spot WebSocket v2 (public, no key), `ticker` for the best bid/offer and `trade`, of
// the built-in crypto pairs Kraken lists in USD.
import { spotCryptoInstruments } from '../default-instruments.ts';
import type { VenueProtocol } from '../venue-protocol.ts';
import { krakenSubscribeFrames, parseKrakenFrame } from './parse-kraken.ts';

/** `BTCUSD` → `BTC/USD` (v2 uses BTC and DOGE, not v1's XBT and XDG); only USD-quoted mds pairs map. */
export function krakenSymbolOf(symbol: string): string | null {
  return /^[A-Z0-9]{2,12}USD$/.test(symbol) ? `${symbol.slice(0, -3)}/USD` : null;
}

export const krakenProtocol: VenueProtocol = {
  id: 'kraken',
  description: 'Kraken spot (WebSocket v2): best bid/offer (ticker) and trades of the USD pairs',
  assetClass: 'crypto',
  defaultUrl: 'wss://ws.kraken.com/v2',
  // BNB and HBAR are not Kraken USD markets.
  defaultInstruments: spotCryptoInstruments(krakenSymbolOf, ['BNBUSD', 'HBARUSD']),
  venueSymbolOf: krakenSymbolOf,
  // Kraken states no per-message symbol cap; modest batches keep each ack burst small.
  maxSymbolsPerFrame: 50,
  maxFramesPerSecond: 5,
  subscribeFrames: krakenSubscribeFrames,
  // Kraken sends a heartbeat every second while subscribed; a quiet connection is pinged all the
  // same (answered `{"method":"pong"}`), never on a timer.
  pingFrame: () => '{"method":"ping"}',
  parse: parseKrakenFrame,
};
