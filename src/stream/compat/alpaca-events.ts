// The Alpaca market data dialect's feeds and messages: stocks on /v2/{feed} (`AAPL`) and crypto
// on /v1beta3/crypto/us (`BTC/USD`), and how a tick reads as the vendor's trade (`T:"t"`) and
// quote (`T:"q"`), a sealed minute as its minute bar (`T:"b"`) and the day's bar it updates as its
// daily bar (`T:"d"`, a US stock's stamped at 00:00 New York of its session date as the REST
// dialect stamps it), in its array framing: JSON with RFC 3339 times, or msgpack with the
// timestamp extension (chosen by the upgrade's Content-Type). `i` carries mds's per-symbol
// sequence number.
import type { Bar } from '../../domain/bar.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import { pairFromVendor, stockFromTicker, tickerOfStock, vendorPair } from '../../domain/compat-tickers.ts';
import { vendorBarTime } from '../../market/index.ts';
import type { DialectEncoder } from '../hub.ts';
import { packObject } from '../messages.ts';

export const ALPACA_JSON_AUDIENCE = '~alpaca';
export const ALPACA_MSGPACK_AUDIENCE = '~alpaca.m';

export interface AlpacaFeed {
  assetClass: 'stocks' | 'crypto';
  symbolOf(vendor: string): string | null;
  tickerOf(symbol: string): string | null;
  /** The channels the subscription message lists besides trades, quotes and bars (always empty here). */
  otherLists: readonly string[];
}

export const ALPACA_STOCKS: AlpacaFeed = {
  assetClass: 'stocks',
  symbolOf: (t) => (/^[A-Za-z0-9.\-]{1,20}$/.test(t) ? stockFromTicker(t) : null),
  tickerOf: tickerOfStock,
  otherLists: ['statuses', 'lulds'],
};

export const ALPACA_CRYPTO: AlpacaFeed = {
  assetClass: 'crypto',
  symbolOf: (t) => pairFromVendor(t, '/'),
  tickerOf: (s) => vendorPair(s, '/'),
  otherLists: ['orderbooks'],
};

const FEEDS: Partial<Record<string, AlpacaFeed>> = { stocks: ALPACA_STOCKS, crypto: ALPACA_CRYPTO };

/** RFC 3339 with nine fractional digits, as the vendor writes times (mds times are milliseconds). */
export function rfc3339Nanos(tsMs: number): string {
  return `${new Date(tsMs).toISOString().slice(0, -1)}000000Z`;
}

type Message = Record<string, unknown>;

function tradeMessage(entry: SymbolEntry, seq: number, price: number, size: number | null, t: unknown): Message | null {
  const symbol = FEEDS[entry.assetClass]?.tickerOf(entry.symbol);
  if (symbol === undefined || symbol === null) return null;
  return size === null ? { T: 't', S: symbol, i: seq, p: price, t } : { T: 't', S: symbol, i: seq, p: price, s: size, t };
}

function quoteMessage(entry: SymbolEntry, q: { bid: number; ask: number; bidSize: number | null; askSize: number | null }, t: unknown): Message | null {
  const symbol = FEEDS[entry.assetClass]?.tickerOf(entry.symbol);
  if (symbol === undefined || symbol === null) return null;
  return { T: 'q', S: symbol, bp: q.bid, ...(q.bidSize !== null && { bs: q.bidSize }), ap: q.ask, ...(q.askSize !== null && { as: q.askSize }), t };
}

/**
 * A bar as the vendor streams it, `t` its start. mds keeps no trade counts or VWAP: `n` and `vw`
 * are left out (the vendor's clients read them as optional), as is a volume mds does not have.
 */
function barMessage(type: 'b' | 'd', entry: SymbolEntry, bar: Readonly<Bar>, t: unknown): Message | null {
  const symbol = FEEDS[entry.assetClass]?.tickerOf(entry.symbol);
  if (symbol === undefined || symbol === null) return null;
  return { T: type, S: symbol, o: bar.o, h: bar.h, l: bar.l, c: bar.c, ...(bar.v !== null && { v: bar.v }), t };
}

export const ALPACA_JSON_ENCODER: DialectEncoder = {
  audience: ALPACA_JSON_AUDIENCE,
  trade(entry, seq, tsMs, price, size) {
    const m = tradeMessage(entry, seq, price, size, null);
    return m === null ? null : JSON.stringify([{ ...m, t: rfc3339Nanos(tsMs) }]);
  },
  quote(entry, _seq, q) {
    const m = quoteMessage(entry, q, null);
    return m === null ? null : JSON.stringify([{ ...m, t: rfc3339Nanos(q.tsMs) }]);
  },
  bar(entry, minute) {
    const m = barMessage('b', entry, minute, rfc3339Nanos(minute.t));
    return m === null ? null : JSON.stringify([m]);
  },
  dailyBar(entry, day) {
    const m = barMessage('d', entry, day, rfc3339Nanos(vendorBarTime(entry, '1d', day.t)));
    return m === null ? null : JSON.stringify([m]);
  },
};

/** A Date packs as the msgpack timestamp extension, which the vendor's clients read as the time. */
export const ALPACA_MSGPACK_ENCODER: DialectEncoder = {
  audience: ALPACA_MSGPACK_AUDIENCE,
  trade(entry, seq, tsMs, price, size) {
    const m = tradeMessage(entry, seq, price, size, new Date(tsMs));
    return m === null ? null : packObject([m]);
  },
  quote(entry, _seq, q) {
    const m = quoteMessage(entry, q, new Date(q.tsMs));
    return m === null ? null : packObject([m]);
  },
  bar(entry, minute) {
    const m = barMessage('b', entry, minute, new Date(minute.t));
    return m === null ? null : packObject([m]);
  },
  dailyBar(entry, day) {
    const m = barMessage('d', entry, day, new Date(vendorBarTime(entry, '1d', day.t)));
    return m === null ? null : packObject([m]);
  },
};
