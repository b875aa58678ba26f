// Pure parsers for OKX's v5 public WebSocket (spot and swaps share it): `bbo-tbt` and `tickers`
// (top of book), `trades`, subscribe acks, errors (per symbol where they name an instId), notices
// and the plain-text `pong`; and the stream settings spot and swaps share. Prices, sizes and times
// are strings (times epoch ms). Swap sizes count contracts: a contract-size table turns them into
// coins, and a swap without a known contract size gives a null size rather than a wrong one.
import { decimal, isObject, parseFailure, readJson, type Json } from '../frame-values.ts';
import { topOfBook } from '../top-of-book.ts';
import type { VenueEvent, VenueParseError, VenueProtocol } from '../venue-protocol.ts';

/** Coins per contract by instId; absent for spot, where sizes are coins already. */
export type ContractSizes = ReadonlyMap<string, number>;

/** The size of one book level or trade in coins; null when a swap's contract size is unknown. */
function coins(raw: unknown, instId: string, contracts: ContractSizes | undefined): number | null {
  const size = decimal(raw);
  if (!(size >= 0)) return null;
  if (contracts === undefined) return size;
  const perContract = contracts.get(instId);
  return perContract === undefined ? null : size * perContract;
}

/** The time field of a push: epoch ms as a string. */
function timeOf(raw: unknown): number {
  const ms = decimal(raw);
  return ms > 0 ? ms : NaN;
}

/**
 * `bbo-tbt`: each push is the whole best level of both sides (`[price, size, 0, orders]`), so no
 * state is kept. Its `seqId` counts every change of the book, also those below the best level, so
 * steps in it are no lost messages and it is not passed on as `seq`.
 */
function parseBbo(instId: string, data: unknown[], contracts: ContractSizes | undefined): VenueEvent[] | VenueParseError {
  const out: VenueEvent[] = [];
  for (const d of data) {
    if (!isObject(d) || !Array.isArray(d.bids) || !Array.isArray(d.asks)) return parseFailure(`bbo-tbt push for ${instId} without bids and asks`);
    const bid = d.bids[0];
    const ask = d.asks[0];
    // One side empty (a halted or new book): no quote, and the line is stale until both sides are back.
    if (bid === undefined || ask === undefined) {
      out.push({ type: 'book-empty', venueSymbol: instId });
      continue;
    }
    if (!Array.isArray(bid) || !Array.isArray(ask)) return parseFailure(`bbo-tbt push for ${instId} with a bad level`);
    const bidPx = decimal(bid[0]);
    const askPx = decimal(ask[0]);
    const tsMs = timeOf(d.ts);
    if (!(bidPx >= 0) || !(askPx >= 0)) return parseFailure(`bbo-tbt push for ${instId} with a bad price`);
    if (Number.isNaN(tsMs)) return parseFailure(`bbo-tbt push for ${instId} without ts`);
    out.push(topOfBook(instId, tsMs, bidPx, askPx, coins(bid[1], instId, contracts), coins(ask[1], instId, contracts)));
  }
  return out;
}

/** `tickers`: best bid/ask with the day's statistics; an empty side is an empty string. */
function parseTickers(instId: string, data: unknown[], contracts: ContractSizes | undefined): VenueEvent[] | VenueParseError {
  const out: VenueEvent[] = [];
  for (const d of data) {
    if (!isObject(d)) return parseFailure(`tickers push for ${instId} without data`);
    const bid = decimal(d.bidPx);
    const ask = decimal(d.askPx);
    const tsMs = timeOf(d.ts);
    if (Number.isNaN(tsMs)) return parseFailure(`tickers push for ${instId} without ts`);
    out.push(topOfBook(instId, tsMs, bid, ask, coins(d.bidSz, instId, contracts), coins(d.askSz, instId, contracts)));
  }
  return out;
}

/** `trades`: one push per fill (`count` says how many orders it aggregates), instId in each. */
function parseTrades(data: unknown[], contracts: ContractSizes | undefined): VenueEvent[] | VenueParseError {
  const out: VenueEvent[] = [];
  for (const t of data) {
    if (!isObject(t) || typeof t.instId !== 'string') return parseFailure('trade without instId');
    const price = decimal(t.px);
    const tsMs = timeOf(t.ts);
    if (!(price > 0)) return parseFailure(`trade for ${t.instId} with a missing or bad px`);
    if (Number.isNaN(tsMs)) return parseFailure(`trade for ${t.instId} without ts`);
    out.push({ type: 'trade', venueSymbol: t.instId, tsMs, price, size: coins(t.sz, t.instId, contracts) });
  }
  return out;
}

