// Binance's market streams, shared by spot and USDⓈ-M futures (same envelope, same book-ticker and
// trade payloads): the pure parser (frame text + receive time to venue events, never throwing) and
// the protocol both venues build on.
import { topOfBook } from '../top-of-book.ts';
import type { VenueEvent, VenueParseError, VenueProtocol } from '../venue-protocol.ts';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const fail = (message: string): VenueParseError => ({ type: 'parse-error', message });

/** Binance sends prices and sizes as decimal strings; anything else, or not finite, is refused. */
function decimal(v: unknown): number {
  if (typeof v !== 'string' || v === '') return NaN;
  return Number(v);
}

const isTime = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v) && v > 0;

/**
 * Book ticker (`<symbol>@bookTicker`). Spot carries no event time, so the receive time stands in;
 * futures carry `E` (event) and `T` (transaction) times, and the transaction time is used.
 */
function parseBookTicker(d: Json, recvMs: number): VenueEvent[] | VenueParseError {
  const bid = decimal(d.b);
  const ask = decimal(d.a);
  const bidSize = decimal(d.B);
  const askSize = decimal(d.A);
  if (typeof d.s !== 'string' || d.s === '') return fail('book ticker without a symbol');
  if (!(bid >= 0) || !(ask >= 0) || !(bidSize >= 0) || !(askSize >= 0)) return fail(`book ticker for ${d.s} with a missing or bad price or size`);
  const tsMs = isTime(d.T) ? d.T : isTime(d.E) ? d.E : recvMs;
  // A price or size of "0" is an empty side (top-of-book.ts).
  return [topOfBook(d.s, tsMs, bid, ask, bidSize, askSize)];
}

/** Trade (`@trade`, id `t`) or aggregate trade (`@aggTrade`, id `a`); both number a symbol's trades one by one. */
function parseTrade(d: Json, idField: 't' | 'a'): VenueEvent[] | VenueParseError {
  const price = decimal(d.p);
  const size = decimal(d.q);
  if (typeof d.s !== 'string' || d.s === '') return fail('trade without a symbol');
  if (!(price > 0) || !(size >= 0)) return fail(`trade for ${d.s} with a missing or bad price or size`);
  const tsMs = isTime(d.T) ? d.T : isTime(d.E) ? d.E : NaN;
  if (Number.isNaN(tsMs)) return fail(`trade for ${d.s} without a trade time`);
  const id = d[idField];
  const event: VenueEvent = { type: 'trade', venueSymbol: d.s, tsMs, price, size };
  if (typeof id === 'number' && Number.isSafeInteger(id)) event.seq = id;
  return [event];
}

/** The payload of one stream event (the `data` of a combined-stream frame, or a raw-stream frame). */
function parsePayload(d: unknown, recvMs: number): VenueEvent[] | VenueParseError {
  if (!isObject(d)) return fail('stream payload is not an object');
  switch (d.e) {
    case 'trade':
      return parseTrade(d, 't');
    case 'aggTrade':
      return parseTrade(d, 'a');
    case 'bookTicker':
      return parseBookTicker(d, recvMs);
    case undefined:
      // Spot's book ticker has no event type: it is known by its fields.
      if ('u' in d && 'b' in d && 'a' in d) return parseBookTicker(d, recvMs);
      return fail('stream payload without an event type');
    case 'serverShutdown':
      return [{ type: 'error', message: 'server shutting down', fatal: true }];
    default:
      // Streams mds does not subscribe to (a venue may still send them): nothing for us.
      return typeof d.e === 'string' ? [{ type: 'heartbeat' }] : fail('stream payload with a non-string event type');
  }
}

/** Answers to SUBSCRIBE and the other control requests, and the venue's error frames. */
function parseControl(m: Json): VenueEvent[] | VenueParseError | null {
  const err = isObject(m.error) ? m.error : 'code' in m && 'msg' in m ? m : null;
  if (err !== null) {
    const message = typeof err.msg === 'string' ? err.msg : 'error without a message';
    return [{ type: 'error', message: `${typeof err.code === 'number' ? `code ${err.code}: ` : ''}${message}`, fatal: false }];
  }
  if ('result' in m && 'id' in m) {
    // `result: null` acknowledges SUBSCRIBE; a list answers LIST_SUBSCRIPTIONS with stream names.
    if (m.result === null) return [{ type: 'subscribed', venueSymbols: [] }];
    if (Array.isArray(m.result)) {
      const symbols = new Set(m.result.filter((s): s is string => typeof s === 'string').map((s) => s.split('@')[0]!.toUpperCase()));
      return [{ type: 'subscribed', venueSymbols: [...symbols] }];
    }
    return [{ type: 'heartbeat' }];
  }
  return null;
}

export function parseBinanceFrame(frame: string, recvMs: number): VenueEvent[] | VenueParseError {
  let m: unknown;
  try {
    m = JSON.parse(frame);
  } catch {
    return fail('frame is not JSON');
  }
  if (!isObject(m)) return fail('frame is not a JSON object');
  if ('stream' in m && 'data' in m) return parsePayload(m.data, recvMs);
  const control = parseControl(m);
  if (control !== null) return control;
  return parsePayload(m, recvMs);
}

/** Stream names of one symbol: Binance wants them lower case. */
export function binanceStreams(venueSymbols: readonly string[], channels: readonly string[]): string[] {
  return venueSymbols.flatMap((s) => channels.map((c) => `${s.toLowerCase()}@${c}`));
}

/** The streams subscribed per symbol: best bid/offer and trades. */
const CHANNELS = ['bookTicker', 'trade'] as const;

/**
 * A Binance market-stream venue (spot or futures): the combined-stream endpoint (`<url>/stream`),
 * SUBSCRIBE requests of up to 100 symbols (200 of the 1,024 streams a connection may carry), and
 * the shared parser. The venue pings at the WebSocket level (answered by the runtime, counted as
 * life); a quiet connection is asked to list its subscriptions, an answer that proves them alive.
 */
export function binanceStreamProtocol(venue: Pick<VenueProtocol, 'id' | 'description' | 'assetClass' | 'defaultUrl' | 'defaultInstruments' | 'venueSymbolOf' | 'maxFramesPerSecond'>): VenueProtocol {
  return {
    ...venue,
    maxSymbolsPerFrame: 100,
    connectUrl: (baseUrl) => `${baseUrl.replace(/\/+$/, '')}/stream`,
    subscribeFrames: (venueSymbols, requestId) => [JSON.stringify({ method: 'SUBSCRIBE', params: binanceStreams(venueSymbols, CHANNELS), id: requestId })],
    // Only when the connection is quiet (no pingIntervalMs): Binance wants no keepalive of its own.
    pingFrame: () => '{"method":"LIST_SUBSCRIPTIONS","id":0}',
    parse: parseBinanceFrame,
  };
}
