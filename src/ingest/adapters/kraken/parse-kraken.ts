// Pure parsers for Kraken's spot WebSocket v2: `ticker` (level 1: best bid/ask), `trade`, the
// per-symbol subscribe acks and refusals, heartbeats, status and pongs. Unlike most venues, v2
// sends prices and sizes as JSON numbers; times are RFC 3339 with microseconds.
import { finite, isObject, parseFailure, readJson, type Json } from '../frame-values.ts';
import { parseIsoMs } from '../parse-iso-ms.ts';
import { topOfBook } from '../top-of-book.ts';
import type { VenueEvent, VenueParseError } from '../venue-protocol.ts';

/** Ticker snapshot or update: one quote per symbol. Older ticker payloads carry no time: receive time then. */
function parseTicker(data: unknown[], recvMs: number): VenueEvent[] | VenueParseError {
  const out: VenueEvent[] = [];
  for (const t of data) {
    if (!isObject(t) || typeof t.symbol !== 'string') return parseFailure('ticker without a symbol');
    const bid = finite(t.bid);
    const ask = finite(t.ask);
    const bidSize = finite(t.bid_qty);
    const askSize = finite(t.ask_qty);
    if (!(bid >= 0) || !(ask >= 0)) return parseFailure(`ticker for ${t.symbol} without a bid and ask`);
    const ts = parseIsoMs(t.timestamp);
    // A bid or ask of 0, or a quantity of 0, is an empty side (top-of-book.ts).
    out.push(topOfBook(t.symbol, Number.isNaN(ts) ? recvMs : ts, bid, ask, bidSize >= 0 ? bidSize : null, askSize >= 0 ? askSize : null));
  }
  return out;
}

/** Trades; `trade_id` numbers each book's trades one by one, so it is the line's sequence. */
function parseTrades(data: unknown[]): VenueEvent[] | VenueParseError {
  const out: VenueEvent[] = [];
  for (const t of data) {
    if (!isObject(t) || typeof t.symbol !== 'string') return parseFailure('trade without a symbol');
    const price = finite(t.price);
    const size = finite(t.qty);
    const tsMs = parseIsoMs(t.timestamp);
    if (!(price > 0) || !(size >= 0)) return parseFailure(`trade for ${t.symbol} with a missing or bad price or size`);
    if (Number.isNaN(tsMs)) return parseFailure(`trade for ${t.symbol} without a timestamp`);
    const event: VenueEvent = { type: 'trade', venueSymbol: t.symbol, tsMs, price, size };
    if (typeof t.trade_id === 'number' && Number.isSafeInteger(t.trade_id)) event.seq = t.trade_id;
    out.push(event);
  }
  return out;
}

/** Status: `online` is business as usual; maintenance or a restricted mode is reported, not fatal. */
function parseStatus(data: unknown): VenueEvent[] {
  const first = Array.isArray(data) ? data[0] : undefined;
  const system = isObject(first) ? first.system : undefined;
  if (system === undefined || system === 'online') return [{ type: 'heartbeat' }];
  return [{ type: 'error', message: `Kraken system status: ${String(system)}`, fatal: false }];
}

/** Method responses: subscribe acks come one per symbol, and so do refusals (`success: false`). */
function parseMethod(m: Json): VenueEvent[] | VenueParseError {
  if (m.method === 'pong' || m.method === 'unsubscribe') return [{ type: 'heartbeat' }];
  if (m.method !== 'subscribe') return parseFailure(`unknown method ${String(m.method)}`);
  const result = isObject(m.result) ? m.result : undefined;
  if (m.success === true) {
    const symbol = result?.symbol;
    return [{ type: 'subscribed', venueSymbols: typeof symbol === 'string' ? [symbol] : [] }];
  }
  const message = typeof m.error === 'string' ? m.error : 'subscribe refused';
  const symbol = typeof m.symbol === 'string' ? m.symbol : result?.symbol;
  if (typeof symbol === 'string') return [{ type: 'symbol-error', venueSymbol: symbol, message }];
  return [{ type: 'error', message, fatal: false }];
}

export function parseKrakenFrame(frame: string, recvMs: number): VenueEvent[] | VenueParseError {
  const m = readJson(frame);
  if (!isObject(m)) return parseFailure(m === undefined ? 'frame is not JSON' : 'frame is not a JSON object');
  const channel = m.channel;
  if (channel === 'ticker' || channel === 'trade') {
    if (!Array.isArray(m.data)) return parseFailure(`${channel} frame without data`);
    return channel === 'ticker' ? parseTicker(m.data, recvMs) : parseTrades(m.data);
  }
  if (channel === 'heartbeat') return [{ type: 'heartbeat' }];
  if (channel === 'status') return parseStatus(m.data);
  if (typeof m.method === 'string') return parseMethod(m);
  if (typeof m.error === 'string') return [{ type: 'error', message: m.error, fatal: false }];
  return parseFailure(typeof channel === 'string' ? `unknown channel ${channel}` : 'frame without a channel or method');
}

/**
 * Ticker on every change of the best bid/offer (`event_trigger: bbo`, with the current value as a
 * snapshot) and trades without the snapshot of recent history, which would repeat stored trades.
 */
export function krakenSubscribeFrames(symbols: readonly string[], requestId: number): string[] {
  const list = JSON.stringify(symbols);
  return [
    `{"method":"subscribe","params":{"channel":"ticker","symbol":${list},"event_trigger":"bbo","snapshot":true},"req_id":${requestId}}`,
    `{"method":"subscribe","params":{"channel":"trade","symbol":${list},"snapshot":false},"req_id":${requestId}}`,
  ];
}
