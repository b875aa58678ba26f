// Where the vendors stamp a US stock's daily bar: 00:00 America/New_York of the session date
// (04:00 or 05:00 UTC), where mds stamps 00:00 UTC of the same date. Both dialects move the stamp
// on the way out and move a window's instant edges on the way in, so a client that pages by the
// last bar's `t`, or converts `t` to a New York date, gets the session the vendor would give.
import { DateTime } from 'luxon';
import type { SymbolEntry } from '../../domain/instrument.ts';
import { DAY_MS, type Timeframe } from '../../domain/timeframes.ts';

const NEW_YORK = 'America/New_York';

/** Whether a symbol's daily bars are stamped at New York midnight in the dialects (US stocks). */
export function stampsNewYork(entry: Pick<SymbolEntry, 'assetClass' | 'market'>): boolean {
  return entry.assetClass === 'stocks' && entry.market === 'US';
}

/** New York midnight of a UTC date start (mds's daily stamp). */
export function newYorkMidnight(utcDayMs: number): number {
  return DateTime.fromISO(new Date(utcDayMs).toISOString().slice(0, 10), { zone: NEW_YORK }).toMillis();
}

/** A bar's `t` as the vendor stamps it. */
export function vendorBarTime(entry: Pick<SymbolEntry, 'assetClass' | 'market'>, tf: Timeframe, t: number): number {
  return tf === '1d' && stampsNewYork(entry) ? newYorkMidnight(t) : t;
}

/** 00:00 UTC of the New York date an instant falls on. */
function utcDayOfNewYorkDate(ms: number): number {
  return Date.parse(`${DateTime.fromMillis(ms, { zone: NEW_YORK }).toISODate()}T00:00:00Z`);
}

/**
 * A vendor window of instants [fromMs, toMs] (both included) over daily bars stamped at New York
 * midnight, as the native window [from, to) over bars stamped at 00:00 UTC: the sessions whose New
 * York midnight lies in the vendor window.
 */
export function nativeDailyWindow(fromMs: number, toMs: number): { fromMs: number; toMs: number } {
  const firstDay = utcDayOfNewYorkDate(fromMs);
  const from = newYorkMidnight(firstDay) >= fromMs ? firstDay : firstDay + DAY_MS;
  return { fromMs: from, toMs: utcDayOfNewYorkDate(toMs) + DAY_MS };
}
