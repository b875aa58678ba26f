// Every WebSocket venue mds can connect to. Adding a venue is its folder under adapters/ plus
// one line here.
import { binanceProtocol } from './binance/binance-protocol.ts';
import { binanceUsdmProtocol } from './binance-usdm/binance-usdm-protocol.ts';
import type { VenueProtocol } from './venue-protocol.ts';

export const VENUE_PROTOCOLS: readonly VenueProtocol[] = [
  binanceProtocol,
  binanceUsdmProtocol,
];

export function venueProtocolById(id: string): VenueProtocol | undefined {
  return VENUE_PROTOCOLS.find((p) => p.id === id);
}
