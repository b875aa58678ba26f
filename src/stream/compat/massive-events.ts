// The Massive (formerly Polygon.io) dialect's clusters and events: which `EV.TICKER` params each
// cluster path takes, the mds channel and symbol they stand for, and how a tick reads as the
// vendor's event (`T`, `Q`, `XT`, `XQ`, `C`, `V`) and a sealed minute bar as its per-minute
// aggregate (`AM`, `XA`, `CA`) in its batched JSON-array framing.
// `i` and `q` carry mds's per-symbol sequence number (the vendor's trade id and sequence number).
import type { Bar } from '../../domain/bar.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import { MINUTE_MS } from '../../domain/timeframes.ts';
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
const forexTickerOf = (s: string) => (/^[A-Z]{6}$/.test(s) ? vendorPair(s, '/') : null);
const forexEvent = (channel: string): MassiveEvent => ({ channel, symbolOf: (t) => (/^[A-Za-z]{6}$/.test(t) ? t.toUpperCase() : pairFromVendor(t, '/')), tickerOf: forexTickerOf });
const indexEvent = (channel: string): MassiveEvent => ({ channel, symbolOf: indexFromTicker, tickerOf: tickerOfIndex });

const PER_SECOND = 'per-second aggregates are not offered on this server (mds builds bars by the minute): subscribe to the per-minute aggregates';
export const MASSIVE_CLUSTERS: Readonly<Record<string, MassiveCluster>> = {
  stocks: { name: 'stocks', events: { T: stockEvent('stocks.trades'), Q: stockEvent('stocks.quotes'), AM: stockEvent('stocks.bars') }, unsupported: { A: PER_SECOND, LULD: 'limit up/limit down events are not offered on this server', NOI: 'imbalance events are not offered on this server', FMV: 'fair market value is not offered on this server' } },
  crypto: { name: 'crypto', events: { XT: cryptoEvent('crypto.trades'), XQ: cryptoEvent('crypto.quotes'), XA: cryptoEvent('crypto.bars') }, unsupported: { XAS: PER_SECOND, XL2: 'level 2 books are not offered on this server', FMV: 'fair market value is not offered on this server' } },
  forex: { name: 'forex', events: { C: forexEvent('forex.quotes'), CA: forexEvent('forex.bars') }, unsupported: { CAS: PER_SECOND, FMV: 'fair market value is not offered on this server' } },
  indices: { name: 'indices', events: { V: indexEvent('indices.quotes'), AM: indexEvent('indices.bars') }, unsupported: { A: PER_SECOND } },
};

/** The event type and cluster ticker of an mds channel and symbol (for notices about a pair). */
export function paramOf(cluster: MassiveCluster, channel: string, symbol: string): string {
  for (const [ev, event] of Object.entries(cluster.events)) {
    if (event.channel === channel) return `${ev}.${symbol === '*' ? '*' : (event.tickerOf(symbol) ?? symbol)}`;
  }
  return `${channel}.${symbol}`;
}

const size = (name: string, value: number | null) => (value === null ? '' : `,"${name}":${value}`);

/**
 * A sealed minute as the vendor's per-minute aggregate: `s`/`e` its start and end; `av` (stocks)
 * the day's volume so far, from the day's bar that holds the minute. mds keeps no trade counts or
 * VWAP, so `vw`, `a`, `z` and `op` are left out, and so is the volume of a class without one.
 */
function minuteAggregate(entry: SymbolEntry, m: Readonly<Bar>, day: Readonly<Bar> | null): string | null {
  const ohlc = `"o":${m.o},"h":${m.h},"l":${m.l},"c":${m.c}`;
  const span = `"s":${m.t},"e":${m.t + MINUTE_MS}`;
  switch (entry.assetClass) {
    case 'stocks': {
      const sym = tickerOfStock(entry.symbol);
      return sym === null ? null : `[{"ev":"AM","sym":"${sym}"${size('v', m.v)}${size('av', day?.v ?? null)},${ohlc},${span}}]`;
    }
    case 'crypto': {
      const pair = vendorPair(entry.symbol, '-');
      return pair === null ? null : `[{"ev":"XA","pair":"${pair}",${ohlc}${size('v', m.v)},${span}}]`;
    }
    case 'forex': {
      const pair = forexTickerOf(entry.symbol);
      return pair === null ? null : `[{"ev":"CA","pair":"${pair}",${ohlc}${size('v', m.v)},${span}}]`;
    }
    case 'indices':
      return `[{"ev":"AM","sym":"${tickerOfIndex(entry.symbol)}",${ohlc},${span}}]`;
    default:
      return null;
  }
}

/** The quote event's param (`XQ.BTC-USD`, `Q.AAPL`, `C.EUR/USD`, `V.I:SPX`) of an mds quotes line, or null when the dialect has none. */
function quoteParamOf(entry: SymbolEntry): string | null {
  const cluster = MASSIVE_CLUSTERS[entry.assetClass];
  if (cluster === undefined) return null;
  for (const [ev, event] of Object.entries(cluster.events)) {
    if (event.channel !== `${entry.assetClass}.quotes`) continue;
    const ticker = event.tickerOf(entry.symbol);
    return ticker === null ? null : `${ev}.${ticker}`;
  }
  return null;
}

/**
 * A line's lost or regained last live source, as the vendor's own `status` message (the vendor
 * has no per-ticker freshness event; its clients already read and log status messages).
 */
function freshnessStatus(entry: SymbolEntry, isStale: boolean, sources: number, sinceMs: number): string | null {
  const param = quoteParamOf(entry);
  if (param === null) return null;
  return JSON.stringify([freshnessMessage(param, isStale, sources, sinceMs)]);
}

/** The vendor status message of a line's freshness, about the quote param (`XQ.BTC-USD`). */
export function freshnessMessage(param: string, isStale: boolean, sources: number, sinceMs: number): { ev: 'status'; status: string; message: string } {
  const since = new Date(sinceMs).toISOString();
  const message = isStale ? `${param}: stale: no live source since ${since}; the last quote stands` : `${param}: live again since ${since} (${sources} source${sources === 1 ? '' : 's'})`;
  return { ev: 'status', status: isStale ? 'stale' : 'live', message };
}

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
        const pair = forexTickerOf(entry.symbol);
        return pair === null ? null : `[{"ev":"C","p":"${pair}","a":${q.ask},"b":${q.bid},"t":${q.tsMs}}]`;
      }
      case 'indices':
        // An index's value is its consolidated mid, rounded as its bars and last value are.
        return `[{"ev":"V","val":${roundedMid(q.bid, q.ask, midScaleOf(entry.decimals))},"T":"${tickerOfIndex(entry.symbol)}","t":${q.tsMs}}]`;
      default:
        return null;
    }
  },
  bar: minuteAggregate,
  status: freshnessStatus,
};
