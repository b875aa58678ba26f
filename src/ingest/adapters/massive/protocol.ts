// Massive (formerly Polygon.io) upstreams: one cluster a protocol (stocks, crypto, forex), keyed
// by MASSIVE_API_KEY. One connection per cluster per account: mds holds it and fans it out.
import type { FeedInstrument } from '../../../domain/feed.ts';
import { pairInstruments, splitPair, usStockInstruments, usTickerOf } from '../upstream-instruments.ts';
import { MASSIVE_ACTIONS } from './actions.ts';
import type { ActionsSource } from '../actions-source.ts';
import type { VenueProtocol } from '../venue-protocol.ts';
import { parseMassiveFrame } from './parse.ts';

export const MASSIVE_KEY_VARIABLE = 'MASSIVE_API_KEY';

interface Cluster {
  id: string;
  path: string;
  description: string;
  assetClass: 'stocks' | 'crypto' | 'forex';
  /** Channel prefixes subscribed per symbol: quotes first, then trades. */
  channels: readonly string[];
  instruments: () => FeedInstrument[];
  venueSymbolOf: (symbol: string) => string | null;
  /** Stocks only: splits and dividends from the reference API. */
  actions?: ActionsSource;
}

function massiveProtocol(c: Cluster): VenueProtocol {
  let defaults: FeedInstrument[] | null = null;
  return {
    id: c.id,
    description: c.description,
    assetClass: c.assetClass,
    defaultUrl: `wss://socket.massive.com/${c.path}`,
    suppliesTrades: c.channels.length > 1,
    credentials: [MASSIVE_KEY_VARIABLE],
    get defaultInstruments() {
      return (defaults ??= c.instruments());
    },
    venueSymbolOf: c.venueSymbolOf,
    // No documented cap on tickers; batches keep each frame small.
    maxSymbolsPerFrame: 100,
    maxFramesPerSecond: 5,
    awaitsAuth: true,
    authFrames: (credentials) => [JSON.stringify({ action: 'auth', params: credentials[MASSIVE_KEY_VARIABLE] ?? '' })],
    subscribeFrames: (venueSymbols) => [JSON.stringify({ action: 'subscribe', params: c.channels.flatMap((ch) => venueSymbols.map((s) => `${ch}.${s}`)).join(',') })],
    parse: parseMassiveFrame,
    ...(c.actions && { corporateActions: c.actions }),
  };
}

export const MASSIVE_STOCKS = massiveProtocol({
  id: 'massive',
  path: 'stocks',
  description: 'Massive (formerly Polygon.io) stocks cluster: US stock quotes (Q) and trades (T)',
  assetClass: 'stocks',
  channels: ['Q', 'T'],
  instruments: () => usStockInstruments(),
  venueSymbolOf: usTickerOf,
  actions: MASSIVE_ACTIONS,
});

export const MASSIVE_CRYPTO = massiveProtocol({
  id: 'massive-crypto',
  path: 'crypto',
  description: 'Massive (formerly Polygon.io) crypto cluster: quotes (XQ) and trades (XT) of USD pairs',
  assetClass: 'crypto',
  channels: ['XQ', 'XT'],
  instruments: () => pairInstruments('crypto', '-'),
  venueSymbolOf: (symbol) => splitPair(symbol, '-'),
});

export const MASSIVE_FOREX = massiveProtocol({
  id: 'massive-forex',
  path: 'forex',
  description: 'Massive (formerly Polygon.io) forex cluster: quotes (C) of currency pairs',
  assetClass: 'forex',
  channels: ['C'],
  instruments: () => pairInstruments('forex', '/'),
  venueSymbolOf: (symbol) => (/^[A-Z]{6}$/.test(symbol) ? splitPair(symbol, '/') : null),
});
