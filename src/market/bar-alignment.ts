// Where bars of a symbol start and end. Most series align to UTC multiples of the bar size; US
// stock sub-daily bars cover only the regular session, with hourly and 4-hour bars anchored at
// the 09:30 open and the last bar cut at the close (spec: Range route parameters); overnight lines
// likewise inside the overnight session, and their daily bar is one whole session.
import type { SymbolEntry } from '../domain/instrument.ts';
import { bucketStart } from '../domain/bar.ts';
import { DAY_MS, TIMEFRAME_INFO, type Timeframe } from '../domain/timeframes.ts';
import { nextCloseAfter, nextOpenAfter, sessionAt, sessionsBetween } from './session-query.ts';

export interface BarAlignment {
  /** False when a price at this instant must not enter sub-daily bars (outside the session). */
  accepts(tsMs: number): boolean;
  /** Start of the bar of `tf` that contains `tsMs`. */
  barStart(tsMs: number, tf: Timeframe): number;
  /** End (exclusive) of the bar of `tf` that starts at `barStartMs`. */
  barEnd(barStartMs: number, tf: Timeframe): number;
  /** The first end of a bar of `tf` strictly after `tsMs`: when the last completed bar next changes. */
  nextBarEndAfter(tsMs: number, tf: Timeframe): number;
}

const utcBarEnd = (barStartMs: number, tf: Timeframe) => barStartMs + TIMEFRAME_INFO[tf].durationMs;

const utcAlignment: BarAlignment = {
  accepts: () => true,
  barStart: (tsMs, tf) => bucketStart(tsMs, tf),
  barEnd: utcBarEnd,
  nextBarEndAfter: (tsMs, tf) => utcBarEnd(bucketStart(tsMs, tf), tf),
};

/**
 * Sub-daily bars inside one market's sessions, anchored at the session open and cut at its close.
 * With `dailyIsSession` the daily bar (still the UTC date, a session lying within one) ends at the
 * session's close rather than at midnight: it is complete once the session is, and prev, its
 * cache headers and the snapshot's prev_close move then, not hours later at midnight.
 */
function sessionAlignment(code: string, dailyIsSession: boolean): BarAlignment {
  // The bar builder asks for the same day's end on every sweep: keep the last answer.
  let memoStartMs = NaN;
  let memoEndMs = NaN;
  const dailyEnd = (barStartMs: number): number => {
    if (!dailyIsSession) return barStartMs + DAY_MS;
    if (barStartMs !== memoStartMs) {
      const date = new Date(barStartMs).toISOString().slice(0, 10);
      memoEndMs = sessionsBetween(code, date, date)[0]?.closeMs ?? barStartMs + DAY_MS;
      memoStartMs = barStartMs;
    }
    return memoEndMs;
  };
  const barEnd = (barStartMs: number, tf: Timeframe): number => {
    if (tf === '1d') return dailyEnd(barStartMs);
    const end = utcBarEnd(barStartMs, tf);
    const session = sessionAt(code, barStartMs);
    return session ? Math.min(end, session.closeMs) : end;
  };
  const barStart = (tsMs: number, tf: Timeframe): number => {
    if (tf === '1d') return bucketStart(tsMs, tf);
    const session = sessionAt(code, tsMs);
    return bucketStart(tsMs, tf, session ? session.openMs : 0);
  };
  return {
    accepts: (tsMs) => sessionAt(code, tsMs) !== null,
    barStart,
    barEnd,
    nextBarEndAfter(tsMs, tf) {
      if (tf === '1d') {
        if (!dailyIsSession) return utcBarEnd(bucketStart(tsMs, tf), tf);
        // The close of the session in progress, or of the next one (none on nights into holidays).
        return nextCloseAfter(code, tsMs) ?? utcBarEnd(bucketStart(tsMs, tf), tf);
      }
      if (sessionAt(code, tsMs)) return barEnd(barStart(tsMs, tf), tf);
      // Between sessions no bar ends until the next session's first one.
      const open = nextOpenAfter(code, tsMs);
      return open === null ? utcBarEnd(bucketStart(tsMs, tf), tf) : barEnd(open, tf);
    },
  };
}

const usRegularSessionAlignment = sessionAlignment('US', false);
// Overnight lines: hourly bars from 20:00 New York, 4-hour bars at 20:00 and 00:00; a session lies
// within one UTC date (00:00-08:00 UTC in summer, 01:00-09:00 in winter), so its daily bar is the
// UTC date of the morning it ends on, and it ends at the session's close.
const overnightAlignment = sessionAlignment('OVERNIGHT', true);

export function alignmentFor(entry: Pick<SymbolEntry, 'assetClass' | 'market'>): BarAlignment {
  if (entry.assetClass === 'overnight') return overnightAlignment;
  return entry.assetClass === 'stocks' && entry.market === 'US' ? usRegularSessionAlignment : utcAlignment;
}
