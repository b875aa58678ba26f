// Pure parsers for Deribit's JSON-RPC 2.0 WebSocket: `subscription` notifications of `quote.*`
// (top of book) and `trades.*.100ms`, subscribe results, JSON-RPC errors, and heartbeats
// (`test_request` asks for a `public/test` call back). Prices and amounts are JSON numbers, times
// epoch ms. Inverse perpetuals (`BTC-PERPETUAL`) count amounts in USD, turned into coins at the
// quote's own price; linear ones (`SOL_USDC-PERPETUAL`) count coins already.
import { finite, isObject, parseFailure, readJson, type Json } from '../frame-values.ts';
import { topOfBook } from '../top-of-book.ts';
import type { VenueEvent, VenueParseError } from '../venue-protocol.ts';

/** Linear instruments name their settlement currency after an underscore. */
const isInverse = (instrument: string) => instrument.indexOf('_') < 0;

/** An amount in coins: USD amounts of inverse instruments divided by the price. */
function coins(amount: number, price: number, inverse: boolean): number | null {
  if (!(amount >= 0)) return null;
  return inverse ? amount / price : amount;
}

/** `quote.{instrument}`: best bid/ask price and amount; a side without orders has price 0 or null. */
function parseQuote(d: unknown): VenueEvent[] | VenueParseError {
  if (!isObject(d) || typeof d.instrument_name !== 'string') return parseFailure('quote notification without instrument_name');
  const name = d.instrument_name;
  const tsMs = finite(d.timestamp);
  if (!(tsMs > 0)) return parseFailure(`quote for ${name} without timestamp`);
  const bid = finite(d.best_bid_price);
  const ask = finite(d.best_ask_price);
  // A side without orders (price 0 or null, or amount 0) is empty (top-of-book.ts).
  if (!(bid > 0) || !(ask > 0)) return [{ type: 'book-empty', venueSymbol: name }];
  const inverse = isInverse(name);
  return [topOfBook(name, tsMs, bid, ask, coins(finite(d.best_bid_amount), bid, inverse), coins(finite(d.best_ask_amount), ask, inverse))];
}

/** `trades.{instrument}.100ms`: trades of the interval; `trade_seq` numbers an instrument's trades one by one. */
function parseTrades(data: unknown): VenueEvent[] | VenueParseError {
  if (!Array.isArray(data)) return parseFailure('trades notification without a data array');
  const out: VenueEvent[] = [];
  for (const t of data) {
    if (!isObject(t) || typeof t.instrument_name !== 'string') return parseFailure('trade without instrument_name');
    const name = t.instrument_name;
    const price = finite(t.price);
    const tsMs = finite(t.timestamp);
    if (!(price > 0)) return parseFailure(`trade for ${name} with a missing or bad price`);
    if (!(tsMs > 0)) return parseFailure(`trade for ${name} without timestamp`);
    const event: VenueEvent = { type: 'trade', venueSymbol: name, tsMs, price, size: coins(finite(t.amount), price, isInverse(name)) };
    if (typeof t.trade_seq === 'number' && Number.isSafeInteger(t.trade_seq)) event.seq = t.trade_seq;
    out.push(event);
  }
  return out;
}

/** The instrument of a channel name: `quote.BTC-PERPETUAL`, `trades.BTC-PERPETUAL.100ms`. */
function instrumentOfChannel(channel: string): string | null {
  const first = channel.indexOf('.');
  if (first < 0) return null;
  const second = channel.indexOf('.', first + 1);
  const name = second < 0 ? channel.slice(first + 1) : channel.slice(first + 1, second);
  return name === '' ? null : name;
}

/** A JSON-RPC answer: the subscribe result lists the channels taken; other results are keepalive answers. */
function parseAnswer(m: Json): VenueEvent[] {
  if (isObject(m.error)) {
    const code = typeof m.error.code === 'number' ? m.error.code : 0;
    const reason = isObject(m.error.data) && typeof m.error.data.reason === 'string' ? `: ${m.error.data.reason}` : '';
    const message = `${code} ${typeof m.error.message === 'string' ? m.error.message : 'error'}${reason}`;
    // An answer to a subscribe request (ids from 1; the keepalive call is 0): an unauthorized or
    // invalid channel (13009, 13004, -32602) leaves every channel of that request unsubscribed.
    if (typeof m.id === 'number' && Number.isSafeInteger(m.id) && m.id > 0) return [{ type: 'batch-refused', requestId: m.id, message }];
    return [{ type: 'error', message, fatal: false }];
  }
  if (Array.isArray(m.result)) {
    const names = new Set<string>();
    for (const channel of m.result) {
      if (typeof channel !== 'string') continue;
      const name = instrumentOfChannel(channel);
      if (name !== null) names.add(name);
    }
    return [{ type: 'subscribed', venueSymbols: [...names] }];
  }
  return [{ type: 'heartbeat' }];
}

/** The answer to a `test_request` heartbeat: a `public/test` call. */
export const DERIBIT_TEST_CALL = '{"jsonrpc":"2.0","id":0,"method":"public/test","params":{}}';

export function parseDeribitFrame(frame: string, _recvMs: number): VenueEvent[] | VenueParseError {
  const m = readJson(frame);
  if (!isObject(m)) return parseFailure(m === undefined ? 'frame is not JSON' : 'frame is not a JSON object');
  if (m.method === 'subscription') {
    const p = m.params;
    if (!isObject(p) || typeof p.channel !== 'string') return parseFailure('subscription notification without params.channel');
    const channel = p.channel;
    if (channel.startsWith('quote.')) return parseQuote(p.data);
    if (channel.startsWith('trades.')) return parseTrades(p.data);
    return parseFailure(`notification of unknown channel ${channel}`);
  }
  if (m.method === 'heartbeat') {
    const p = m.params;
    return isObject(p) && p.type === 'test_request' ? [{ type: 'ping', reply: DERIBIT_TEST_CALL }] : [{ type: 'heartbeat' }];
  }
  if ('result' in m || 'error' in m) return parseAnswer(m);
  return parseFailure('frame is no notification, heartbeat or answer');
}

/** Top of book and trades of each instrument in one `public/subscribe` call. */
export function deribitSubscribeFrames(instruments: readonly string[], requestId: number): string[] {
  const channels: string[] = [];
  for (const name of instruments) channels.push(`quote.${name}`, `trades.${name}.100ms`);
  return [JSON.stringify({ jsonrpc: '2.0', id: requestId, method: 'public/subscribe', params: { channels } })];
}
