// A tiny keyed venue protocol for the venue client's tests: what no public venue offers on demand
// (auth, per-symbol errors, application pings), with its frames for the local venue.
import type { FeedInstrument } from '../../src/domain/feed.ts';
import type { VenueEvent, VenueParseError, VenueProtocol } from '../../src/ingest/adapters/venue-protocol.ts';
import type { VenueFrames } from './local-venue.ts';

const instrument = (code: string): FeedInstrument => ({ assetClass: 'crypto', symbol: `${code}USD`, venueSymbol: `${code}-X` });

function parse(frame: string, recvMs: number): VenueEvent[] | VenueParseError {
  let m: Record<string, unknown>;
  try {
    m = JSON.parse(frame) as Record<string, unknown>;
  } catch {
    return { type: 'parse-error', message: 'not JSON' };
  }
  if (typeof m !== 'object' || m === null) return { type: 'parse-error', message: 'not an object' };
  const s = String(m.s);
  switch (m.t) {
    case 'q':
      return [{ type: 'quote', venueSymbol: s, tsMs: recvMs, bid: Number(m.b), ask: Number(m.a), bidSize: null, askSize: null }];
    case 'tr':
      return [{ type: 'trade', venueSymbol: s, tsMs: recvMs, price: Number(m.p), size: 1, seq: Number(m.n) }];
    case 'err':
      return [{ type: 'symbol-error', venueSymbol: s, message: String(m.m) }];
    case 'auth':
      return [{ type: 'auth', ok: m.ok === true, message: String(m.m) }];
    case 'ping':
      return [{ type: 'ping', reply: JSON.stringify({ t: 'pong', id: m.id }) }];
    case 'ack':
      return [{ type: 'subscribed', venueSymbols: [] }];
    default:
      return { type: 'parse-error', message: 'unknown frame type' };
  }
}

export function testVenueProtocol(overrides: Partial<VenueProtocol> = {}): VenueProtocol {
  return {
    id: 'test-venue',
    description: 'test venue',
    assetClass: 'crypto',
    defaultUrl: 'ws://127.0.0.1:9',
    credentials: ['TEST_VENUE_KEY'],
    defaultInstruments: ['AAA', 'BBB', 'CCC', 'DDD', 'EEE'].map(instrument),
    venueSymbolOf: (symbol) => `${symbol.slice(0, -3)}-X`,
    maxSymbolsPerFrame: 2,
    maxFramesPerSecond: 1000,
    authFrames: (credentials) => [JSON.stringify({ op: 'auth', key: credentials.TEST_VENUE_KEY ?? '' })],
    awaitsAuth: true,
    subscribeFrames: (venueSymbols, requestId) => [JSON.stringify({ op: 'sub', symbols: venueSymbols, id: requestId })],
    parse,
    ...overrides,
  };
}

export const TEST_VENUE_FRAMES: VenueFrames = {
  quote: { text: '{"t":"q","s":"AAA-X","b":10,"a":11}', venueSymbol: 'AAA-X' },
  trade: { text: '{"t":"tr","s":"AAA-X","p":10.5,"n":100}', venueSymbol: 'AAA-X', seq: 100 },
  ack: '{"t":"ack"}',
  symbolError: { text: '{"t":"err","s":"AAA-X","m":"unknown symbol AAA-X"}', venueSymbol: 'AAA-X' },
  authOk: '{"t":"auth","ok":true,"m":"authenticated"}',
  authFail: '{"t":"auth","ok":false,"m":"invalid key"}',
  malformed: '{"t":',
};
