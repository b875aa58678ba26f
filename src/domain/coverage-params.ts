// The coverage report's parameters: a timeframe of the store's and a window of UTC dates in the
// range route's format, under the range route's maximum spans (which bound the slots classified:
// at most 44,640, a month of 1-minute slots around the clock).
import { badRequest } from './errors.ts';
import { parseDateWindow } from './range-params.ts';
import { quoteInput } from './symbols.ts';
import { isTimeframe, TIMEFRAMES, type Timeframe } from './timeframes.ts';

export const COVERAGE_DEFAULT_TIMEFRAME: Timeframe = '1m';

export interface CoverageParams {
  tf: Timeframe;
  fromMs: number;
  /** Exclusive: the end of the `to` date. */
  toMs: number;
}

export interface CoverageQuery {
  timeframe?: string;
  from?: string;
  to?: string;
}

/** `timeframe` (default 1m), `from` and `to` (default: `to` today, `from` the same day as `to`). */
export function parseCoverageParams(query: CoverageQuery, nowMs: number): CoverageParams {
  const raw = query.timeframe ?? COVERAGE_DEFAULT_TIMEFRAME;
  if (!isTimeframe(raw)) throw badRequest(`invalid timeframe ${quoteInput(raw)}: allowed values are ${TIMEFRAMES.join(', ')}`);
  const to = query.to ?? new Date(nowMs).toISOString().slice(0, 10);
  const from = query.from ?? to;
  return { tf: raw, ...parseDateWindow(raw, from, to) };
}
