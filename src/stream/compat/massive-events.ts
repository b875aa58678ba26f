// The Massive (formerly Polygon.io) dialect's clusters and events: which `EV.TICKER` params each
// cluster path takes, the mds channel and symbol they stand for, and how a tick reads as the
// vendor's event (`T`, `Q`, `XT`, `XQ`, `C`, `V`) in its batched JSON-array framing.
// `i` and `q` carry mds's per-symbol sequence number (the vendor's trade id and sequence number).
import type { SymbolEntry } from '../../domain/instrument.ts';
import { indexFromTicker, pairFromVendor, stockFromTicker, tickerOfIndex, tickerOfStock, vendorPair } from '../../domain/compat-tickers.ts';
import { midScaleOf, roundedMid } from '../../domain/mid-price.ts';
import type { DialectEncoder } from '../hub.ts';

export const MASSIVE_AUDIENCE = '~massive';

export interface MassiveEvent {
  /** The mds channel the event is read from. */
  channel: string;
  /** The vendor ticker's mds symbol, or null when it cannot be one. */
  symbolOf(ticker: string): string | null;
  /** The mds symbol's vendor ticker. */
  tickerOf(symbol: string): string | null;
}

export interface MassiveCluster {
  name: string;
  events: Readonly<Record<string, MassiveEvent>>;
  /** The vendor's other event types on this cluster, named in the refusal. */
  unsupported: Readonly<Record<string, string>>;
}

const stockEvent = (channel: string): MassiveEvent => ({ channel, symbolOf: (t) => (/^[A-Za-z0-9.\-]{1,20}$/.test(t) ? stockFromTicker(t) : null), tickerOf: tickerOfStock });
const cryptoEvent = (channel: string): MassiveEvent => ({ channel, symbolOf: (t) => pairFromVendor(t, '-'), tickerOf: (s) => vendorPair(s, '-') });
// Forex tickers are `EUR/USD` (the slash may be left out).
const forexEvent: MassiveEvent = { channel: 'forex.quotes', symbolOf: (t) => (/^[A-Za-z]{6}$/.test(t) ? t.toUpperCase() : pairFromVendor(t, '/')), tickerOf: (s) => (/^[A-Z]{6}$/.test(s) ? vendorPair(s, '/') : null) };
const indexEvent: MassiveEvent = { channel: 'indices.quotes', symbolOf: indexFromTicker, tickerOf: tickerOfIndex };

const AGGREGATES = 'aggregates are not offered on this server: build bars from trades, or read them from the REST aggregates';
export const MASSIVE_CLUSTERS: Readonly<Record<string, MassiveCluster>> = {
  stocks: { name: 'stocks', events: { T: stockEvent('stocks.trades'), Q: stockEvent('stocks.quotes') }, unsupported: { A: AGGREGATES, AM: AGGREGATES, LULD: 'limit up/limit down events are not offered on this server', NOI: 'imbalance events are not offered on this server', FMV: 'fair market value is not offered on this server' } },
  crypto: { name: 'crypto', events: { XT: cryptoEvent('crypto.trades'), XQ: cryptoEvent('crypto.quotes') }, unsupported: { XA: AGGREGATES, XAS: AGGREGATES, XL2: 'level 2 books are not offered on this server', FMV: 'fair market value is not offered on this server' } },
  forex: { name: 'forex', events: { C: forexEvent }, unsupported: { CA: AGGREGATES, CAS: AGGREGATES, FMV: 'fair market value is not offered on this server' } },
  indices: { name: 'indices', events: { V: indexEvent }, unsupported: { A: AGGREGATES, AM: AGGREGATES } },
};

/** The event type and cluster ticker of an mds channel and symbol (for notices about a pair). */
export function paramOf(cluster: MassiveCluster, channel: string, symbol: string): string {
  for (const [ev, event] of Object.entries(cluster.events)) {
    if (event.channel === channel) return `${ev}.${symbol === '*' ? '*' : (event.tickerOf(symbol) ?? symbol)}`;
  }
  return `${channel}.${symbol}`;
}

const size = (name: string, value: number | null) => (value === null ? '' : `,"${name}":${value}`);

/** Ticks as Massive events: one event per frame, an array as the vendor batches them. */
export const MASSIVE_ENCODER: DialectEncoder = {
  audience: MASSIVE_AUDIENCE,
  trade(entry: SymbolEntry, seq: number, tsMs: number, price: number, sz: number | null) {
    if (entry.assetClass === 'stocks') {
      const sym = tickerOfStock(entry.symbol);
      return sym === null ? null : `[{"ev":"T","sym":"${sym}","i":"${seq}","p":${price}${size('s', sz)},"t":${tsMs},"q":${seq}}]`;
    }
    if (entry.assetClass === 'crypto') {
      const pair = vendorPair(entry.symbol, '-');
      return pair === null ? null : `[{"ev":"XT","pair":"${pair}","p":${price},"t":${tsMs}${size('s', sz)},"i":${seq}}]`;
    }
    return null;
  },
  quote(entry, seq, q) {
    switch (entry.assetClass) {
      case 'stocks': {
        const sym = tickerOfStock(entry.symbol);
        return sym === null ? null : `[{"ev":"Q","sym":"${sym}","bp":${q.bid}${size('bs', q.bidSize)},"ap":${q.ask}${size('as', q.askSize)},"t":${q.tsMs},"q":${seq}}]`;
      }
      case 'crypto': {
        const pair = vendorPair(entry.symbol, '-');
        return pair === null ? null : `[{"ev":"XQ","pair":"${pair}","bp":${q.bid}${size('bs', q.bidSize)},"ap":${q.ask}${size('as', q.askSize)},"t":${q.tsMs}}]`;
      }
      case 'forex': {
        const pair = forexEvent.tickerOf(entry.symbol);
        return pair === null ? null : `[{"ev":"C","p":"${pair}","a":${q.ask},"b":${q.bid},"t":${q.tsMs}}]`;
      }
      case 'indices':
        // An index's value is its consolidated mid, rounded as its bars and last value are.
        return `[{"ev":"V","val":${roundedMid(q.bid, q.ask, midScaleOf(entry.decimals))},"T":"${tickerOfIndex(entry.symbol)}","t":${q.tsMs}}]`;
      default:
        return null;
    }
  },
};
