// Pure parsers for Bybit's v5 public WebSocket (spot and linear share it): `orderbook.1` (top of
// book: a snapshot, then deltas carrying only the side that changed), `publicTrade`, subscribe
// acks and refusals, and pongs; and the stream settings spot and linear share. Prices and sizes are
// decimal strings; times are epoch ms.
import { decimal, isObject, parseFailure, readJson, type Json } from '../frame-values.ts';
import type { VenueEvent, VenueParseError, VenueParser, VenueProtocol } from '../venue-protocol.ts';

/** One symbol's top of book as the connection knows it, and how its update ids map to `seq`. */
interface Top {
  bid: number;
  bidSize: number;
  ask: number;
  askSize: number;
  /** The last update id `u` seen, or NaN. */
  lastU: number;
  /** Added to `u` to give `seq`: shifts so the emitted sequence stays consecutive (below). */
  seqShift: number;
}

/**
 * Applies one side's levels to the known best level: a level with size 0 removes that price, any
 * other replaces the best (orderbook.1 holds one level a side). An empty list changes nothing.
 */
function applySide(levels: unknown, top: Top, isBid: boolean): boolean {
  if (!Array.isArray(levels)) return false;
  for (const level of levels) {
    if (!Array.isArray(level)) return false;
    const price = decimal(level[0]);
    const size = decimal(level[1]);
    if (!(price > 0) || !(size >= 0)) return false;
    if (isBid) {
      if (size > 0) {
        top.bid = price;
        top.bidSize = size;
      } else if (price === top.bid) top.bid = top.bidSize = NaN;
    } else if (size > 0) {
      top.ask = price;
      top.askSize = size;
    } else if (price === top.ask) top.ask = top.askSize = NaN;
  }
  return true;
}

const freshTop = (): Top => ({ bid: NaN, bidSize: NaN, ask: NaN, askSize: NaN, lastU: NaN, seqShift: 0 });

/**
 * Top-of-book frame. With `books` (one connection's state), deltas merge into the last known sides
 * and the quote carries `seq` from the update id `u`, which counts a symbol's updates one by one;
 * without, only frames that give both sides make a quote, and no `seq` (it could not be kept whole).
 * `seq` stays consecutive across what the venue does on purpose: when the service restarts it sends
 * a snapshot with `u` = 1, and an update that leaves a side empty makes no quote; both shift the
 * mapping instead of showing as a gap. Level-1 snapshots repeated after 3 quiet seconds keep `u`.
 */
function parseBook(m: Json, recvMs: number, books: Map<string, Top> | undefined): VenueEvent[] | VenueParseError {
  const d = m.data;
  if (!isObject(d) || typeof d.s !== 'string') return parseFailure('orderbook frame without a symbol');
  const isSnapshot = m.type === 'snapshot';
  if (!isSnapshot && m.type !== 'delta') return parseFailure(`orderbook frame of unknown type ${String(m.type)}`);
  const tsMs = typeof m.cts === 'number' ? m.cts : typeof m.ts === 'number' ? m.ts : recvMs;
  const u = typeof d.u === 'number' && Number.isSafeInteger(d.u) ? d.u : NaN;
  let top = books?.get(d.s);
  if (top === undefined) {
    top = freshTop();
    books?.set(d.s, top);
  } else if (isSnapshot) {
    top.bid = top.bidSize = top.ask = top.askSize = NaN;
  }
  if (!applySide(d.b, top, true) || !applySide(d.a, top, false)) {
    // The sides are unknown until the next snapshot; the update-id mapping stays, so the loss shows as a gap.
    top.bid = top.bidSize = top.ask = top.askSize = NaN;
    return parseFailure(`orderbook frame for ${d.s} with a bad level`);
  }
  if (books === undefined) {
    // Without state a delta's missing side is unknown, not empty; a snapshot's is empty.
    if (!(top.bid > 0) || !(top.ask > 0)) return isSnapshot ? [{ type: 'book-empty', venueSymbol: d.s }] : [];
    return [{ type: 'quote', venueSymbol: d.s, tsMs, bid: top.bid, ask: top.ask, bidSize: top.bidSize, askSize: top.askSize }];
  }
  const last = top.lastU;
  if (!Number.isNaN(u)) {
    // A restart's snapshot numbers from 1 again: continue from the last emitted seq.
    if (isSnapshot && u < last) top.seqShift += last - u + 1;
    top.lastU = u;
  }
  if (!(top.bid > 0) || !(top.ask > 0)) {
    if (!Number.isNaN(u) && u !== last) top.seqShift -= 1; // this update makes no quote: the next one follows on
    return [{ type: 'book-empty', venueSymbol: d.s }];
  }
  const event: VenueEvent = { type: 'quote', venueSymbol: d.s, tsMs, bid: top.bid, ask: top.ask, bidSize: top.bidSize, askSize: top.askSize };
  if (!Number.isNaN(u)) event.seq = u + top.seqShift;
  return [event];
}

