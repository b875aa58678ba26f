// Hyperliquid: the public WebSocket of its perpetuals (no key), `bbo` for the top of book and
// `trades`, of the built-in crypto perpetuals its main dex lists. Hyperliquid perpetuals settle in
// USDC and are named by coin alone; mds serves them under its USDT perpetual symbols.
import { cryptoPerpetualInstruments } from '../default-instruments.ts';
import type { VenueProtocol } from '../venue-protocol.ts';
import { hyperliquidSubscribeFrames, parseHyperliquidFrame } from './parse-hyperliquid.ts';

/** `BTCUSDT` → `BTC` (USDC-settled, taken as the USDT perpetual). */
export function hyperliquidSymbolOf(symbol: string): string | null {
  return /^[A-Z0-9]{2,16}USDT$/.test(symbol) ? symbol.slice(0, -4) : null;
}

export const hyperliquidProtocol: VenueProtocol = {
  id: 'hyperliquid',
  description: 'Hyperliquid perpetuals (USDC, taken as USDT): top of book (bbo) and trades',
  assetClass: 'perpetuals',
  defaultUrl: 'wss://api.hyperliquid.xyz/ws',
  // The catalog's stock, index, commodity and currency perpetuals trade only on HIP-3 dexes under
  // their own names, so the defaults are the crypto ones of the main dex.
  defaultInstruments: cryptoPerpetualInstruments(hyperliquidSymbolOf),
  venueSymbolOf: hyperliquidSymbolOf,
  // One subscription per message (two per coin); at most 2000 messages a minute per IP.
  maxSymbolsPerFrame: 1,
  maxFramesPerSecond: 10,
  subscribeFrames: (coins) => hyperliquidSubscribeFrames(coins),
  // The server closes a connection quiet for 60 s; `{"method":"ping"}` is answered `{"channel":"pong"}`.
  pingFrame: () => '{"method":"ping"}',
  pingIntervalMs: 30_000,
  parse: parseHyperliquidFrame,
};
