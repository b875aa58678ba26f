// Every WebSocket venue mds can connect to. Adding a venue is its folder under adapters/ plus
// one line here.
import { ALPACA_CRYPTO, ALPACA_STOCKS } from './alpaca/index.ts';
import { binanceProtocol } from './binance/binance-protocol.ts';
import { binanceUsdmProtocol } from './binance-usdm/binance-usdm-protocol.ts';
import { bybitProtocol } from './bybit/bybit-protocol.ts';
import { bybitLinearProtocol } from './bybit-linear/bybit-linear-protocol.ts';
import { coinbaseProtocol } from './coinbase/coinbase-protocol.ts';
import { deribitProtocol } from './deribit/deribit-protocol.ts';
import { hyperliquidProtocol } from './hyperliquid/hyperliquid-protocol.ts';
import { krakenProtocol } from './kraken/kraken-protocol.ts';
import { okxProtocol } from './okx/okx-protocol.ts';
import { okxSwapProtocol } from './okx-swap/okx-swap-protocol.ts';
import { MASSIVE_CRYPTO, MASSIVE_FOREX, MASSIVE_STOCKS } from './massive/index.ts';
import type { VenueProtocol } from './venue-protocol.ts';

export const VENUE_PROTOCOLS: readonly VenueProtocol[] = [
  binanceProtocol,
  binanceUsdmProtocol,
  coinbaseProtocol,
  krakenProtocol,
  bybitProtocol,
  bybitLinearProtocol,
  okxProtocol,
  okxSwapProtocol,
  hyperliquidProtocol,
  deribitProtocol,
  MASSIVE_STOCKS,
  MASSIVE_CRYPTO,
  MASSIVE_FOREX,
  ALPACA_STOCKS,
  ALPACA_CRYPTO,
];

export function venueProtocolById(id: string): VenueProtocol | undefined {
  return VENUE_PROTOCOLS.find((p) => p.id === id);
}
