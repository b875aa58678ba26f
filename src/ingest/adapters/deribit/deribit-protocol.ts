// Deribit: the public JSON-RPC WebSocket (no key), `quote.*` for the top of book and
// `trades.*.100ms` (raw trades need a key), of the perpetuals on the built-in crypto underlyings:
// the inverse USD perpetuals for BTC and ETH, the USDC linear ones for the rest, served under the
// mds USDT perpetual symbols (USD and USDC taken as USDT).
import { cryptoPerpetualInstruments } from '../default-instruments.ts';
import type { VenueProtocol } from '../venue-protocol.ts';
import { DERIBIT_TEST_CALL, deribitSubscribeFrames, parseDeribitFrame } from './parse-deribit.ts';

/** The coins whose flagship perpetual is Deribit's inverse (coin-settled, USD-quoted) one. */
const INVERSE = new Set(['BTC', 'ETH']);

/** `BTCUSDT` → `BTC-PERPETUAL`, `SOLUSDT` → `SOL_USDC-PERPETUAL`. */
export function deribitSymbolOf(symbol: string): string | null {
  if (!/^[A-Z0-9]{2,16}USDT$/.test(symbol)) return null;
  const coin = symbol.slice(0, -4);
  return INVERSE.has(coin) ? `${coin}-PERPETUAL` : `${coin}_USDC-PERPETUAL`;
}

export const deribitProtocol: VenueProtocol = {
  id: 'deribit',
  description: 'Deribit perpetuals (BTC, ETH inverse; others USDC linear): top of book (quote) and trades, sizes in coins',
  assetClass: 'perpetuals',
  defaultUrl: 'wss://www.deribit.com/ws/api/v2',
  defaultInstruments: cryptoPerpetualInstruments(deribitSymbolOf),
  venueSymbolOf: deribitSymbolOf,
  // public/subscribe is rate limited to about 3.3 calls a second sustained.
  maxSymbolsPerFrame: 50,
  maxFramesPerSecond: 3,
  subscribeFrames: deribitSubscribeFrames,
  // Any call keeps the connection in use; the answer is a heartbeat.
  pingFrame: () => DERIBIT_TEST_CALL,
  pingIntervalMs: 30_000,
  parse: parseDeribitFrame,
};
