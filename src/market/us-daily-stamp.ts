// Where the vendors stamp a US stock's daily bar: 00:00 America/New_York of the session date
// (04:00 or 05:00 UTC), where mds stamps 00:00 UTC of the same date. The REST dialects and the
// Alpaca stream both stamp that way, so a client that converts `t` to a New York date gets the
// session the vendor would give, whichever way the bar reached it.
import type { SymbolEntry } from '../domain/instrument.ts';
import type { Timeframe } from '../domain/timeframes.ts';
import { localMinutesToMs } from './zoned-time.ts';

const NEW_YORK = 'America/New_York';

/** Whether a symbol's daily bars are stamped at New York midnight in the dialects (US stocks). */
export function stampsNewYork(entry: Pick<SymbolEntry, 'assetClass' | 'market'>): boolean {
  return entry.assetClass === 'stocks' && entry.market === 'US';
}

/** New York midnight of a UTC date start (mds's daily stamp). */
export function newYorkMidnight(utcDayMs: number): number {
  return localMinutesToMs(new Date(utcDayMs).toISOString().slice(0, 10), 0, NEW_YORK);
}

/** A bar's `t` as the vendor stamps it. */
export function vendorBarTime(entry: Pick<SymbolEntry, 'assetClass' | 'market'>, tf: Timeframe, t: number): number {
  return tf === '1d' && stampsNewYork(entry) ? newYorkMidnight(t) : t;
}
