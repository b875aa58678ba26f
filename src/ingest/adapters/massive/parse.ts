// Pure parsers of the Massive (formerly Polygon.io) WebSocket: every frame is a JSON array of
// events told apart by `ev`. Stocks `Q`/`T`, crypto `XQ`/`XT`, forex `C`, and `status` frames
// (connected, auth_success, auth_failed, success, max_connections, error). Times are epoch ms.
// Shapes: the vendor's WebSocket specification (massive-com/client-go .massive/websocket.json,
// websocket/models/models.go) and its WebSocket docs.
import { parseEventArray } from '../frame-values.ts';
import { topOfBook } from '../top-of-book.ts';
import type { VenueEvent, VenueParseError } from '../venue-protocol.ts';

const fail = (message: string): VenueParseError => ({ type: 'parse-error', message });
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const sizeOf = (v: unknown): number | null => (isNum(v) && v >= 0 ? v : null);

type Raw = Record<string, unknown>;

function statusEvent(e: Raw): VenueEvent | VenueParseError {
  const status = e.status;
  const message = typeof e.message === 'string' ? e.message : '';
  switch (status) {
    case 'connected':
      return { type: 'heartbeat' };
    case 'auth_success':
      return { type: 'auth', ok: true, message };
    case 'auth_failed':
      return { type: 'auth', ok: false, message: message || 'authentication failed' };
    case 'success': {
      // "subscribed to: Q.AAPL" (one status per channel); the venue symbol follows the prefix.
      const at = message.indexOf('subscribed to: ');
      if (at < 0) return { type: 'heartbeat' };
      const names = message
        .slice(at + 15)
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.length > 0)
        .map((s) => s.slice(s.indexOf('.') + 1));
      return { type: 'subscribed', venueSymbols: names };
    }
    case 'max_connections':
      // A second connection on the account: the vendor drops one; reconnecting would only fight it.
      return { type: 'error', message: message || 'maximum number of connections exceeded', fatal: true };
    case 'error':
      return { type: 'error', message: message || 'error', fatal: false };
    default:
      return typeof status === 'string' ? { type: 'heartbeat' } : fail('status event without a status');
  }
}

function quoteEvent(sym: unknown, e: Raw): VenueEvent | VenueParseError {
  const { bp, ap, t } = e;
  if (typeof sym !== 'string' || !isNum(bp) || !isNum(ap) || !isNum(t)) return fail(`${String(e.ev)} event without symbol, bp, ap or t`);
  return topOfBook(sym, t, bp, ap, sizeOf(e.bs), sizeOf(e.as));
}

function tradeEvent(sym: unknown, e: Raw): VenueEvent | VenueParseError {
  const { p, t } = e;
  if (typeof sym !== 'string' || !isNum(p) || !isNum(t)) return fail(`${String(e.ev)} event without symbol, p or t`);
  return { type: 'trade', venueSymbol: sym, tsMs: t, price: p, size: sizeOf(e.s) };
}

function forexQuoteEvent(e: Raw): VenueEvent | VenueParseError {
  const { p, b, a, t } = e;
  if (typeof p !== 'string' || !isNum(b) || !isNum(a) || !isNum(t)) return fail('C event without p, b, a or t');
  return topOfBook(p, t, b, a, null, null);
}

function eventOf(e: unknown): VenueEvent | VenueParseError | null {
  if (typeof e !== 'object' || e === null) return fail('event is not an object');
  const raw = e as Raw;
  switch (raw.ev) {
    case 'Q':
      return quoteEvent(raw.sym, raw);
    case 'T':
      return tradeEvent(raw.sym, raw);
    case 'XQ':
      return quoteEvent(raw.pair, raw);
    case 'XT':
      return tradeEvent(raw.pair, raw);
    case 'C':
      return forexQuoteEvent(raw);
    case 'status':
      return statusEvent(raw);
    case undefined:
      return fail('event without ev');
    default:
      // Aggregates, LULD, imbalances, FMV: not subscribed by mds, ignored if they arrive.
      return null;
  }
}

/** One Massive frame to events; a frame with a malformed event is a parse error for the whole frame. */
export function parseMassiveFrame(frame: string, _recvMs: number): VenueEvent[] | VenueParseError {
  return parseEventArray(frame, eventOf);
}
