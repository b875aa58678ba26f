// Pure parsers of the Alpaca market data WebSocket: every frame is a JSON array; control messages
// (`success`, `error`, `subscription`) come alone, data points (`q` quotes, `t` trades) may come
// many at once. Times are RFC 3339 with nanoseconds. Error codes: 400 invalid syntax, 401 not
// authenticated, 402 auth failed, 403 already authenticated, 404 auth timeout, 405 symbol limit
// exceeded, 406 connection limit exceeded, 407 slow client, 408 v2 not enabled, 409 insufficient
// subscription, 500 internal error. Shapes: alpacahq/alpaca-docs, market-data-api
// stock-pricing-data/realtime.md and crypto-pricing-data/realtime.md, data/webapi/entities.
import { parseIsoMs } from '../parse-iso-ms.ts';
import { parseEventArray } from '../frame-values.ts';
import { topOfBook } from '../top-of-book.ts';
import type { VenueEvent, VenueParseError } from '../venue-protocol.ts';

const fail = (message: string): VenueParseError => ({ type: 'parse-error', message });
const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const sizeOf = (v: unknown): number | null => (isNum(v) && v >= 0 ? v : null);

/** Errors after which reconnecting cannot help: the account or its plan must change first. */
const FATAL_CODES = new Set([402, 406, 408, 409]);

type Raw = Record<string, unknown>;

function errorEvent(e: Raw): VenueEvent {
  const code = isNum(e.code) ? e.code : 0;
  const message = `${code} ${typeof e.msg === 'string' ? e.msg : 'error'}`;
  if (code === 402) return { type: 'auth', ok: false, message };
  return { type: 'error', message, fatal: FATAL_CODES.has(code) };
}

function subscriptionEvent(e: Raw): VenueEvent {
  const names = new Set<string>();
  for (const list of [e.quotes, e.trades]) if (Array.isArray(list)) for (const s of list) if (typeof s === 'string') names.add(s);
  return { type: 'subscribed', venueSymbols: [...names] };
}

function eventOf(e: unknown): VenueEvent | VenueParseError | null {
  if (typeof e !== 'object' || e === null) return fail('message is not an object');
  const raw = e as Raw;
  switch (raw.T) {
    case 'q': {
      const { S, bp, ap, t } = raw;
      const tsMs = parseIsoMs(t);
      if (typeof S !== 'string' || !isNum(bp) || !isNum(ap) || Number.isNaN(tsMs)) return fail('quote without S, bp, ap or an RFC 3339 t');
      return topOfBook(S, tsMs, bp, ap, sizeOf(raw.bs), sizeOf(raw.as));
    }
    case 't': {
      const { S, p, t } = raw;
      const tsMs = parseIsoMs(t);
      if (typeof S !== 'string' || !isNum(p) || Number.isNaN(tsMs)) return fail('trade without S, p or an RFC 3339 t');
      return { type: 'trade', venueSymbol: S, tsMs, price: p, size: sizeOf(raw.s) };
    }
    case 'success':
      return raw.msg === 'authenticated' ? { type: 'auth', ok: true, message: 'authenticated' } : { type: 'heartbeat' };
    case 'error':
      return errorEvent(raw);
    case 'subscription':
      return subscriptionEvent(raw);
    case undefined:
      return fail('message without T');
    default:
      // Bars, statuses, LULD, corrections, order books: not subscribed by mds, ignored if they arrive.
      return null;
  }
}

export function parseAlpacaFrame(frame: string, _recvMs: number): VenueEvent[] | VenueParseError {
  return parseEventArray(frame, eventOf);
}
