// Pure parsers for Hyperliquid's public WebSocket: `bbo` and `l2Book` (top of book), `trades`,
// `subscriptionResponse` acks, `error` (per coin where it names one), `pong`, and the greeting text
// sent on connect. Prices and sizes are decimal strings; times are epoch ms numbers. Every book push
// is whole (no deltas), so no state is kept.
import { decimal, finite, isObject, parseFailure, readJson, type Json } from '../frame-values.ts';
import { topOfBook } from '../top-of-book.ts';
import type { VenueEvent, VenueParseError } from '../venue-protocol.ts';

/** Sent as text right after the connection opens, before any JSON. */
const GREETING = 'Websocket connection established.';

/** A level `{px, sz, n}`; false when malformed. Sizes may come as strings or numbers. */
function levelOf(v: unknown): { px: number; sz: number | null } | false {
  if (!isObject(v)) return false;
  const px = decimal(v.px);
  if (!(px > 0)) return false;
  const sz = typeof v.sz === 'number' ? v.sz : decimal(v.sz);
  return { px, sz: sz >= 0 ? sz : null };
}

/** A quote from the best bid and ask; a side that is `null`, absent or of size 0 is empty (top-of-book.ts). */
function quoteOf(coin: string, tsMs: number, bid: unknown, ask: unknown): VenueEvent[] | VenueParseError {
  if (bid === null || bid === undefined || ask === null || ask === undefined) return [{ type: 'book-empty', venueSymbol: coin }];
  const b = levelOf(bid);
  const a = levelOf(ask);
  if (b === false || a === false) return parseFailure(`book for ${coin} with a bad level`);
  return [topOfBook(coin, tsMs, b.px, a.px, b.sz, a.sz)];
}

/** `bbo`: `{coin, time, bbo: [bid | null, ask | null]}`, pushed when either best level changes. */
function parseBbo(d: unknown): VenueEvent[] | VenueParseError {
  if (!isObject(d) || typeof d.coin !== 'string' || !Array.isArray(d.bbo)) return parseFailure('bbo push without coin or bbo');
  const tsMs = finite(d.time);
  if (!(tsMs > 0)) return parseFailure(`bbo push for ${d.coin} without time`);
  return quoteOf(d.coin, tsMs, d.bbo[0], d.bbo[1]);
}

/** `l2Book`: `{coin, time, levels: [bids, asks]}`, best first; only the top level is used. */
function parseBook(d: unknown): VenueEvent[] | VenueParseError {
  if (!isObject(d) || typeof d.coin !== 'string' || !Array.isArray(d.levels)) return parseFailure('l2Book push without coin or levels');
  const tsMs = finite(d.time);
  const [bids, asks] = d.levels as unknown[];
  if (!(tsMs > 0) || !Array.isArray(bids) || !Array.isArray(asks)) return parseFailure(`l2Book push for ${d.coin} without time or both sides`);
  return quoteOf(d.coin, tsMs, bids[0], asks[0]);
}

/** `trades`: a batch of fills `{coin, side, px, sz, time, hash, tid, users}`. */
function parseTrades(data: unknown): VenueEvent[] | VenueParseError {
  if (!Array.isArray(data)) return parseFailure('trades push without a data array');
  const out: VenueEvent[] = [];
  for (const t of data) {
    if (!isObject(t) || typeof t.coin !== 'string') return parseFailure('trade without coin');
    const price = decimal(t.px);
    const size = typeof t.sz === 'number' ? t.sz : decimal(t.sz);
    const tsMs = finite(t.time);
    if (!(price > 0)) return parseFailure(`trade for ${t.coin} with a missing or bad px`);
    if (!(tsMs > 0)) return parseFailure(`trade for ${t.coin} without time`);
    out.push({ type: 'trade', venueSymbol: t.coin, tsMs, price, size: size >= 0 ? size : null });
  }
  return out;
}

/** The coin an error text quotes from the subscription it refuses (`... {"type":"bbo","coin":"XYZ"}`). */
function coinInText(text: string): string | null {
  const key = '"coin":"';
  const at = text.indexOf(key);
  if (at < 0) return null;
  const start = at + key.length;
  const end = text.indexOf('"', start);
  return end > start ? text.slice(start, end) : null;
}

/**
 * `error` data is text. `Already subscribed: {...}` confirms the subscription stands; one quoting a
 * coin refuses that coin; the rest (message or subscription limits) concern the connection.
 */
function parseError(data: unknown): VenueEvent[] {
  const message = typeof data === 'string' ? data : 'error';
  const coin = coinInText(message);
  if (coin !== null && message.startsWith('Already subscribed')) return [{ type: 'subscribed', venueSymbols: [coin] }];
  if (coin !== null) return [{ type: 'symbol-error', venueSymbol: coin, message }];
  return [{ type: 'error', message, fatal: false }];
}

/** `subscriptionResponse` echoes the request: `{method, subscription: {type, coin}}`. */
function parseAck(d: unknown): VenueEvent[] {
  const sub = isObject(d) ? d.subscription : undefined;
  const coin = isObject(sub) && typeof sub.coin === 'string' ? sub.coin : null;
  if (isObject(d) && d.method === 'unsubscribe') return [{ type: 'heartbeat' }];
  return [{ type: 'subscribed', venueSymbols: coin === null ? [] : [coin] }];
}

export function parseHyperliquidFrame(frame: string, _recvMs: number): VenueEvent[] | VenueParseError {
  if (frame === GREETING) return [{ type: 'heartbeat' }];
  const m = readJson(frame);
  if (!isObject(m)) return parseFailure(m === undefined ? 'frame is not JSON' : 'frame is not a JSON object');
  const msg: Json = m;
  switch (msg.channel) {
    case 'bbo':
      return parseBbo(msg.data);
    case 'trades':
      return parseTrades(msg.data);
    case 'l2Book':
      return parseBook(msg.data);
    case 'subscriptionResponse':
      return parseAck(msg.data);
    case 'pong':
      return [{ type: 'heartbeat' }];
    case 'error':
      return parseError(msg.data);
    default:
      return parseFailure(`unknown channel ${String(msg.channel)}`);
  }
}

/** One subscription per message: `bbo` and `trades` for each coin. */
export function hyperliquidSubscribeFrames(coins: readonly string[]): string[] {
  const frames: string[] = [];
  for (const coin of coins) {
    frames.push(JSON.stringify({ method: 'subscribe', subscription: { type: 'bbo', coin } }));
    frames.push(JSON.stringify({ method: 'subscribe', subscription: { type: 'trades', coin } }));
  }
  return frames;
}