/** Public trades: a batch per frame, each with its fill time `T`. */
function parseTrades(m: Json): VenueEvent[] | VenueParseError {
  if (!Array.isArray(m.data)) return parseFailure('publicTrade frame without data');
  const out: VenueEvent[] = [];
  for (const t of m.data) {
    if (!isObject(t) || typeof t.s !== 'string') return parseFailure('trade without a symbol');
    const price = decimal(t.p);
    const size = decimal(t.v);
    if (!(price > 0) || !(size >= 0)) return parseFailure(`trade for ${t.s} with a missing or bad price or size`);
    if (typeof t.T !== 'number' || !(t.T > 0)) return parseFailure(`trade for ${t.s} without a fill time`);
    out.push({ type: 'trade', venueSymbol: t.s, tsMs: t.T, price, size });
  }
  return out;
}

/**
 * Refusals name the bad arguments in brackets: `Invalid symbol :[orderbook.1.XYZUSDT]`; each
 * named symbol is refused on its own, anything else is a connection-level error.
 */
function parseRefusal(message: string): VenueEvent[] {
  const open = message.indexOf('[');
  const close = message.indexOf(']', open + 1);
  if (open < 0 || close < 0) return [{ type: 'error', message, fatal: false }];
  const symbols = new Set<string>();
  for (const arg of message.slice(open + 1, close).split(',')) {
    const name = arg.trim();
    const symbol = name.slice(name.lastIndexOf('.') + 1);
    if (symbol !== '') symbols.add(symbol);
  }
  if (symbols.size === 0) return [{ type: 'error', message, fatal: false }];
  return [...symbols].map((venueSymbol) => ({ type: 'symbol-error', venueSymbol, message }));
}

/** Operation responses: subscribe acks (topics not echoed), refusals, pongs (spot answers `op: ping`, linear `op: pong`). */
function parseOp(m: Json): VenueEvent[] | VenueParseError {
  switch (m.op) {
    case 'subscribe':
      if (m.success === true) return [{ type: 'subscribed', venueSymbols: [] }];
      return parseRefusal(typeof m.ret_msg === 'string' && m.ret_msg !== '' ? m.ret_msg : 'subscribe refused');
    case 'ping':
    case 'pong':
    case 'unsubscribe':
      if (m.success === false) return [{ type: 'error', message: typeof m.ret_msg === 'string' ? m.ret_msg : `${m.op} refused`, fatal: false }];
      return [{ type: 'heartbeat' }];
    default:
      return parseFailure(`unknown op ${String(m.op)}`);
  }
}

/** One frame; `books` is a connection's top-of-book state (see parseBook), absent for stateless parsing. */
export function parseBybitFrame(frame: string, recvMs: number, books?: Map<string, Top>): VenueEvent[] | VenueParseError {
  const m = readJson(frame);
  if (!isObject(m)) return parseFailure(m === undefined ? 'frame is not JSON' : 'frame is not a JSON object');
  const topic = m.topic;
  if (typeof topic === 'string') {
    if (topic.startsWith('orderbook.')) return parseBook(m, recvMs, books);
    if (topic.startsWith('publicTrade.')) return parseTrades(m);
    return parseFailure(`unknown topic ${topic}`);
  }
  if (typeof m.op === 'string') return parseOp(m);
  return parseFailure('frame without a topic or op');
}

/** The stateless parse: every frame on its own. */
export const parseBybitFrameAlone = (frame: string, recvMs: number) => parseBybitFrame(frame, recvMs);

/** A parser for one connection, keeping each symbol's top of book between deltas. */
export function createBybitParser(): VenueParser {
  const books = new Map<string, Top>();
  return (frame, recvMs) => parseBybitFrame(frame, recvMs, books);
}

/** Top of book and trades per symbol, in one `subscribe` operation. */
export function bybitSubscribeFrames(symbols: readonly string[], requestId: number): string[] {
  const args: string[] = [];
  for (const s of symbols) args.push(`orderbook.1.${s}`, `publicTrade.${s}`);
  return [JSON.stringify({ req_id: String(requestId), op: 'subscribe', args })];
}

/** What Bybit's spot and linear streams share: limits, subscribing, pings and parsing. */
export const BYBIT_STREAM: Pick<VenueProtocol, 'maxSymbolsPerFrame' | 'maxFramesPerSecond' | 'refusesWholeBatch' | 'subscribeFrames' | 'pingFrame' | 'pingIntervalMs' | 'parse' | 'createParser'> = {
  // Spot takes at most 10 topics per subscribe request (two per symbol); linear states only a total
  // of 21,000 characters of topics per connection, and keeps spot's limit here too.
  maxSymbolsPerFrame: 5,
  maxFramesPerSecond: 5,
  // A request naming one invalid topic is refused whole (`success: false`); the refusal names the bad ones.
  refusesWholeBatch: true,
  subscribeFrames: bybitSubscribeFrames,
  // Bybit drops a connection without traffic and asks for this every 20 s.
  pingFrame: () => '{"op":"ping"}',
  pingIntervalMs: 20_000,
  parse: parseBybitFrameAlone,
  createParser: createBybitParser,
};
