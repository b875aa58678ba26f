// Pure parsers for Coinbase's Advanced Trade market data WebSocket: the `channel` + `events`
// envelope, the ticker (best bid/ask), market trades, heartbeats, subscription acks and errors.
// Prices and sizes are decimal strings; times are RFC 3339 with up to nanosecond fractions.
import { decimal, isObject, parseFailure, readJson, type Json } from '../frame-values.ts';
import { parseIsoMs } from '../parse-iso-ms.ts';
import { topOfBook } from '../top-of-book.ts';
import type { VenueEvent, VenueParseError } from '../venue-protocol.ts';

/** Channels we may receive but take nothing from (we subscribe none of them, but a proxy might). */
const QUIET_CHANNELS: ReadonlySet<string> = new Set(['heartbeats', 'status', 'candles', 'ticker_batch', 'l2_data', 'level2']);

/**
 * Ticker events: one quote per ticker, stamped with the envelope's send time (tickers carry no
 * time of their own). Both the snapshot sent on subscribe and the updates are current values.
 */
function parseTicker(m: Json, recvMs: number): VenueEvent[] | VenueParseError {
  const events = m.events;
  if (!Array.isArray(events)) return parseFailure('ticker frame without events');
  const sent = parseIsoMs(m.timestamp);
  const tsMs = Number.isNaN(sent) ? recvMs : sent;
  const out: VenueEvent[] = [];
  for (const e of events) {
    const tickers = isObject(e) ? e.tickers : undefined;
    if (!Array.isArray(tickers)) return parseFailure('ticker event without tickers');
    for (const t of tickers) {
      if (!isObject(t) || typeof t.product_id !== 'string') return parseFailure('ticker without a product_id');
      // An absent or empty best bid or ask is an empty side of the book (top-of-book.ts); a negative one is malformed.
      const bid = t.best_bid === undefined || t.best_bid === '' ? 0 : decimal(t.best_bid);
      const ask = t.best_ask === undefined || t.best_ask === '' ? 0 : decimal(t.best_ask);
      const bidSize = decimal(t.best_bid_quantity);
      const askSize = decimal(t.best_ask_quantity);
      if (!(bid >= 0) || !(ask >= 0)) return parseFailure(`ticker for ${t.product_id} with a bad best bid or ask`);
      out.push(topOfBook(t.product_id, tsMs, bid, ask, bidSize >= 0 ? bidSize : null, askSize >= 0 ? askSize : null));
    }
  }
  return out;
}

/**
 * Market trades, batched by the venue over 250 ms. The `snapshot` event sent on subscribe repeats
 * recent history (already stored after a reconnect), so only `update` events become trades.
 */
function parseMarketTrades(m: Json): VenueEvent[] | VenueParseError {
  const events = m.events;
  if (!Array.isArray(events)) return parseFailure('market_trades frame without events');
  const out: VenueEvent[] = [];
  for (const e of events) {
    if (!isObject(e) || !Array.isArray(e.trades)) return parseFailure('market_trades event without trades');
    if (e.type === 'snapshot') continue;
    for (const t of e.trades) {
      if (!isObject(t) || typeof t.product_id !== 'string') return parseFailure('trade without a product_id');
      const price = decimal(t.price);
      const size = decimal(t.size);
      const tsMs = parseIsoMs(t.time);
      if (!(price > 0) || !(size >= 0)) return parseFailure(`trade for ${t.product_id} with a missing or bad price or size`);
      if (Number.isNaN(tsMs)) return parseFailure(`trade for ${t.product_id} without a time`);
      out.push({ type: 'trade', venueSymbol: t.product_id, tsMs, price, size });
    }
  }
  return out;
}

/** The ack lists every subscription of the connection, by channel; heartbeats name no product. */
function parseSubscriptions(m: Json): VenueEvent[] | VenueParseError {
  const events = m.events;
  if (!Array.isArray(events)) return parseFailure('subscriptions frame without events');
  const names = new Set<string>();
  for (const e of events) {
    const subs = isObject(e) ? e.subscriptions : undefined;
    if (!isObject(subs)) return parseFailure('subscriptions event without subscriptions');
    for (const [channel, products] of Object.entries(subs)) {
      if (channel === 'heartbeats' || !Array.isArray(products)) continue;
      for (const p of products) if (typeof p === 'string') names.add(p);
    }
  }
  return [{ type: 'subscribed', venueSymbols: [...names] }];
}

const NOT_A_PRODUCT = ' is not a valid product';

/** `{"type":"error","message":"Failed to subscribe","reason":"XYZ-USD is not a valid product"}`: one product refused. */
function parseError(m: Json): VenueEvent[] {
  const message = typeof m.message === 'string' ? m.message : 'error';
  const reason = typeof m.reason === 'string' ? m.reason : '';
  const full = reason === '' ? message : `${message}: ${reason}`;
  const at = reason.indexOf(NOT_A_PRODUCT);
  if (at > 0) return [{ type: 'symbol-error', venueSymbol: reason.slice(0, at).trim(), message: full }];
  return [{ type: 'error', message: full, fatal: false }];
}

export function parseCoinbaseFrame(frame: string, recvMs: number): VenueEvent[] | VenueParseError {
  const m = readJson(frame);
  if (!isObject(m)) return parseFailure(m === undefined ? 'frame is not JSON' : 'frame is not a JSON object');
  const channel = m.channel;
  if (channel === 'ticker') return parseTicker(m, recvMs);
  if (channel === 'market_trades') return parseMarketTrades(m);
  if (channel === 'subscriptions') return parseSubscriptions(m);
  if (typeof channel === 'string' && QUIET_CHANNELS.has(channel)) return [{ type: 'heartbeat' }];
  if (m.type === 'error') return parseError(m);
  return parseFailure(typeof channel === 'string' ? `unknown channel ${channel}` : 'frame without a channel');
}

/** One subscribe frame per channel (the venue takes one channel per message), plus heartbeats. */
export function coinbaseSubscribeFrames(productIds: readonly string[]): string[] {
  const ids = JSON.stringify(productIds);
  return [
    `{"type":"subscribe","product_ids":${ids},"channel":"ticker"}`,
    `{"type":"subscribe","product_ids":${ids},"channel":"market_trades"}`,
    // Quiet products' subscriptions close after 60-90 s without updates; heartbeats keep them open.
    '{"type":"subscribe","channel":"heartbeats"}',
  ];
}
