// The US overnight session's lines: the most traded US stocks and ETFs, served under /overnight
// with their regular-session names but as series of their own (the registry keeps them apart).
// Levels, volatility and decimals come from the regular-session row; overnight books are thin,
// so spreads are wider and sizes smaller.
import type { InstrumentSpec } from '../../domain/instrument.ts';
import { ETFS } from './etfs.ts';
import { US_STOCKS } from './stocks.ts';

const REGULAR = new Map<string, InstrumentSpec>([...US_STOCKS, ...ETFS].map((s) => [s.symbol, s]));

/** Overnight books quote this many times wider than the regular session's. */
const SPREAD_FACTOR = 6;
/** And show this fraction of its size. */
const SIZE_FACTOR = 0.2;

function overnightLine(symbol: string): InstrumentSpec {
  const r = REGULAR.get(symbol);
  if (!r) throw new Error(`overnight catalog: unknown US stock or ETF ${symbol}`);
  return {
    symbol: r.symbol,
    assetClass: 'overnight',
    name: r.name,
    market: 'US',
    price: r.price,
    volAnnual: r.volAnnual,
    spreadBps: r.spreadBps * SPREAD_FACTOR,
    decimals: r.decimals,
    lotSize: Math.max(1, Math.round(r.lotSize * SIZE_FACTOR)),
  };
}

export const OVERNIGHT_LINES: readonly InstrumentSpec[] = [
  // stocks
  'US:AAPL', 'US:MSFT', 'US:NVDA', 'US:AMZN', 'US:GOOGL', 'US:META', 'US:TSLA', 'US:AMD', 'US:NFLX', 'US:PLTR',
  // ETFs
  'US500ETF', 'US100ETF', 'US30ETF', 'USSMALLCAP', 'USGOLD',
].map(overnightLine);
