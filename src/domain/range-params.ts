// The range route's parameters (spec: "Range route parameters" and "Limits"): parsed and checked
// here, with 400 messages that say what was wrong and what is allowed.
import { badRequest } from './errors.ts';
import { quoteInput } from './symbols.ts';
import { DAY_MS, TIMEFRAME_INFO, timeframeOf, VALID_PAIRS_TEXT, type Timeframe } from './timeframes.ts';

export const RANGE_LIMIT_DEFAULT = 500;
export const RANGE_LIMIT_MAX = 5000;
/** Offsets beyond any window's bar count are pointless; bounded to keep arithmetic exact. */
export const RANGE_OFFSET_MAX = 1_000_000_000;

export interface RangeParams {
  tf: Timeframe;
  fromMs: number;
  /** Exclusive: the end of the `to` date. */
  toMs: number;
  limit: number;
  offset: number;
  sort: 'asc' | 'desc';
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** `YYYY-MM-DD` → UTC midnight in ms; throws a 400 naming the parameter otherwise. */
export function parseDate(name: string, raw: string): number {
  const m = DATE.exec(raw);
  const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN;
  if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== raw || Number(m[1]) < 1970) {
    throw badRequest(`invalid ${name} date ${quoteInput(raw)}: expected a calendar date YYYY-MM-DD from 1970 on`);
  }
  return ms;
}

function parseInteger(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw badRequest(`invalid ${name} ${quoteInput(raw)}: expected an integer from ${min} to ${max}`);
  }
  return Number(raw);
}

export function parseTimeframe(multiplierRaw: string, timespanRaw: string): Timeframe {
  const timespan = timespanRaw.toLowerCase();
  if (timespan !== 'minute' && timespan !== 'hour' && timespan !== 'day') {
    throw badRequest(`invalid timespan ${quoteInput(timespanRaw)}: allowed values are minute, hour, day`);
  }
  const multiplier = /^\d{1,3}$/.test(multiplierRaw) ? Number(multiplierRaw) : NaN;
  const tf = Number.isNaN(multiplier) ? undefined : timeframeOf(multiplier, timespan);
  if (!tf) {
    throw badRequest(`unsupported multiplier/timespan pair ${quoteInput(multiplierRaw).slice(1, -1)}/${timespan}: valid combinations are ${VALID_PAIRS_TEXT}`);
  }
  return tf;
}

/**
 * Two inclusive UTC dates → [fromMs, toMs) with toMs the end of `to`; 400 when `to` is before
 * `from` or the window is longer than the timeframe's maximum span (spec: Limits).
 */
export function parseDateWindow(tf: Timeframe, fromRaw: string, toRaw: string): { fromMs: number; toMs: number } {
  const fromMs = parseDate('from', fromRaw);
  const toDayMs = parseDate('to', toRaw);
  if (toDayMs < fromMs) throw badRequest(`invalid window: to (${toRaw}) must be on or after from (${fromRaw})`);
  const spanDays = (toDayMs - fromMs) / DAY_MS + 1;
  const info = TIMEFRAME_INFO[tf];
  if (spanDays > info.maxSpanDays) {
    throw badRequest(`window of ${spanDays} days exceeds the maximum span of ${info.maxSpanDays} days for ${info.multiplier} ${info.timespan} bars`);
  }
  return { fromMs, toMs: toDayMs + DAY_MS };
}

export function parseRangeParams(
  path: { multiplier: string; timespan: string; from: string; to: string },
  query: { limit?: string; offset?: string; sort?: string },
): RangeParams {
  const tf = parseTimeframe(path.multiplier, path.timespan);
  const { fromMs, toMs } = parseDateWindow(tf, path.from, path.to);
  const limit = parseInteger('limit', query.limit, RANGE_LIMIT_DEFAULT, 1, RANGE_LIMIT_MAX);
  const offset = parseInteger('offset', query.offset, 0, 0, RANGE_OFFSET_MAX);
  const sortRaw = query.sort ?? 'desc';
  const sort = sortRaw.toLowerCase();
  if (sort !== 'asc' && sort !== 'desc') throw badRequest(`invalid sort ${quoteInput(sortRaw)}: allowed values are asc, desc`);
  return { tf, fromMs, toMs, limit, offset, sort };
}