/** The instId an error names: in its `arg`, or in its message (`...channel:trades,instId:XYZ-USDT doesn't exist`). */
function instIdOfError(m: Json, message: string): string | null {
  if (isObject(m.arg) && typeof m.arg.instId === 'string' && m.arg.instId !== '') return m.arg.instId;
  const at = message.indexOf('instId:');
  if (at < 0) return null;
  const start = at + 'instId:'.length;
  let end = start;
  while (end < message.length && message[end] !== ' ' && message[end] !== ',' && message[end] !== '"' && message[end] !== '}') end++;
  return end > start ? message.slice(start, end) : null;
}

/** Operation answers: `subscribe` acks echo the arg; `error` carries code and msg. */
function parseEvent(m: Json): VenueEvent[] | VenueParseError {
  const code = typeof m.code === 'string' ? m.code : '';
  const msg = typeof m.msg === 'string' ? m.msg : '';
  switch (m.event) {
    case 'subscribe':
      return [{ type: 'subscribed', venueSymbols: isObject(m.arg) && typeof m.arg.instId === 'string' ? [m.arg.instId] : [] }];
    case 'unsubscribe':
    case 'channel-conn-count':
      return [{ type: 'heartbeat' }];
    case 'error': {
      const message = code === '' ? msg || 'error' : `${code} ${msg}`.trimEnd();
      const venueSymbol = instIdOfError(m, msg);
      if (venueSymbol !== null) return [{ type: 'symbol-error', venueSymbol, message }];
      return [{ type: 'error', message, fatal: false }];
    }
    case 'notice':
    case 'channel-conn-count-error':
      // Notices announce a service upgrade that will close the connection; the reconnect follows the close.
      return [{ type: 'error', message: code === '' ? msg || String(m.event) : `${code} ${msg}`.trimEnd(), fatal: false }];
    default:
      return parseFailure(`unknown event ${String(m.event)}`);
  }
}

/** One frame; `contracts` turns swap contract counts into coins (absent for spot). */
export function parseOkxFrame(frame: string, contracts?: ContractSizes): VenueEvent[] | VenueParseError {
  if (frame === 'pong') return [{ type: 'heartbeat' }];
  const m = readJson(frame);
  if (!isObject(m)) return parseFailure(m === undefined ? 'frame is not JSON' : 'frame is not a JSON object');
  const arg = m.arg;
  if (isObject(arg) && m.data !== undefined) {
    const { channel, instId } = arg;
    if (typeof instId !== 'string') return parseFailure('push without arg.instId');
    if (!Array.isArray(m.data)) return parseFailure(`${String(channel)} push for ${instId} without a data array`);
    switch (channel) {
      case 'bbo-tbt':
        return parseBbo(instId, m.data, contracts);
      case 'trades':
        return parseTrades(m.data, contracts);
      case 'tickers':
        return parseTickers(instId, m.data, contracts);
      default:
        return parseFailure(`push of unknown channel ${String(channel)}`);
    }
  }
  if (typeof m.event === 'string') return parseEvent(m);
  return parseFailure('frame without arg and data or event');
}

/** Top of book (`bbo-tbt`) and trades per instrument, in one `subscribe` operation. */
export function okxSubscribeFrames(instIds: readonly string[], requestId: number): string[] {
  const args: { channel: string; instId: string }[] = [];
  for (const instId of instIds) args.push({ channel: 'bbo-tbt', instId }, { channel: 'trades', instId });
  return [JSON.stringify({ id: String(requestId), op: 'subscribe', args })];
}

/** What OKX's spot and swap streams share: limits, subscribing and the keepalive. */
export const OKX_STREAM: Pick<VenueProtocol, 'maxSymbolsPerFrame' | 'maxFramesPerSecond' | 'refusesWholeBatch' | 'subscribeFrames' | 'pingFrame' | 'pingIntervalMs'> = {
  // A subscribe request may carry up to 64 KB of args; 3 subscribe requests a second per connection.
  maxSymbolsPerFrame: 100,
  maxFramesPerSecond: 3,
  // An error naming one instId answers the whole subscribe request it was in.
  refusesWholeBatch: true,
  subscribeFrames: okxSubscribeFrames,
  // OKX closes a connection that has pushed nothing for 30 s; the text `ping` is answered `pong`.
  pingFrame: () => 'ping',
  pingIntervalMs: 20_000,
};
