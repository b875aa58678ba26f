// The REST dialects' side of the vendors' US stock daily stamp (00:00 New York of the session date,
// src/market/us-daily-stamp.ts): both dialects move the stamp on the way out and move a window's
// instant edges on the way in, so a client that pages by the last bar's `t`, or converts `t` to a
// New York date, gets the session the vendor would give.
import { DAY_MS } from '../../domain/timeframes.ts';
import { localDateOf, newYorkMidnight } from '../../market/index.ts';

const NEW_YORK = 'America/New_York';

/** 00:00 UTC of the New York date an instant falls on. */
function utcDayOfNewYorkDate(ms: number): number {
  return Date.parse(`${localDateOf(ms, NEW_YORK)}T00:00:00Z`);
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
