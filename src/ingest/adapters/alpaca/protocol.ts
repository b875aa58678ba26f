// Alpaca market data upstreams, keyed by APCA_API_KEY_ID and APCA_API_SECRET_KEY: US stocks on the
// IEX feed (`--feeds` url .../v2/sip with a SIP subscription) and crypto. Alpaca allows one
// connection per endpoint: mds holds it and fans it out.
import type { FeedInstrument } from '../../../domain/feed.ts';
import { pairInstruments, splitPair, usStockInstruments, usTickerOf } from '../upstream-instruments.ts';
import { ALPACA_ACTIONS } from './actions.ts';
import type { ActionsSource } from '../actions-source.ts';
import type { VenueProtocol } from '../venue-protocol.ts';
import { parseAlpacaFrame } from './parse.ts';

export const ALPACA_KEY_VARIABLES = ['APCA_API_KEY_ID', 'APCA_API_SECRET_KEY'] as const;

/** The IEX plan allows 30 trade and quote channels: the default stays within it. */
const IEX_DEFAULT_SYMBOLS = 30;

function alpacaProtocol(p: { id: string; description: string; assetClass: 'stocks' | 'crypto'; url: string; instruments: () => FeedInstrument[]; venueSymbolOf: (s: string) => string | null; actions?: ActionsSource }): VenueProtocol {
  let defaults: FeedInstrument[] | null = null;
  return {
    id: p.id,
    description: p.description,
    assetClass: p.assetClass,
    defaultUrl: p.url,
    credentials: ALPACA_KEY_VARIABLES,
    get defaultInstruments() {
      return (defaults ??= p.instruments());
    },
    venueSymbolOf: p.venueSymbolOf,
    maxSymbolsPerFrame: 100,
    maxFramesPerSecond: 5,
    awaitsAuth: true,
    authFrames: (credentials) => [JSON.stringify({ action: 'auth', key: credentials.APCA_API_KEY_ID ?? '', secret: credentials.APCA_API_SECRET_KEY ?? '' })],
    subscribeFrames: (venueSymbols) => [JSON.stringify({ action: 'subscribe', quotes: venueSymbols, trades: venueSymbols })],
    parse: parseAlpacaFrame,
    ...(p.actions && { corporateActions: p.actions }),
  };
}

export const ALPACA_STOCKS = alpacaProtocol({
  id: 'alpaca',
  description: 'Alpaca market data, US stocks (IEX feed by default; SIP with the url .../v2/sip): quotes and trades',
  assetClass: 'stocks',
  url: 'wss://stream.data.alpaca.markets/v2/iex',
  instruments: () => usStockInstruments(IEX_DEFAULT_SYMBOLS),
  venueSymbolOf: usTickerOf,
  actions: ALPACA_ACTIONS,
});

export const ALPACA_CRYPTO = alpacaProtocol({
  id: 'alpaca-crypto',
  description: 'Alpaca market data, crypto (US): quotes and trades of USD pairs',
  assetClass: 'crypto',
  url: 'wss://stream.data.alpaca.markets/v1beta3/crypto/us',
  instruments: () => pairInstruments('crypto', '/'),
  venueSymbolOf: (symbol) => splitPair(symbol, '/'),
});
