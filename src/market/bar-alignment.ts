// Where bars of a symbol start and end. Most series align to UTC multiples of the bar size; US
// stock sub-daily bars cover only the regular session, with hourly and 4-hour bars anchored at
// the 09:30 open and the last bar cut at the close (spec: Range route parameters); overnight lines
// likewise inside the overnight session.
import type { SymbolEntry } from '../domain/instrument.ts';
import { bucketStart } from '../domain/bar.ts';
import { DAY_MS, TIMEFRAME_INFO, type Timeframe } from '../domain/timeframes.ts';
import { sessionAt } from './session-query.ts';

export interface BarAlignment {
  /** False when a price at this instant must not enter sub-daily bars (outside the session). */
  accepts(tsMs: number): boolean;
  /** Start of the bar of `tf` that contains `tsMs`. */
  barStart(tsMs: number, tf: Timeframe): number;
  /** End (exclusive) of the bar of `tf` that starts at `barStartMs`. */
  barEnd(barStartMs: number, tf: Timeframe): number;
}

const utcAlignment: BarAlignment = {
  accepts: () => true,
  barStart: (tsMs, tf) => bucketStart(tsMs, tf),
  barEnd: (barStartMs, tf) => barStartMs + TIMEFRAME_INFO[tf].durationMs,
};

/** Sub-daily bars inside one market's sessions, anchored at the session open and cut at its close. */
function sessionAlignment(code: string): BarAlignment {
  return {
    accepts: (tsMs) => sessionAt(code, tsMs) !== null,
    barStart(tsMs, tf) {
      if (tf === '1d') return bucketStart(tsMs, tf);
      const session = sessionAt(code, tsMs);
      return bucketStart(tsMs, tf, session ? session.openMs : 0);
    },
    barEnd(barStartMs, tf) {
      if (tf === '1d') return barStartMs + DAY_MS;
      const end = barStartMs + TIMEFRAME_INFO[tf].durationMs;
      const session = sessionAt(code, barStartMs);
      return session ? Math.min(end, session.closeMs) : end;
    },
  };
}

const usRegularSessionAlignment = sessionAlignment('US');
// Overnight lines: hourly bars from 20:00 New York, 4-hour bars at 20:00 and 00:00; a session lies
// within one UTC date (00:00-08:00 UTC in summer, 01:00-09:00 in winter), so its daily bar is the
// UTC date of the morning it ends on.
const overnightAlignment = sessionAlignment('OVERNIGHT');

export function alignmentFor(entry: Pick<SymbolEntry, 'assetClass' | 'market'>): BarAlignment {
  if (entry.assetClass === 'overnight') return overnightAlignment;
  return entry.assetClass === 'stocks' && entry.market === 'US' ? usRegularSessionAlignment : utcAlignment;
}
