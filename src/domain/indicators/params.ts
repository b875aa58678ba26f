// The indicator routes' parameters: which indicator and windows, which price of the bar, and (for
// the native route) the bar size, window of dates and paging of the range route. Each 400 says
// what was wrong and what is allowed. The windows' parsing is shared with the Massive dialect.
import { badRequest } from '../errors.ts';
import { parseDateWindow, parseTimeframe, RANGE_LIMIT_DEFAULT, RANGE_LIMIT_MAX, RANGE_OFFSET_MAX } from '../range-params.ts';
import { quoteInput } from '../symbols.ts';
import { DAY_MS, TIMEFRAME_INFO, type Timeframe } from '../timeframes.ts';
import { INDICATORS, isIndicator, type IndicatorName, type IndicatorSpec } from './compute.ts';

/** The largest window of any indicator: its warm-up (10 windows) stays a few chunks of bars. */
export const INDICATOR_WINDOW_MAX = 500;

/** Defaults of the windows (the vendor's: 50 for SMA and EMA, 14 for RSI, 12/26/9 for MACD). */
export const DEFAULT_WINDOW: Record<'sma' | 'ema' | 'rsi', number> = { sma: 50, ema: 50, rsi: 14 };
export const MACD_DEFAULTS = { shortWindow: 12, longWindow: 26, signalWindow: 9 } as const;

export const SERIES_TYPES = ['close', 'open', 'high', 'low'] as const;
export type SeriesType = (typeof SERIES_TYPES)[number];

export interface WindowQuery {
  window?: string;
  short_window?: string;
  long_window?: string;
  signal_window?: string;
}

export function parseIndicatorName(raw: string): IndicatorName {
  const name = raw.toLowerCase();
  if (!isIndicator(name)) throw badRequest(`unknown indicator ${quoteInput(raw)}: allowed values are ${INDICATORS.join(', ')}`);
  return name;
}

function parseWindow(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw === '') return fallback;
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= INDICATOR_WINDOW_MAX)) throw badRequest(`invalid ${name} ${quoteInput(raw)}: expected an integer from 1 to ${INDICATOR_WINDOW_MAX}`);
  return n;
}

/**
 * The windows of `name`. With `strict` (the native route) a window of the other kind is a 400,
 * so `window` on MACD is not silently ignored; the vendor dialect ignores it as the vendor does.
 */
export function parseIndicatorSpec(name: IndicatorName, q: WindowQuery, strict: boolean): IndicatorSpec {
  if (name === 'macd') {
    if (strict && q.window !== undefined) throw badRequest('invalid parameter window for macd: use short_window, long_window and signal_window');
    const shortWindow = parseWindow('short_window', q.short_window, MACD_DEFAULTS.shortWindow);
    const longWindow = parseWindow('long_window', q.long_window, MACD_DEFAULTS.longWindow);
    const signalWindow = parseWindow('signal_window', q.signal_window, MACD_DEFAULTS.signalWindow);
    if (shortWindow >= longWindow) throw badRequest(`invalid windows: short_window (${shortWindow}) must be less than long_window (${longWindow})`);
    return { kind: 'macd', shortWindow, longWindow, signalWindow };
  }
  if (strict) {
    for (const other of ['short_window', 'long_window', 'signal_window'] as const) {
      if (q[other] !== undefined) throw badRequest(`invalid parameter ${other} for ${name}: only macd takes it; ${name} takes window`);
    }
  }
  return { kind: name, window: parseWindow('window', q.window, DEFAULT_WINDOW[name]) };
}

export function parseSeriesType(raw: string | undefined): SeriesType {
  if (raw === undefined || raw === '') return 'close';
  const s = raw.toLowerCase();
  if (!(SERIES_TYPES as readonly string[]).includes(s)) throw badRequest(`invalid series_type ${quoteInput(raw)}: allowed values are ${SERIES_TYPES.join(', ')}`);
  return s as SeriesType;
}

/** What the native route computes and which page of it it answers. */
export interface IndicatorParams {
  spec: IndicatorSpec;
  series: SeriesType;
  tf: Timeframe;
  fromMs: number;
  /** Exclusive: the end of the `to` date. */
  toMs: number;
  limit: number;
  offset: number;
  sort: 'asc' | 'desc';
}

export interface IndicatorQuery extends WindowQuery {
  timespan?: string;
  multiplier?: string;
  series_type?: string;
  from?: string;
  to?: string;
  limit?: string;
  offset?: string;
  sort?: string;
}

function parseInteger(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < min || Number(raw) > max) throw badRequest(`invalid ${name} ${quoteInput(raw)}: expected an integer from ${min} to ${max}`);
  return Number(raw);
}

/**
 * The native route's query. `timespan` (default day) and `multiplier` (default 1) name a bar size
 * as the range route does; `to` defaults to today (UTC) and `from` to the earliest date the bar
 * size's maximum span allows; limit, offset and sort (default desc) page as on the range route.
 */
export function parseIndicatorParams(nameRaw: string, q: IndicatorQuery, nowMs: number): IndicatorParams {
  const name = parseIndicatorName(nameRaw);
  const spec = parseIndicatorSpec(name, q, true);
  const series = parseSeriesType(q.series_type);
  const tf = parseTimeframe(q.multiplier ?? '1', q.timespan ?? 'day');
  const to = q.to ?? new Date(nowMs).toISOString().slice(0, 10);
  const from = q.from ?? defaultFrom(tf, to);
  const { fromMs, toMs } = parseDateWindow(tf, from, to);
  const limit = parseInteger('limit', q.limit, RANGE_LIMIT_DEFAULT, 1, RANGE_LIMIT_MAX);
  const offset = parseInteger('offset', q.offset, 0, 0, RANGE_OFFSET_MAX);
  const sortRaw = q.sort ?? 'desc';
  const sort = sortRaw.toLowerCase();
  if (sort !== 'asc' && sort !== 'desc') throw badRequest(`invalid sort ${quoteInput(sortRaw)}: allowed values are asc, desc`);
  return { spec, series, tf, fromMs, toMs, limit, offset, sort };
}

/** The earliest `from` the maximum span allows before `to` (a bad `to` is left to parseDateWindow). */
function defaultFrom(tf: Timeframe, to: string): string {
  const toMs = Date.parse(`${to}T00:00:00Z`);
  if (Number.isNaN(toMs)) return to;
  return new Date(Math.max(0, toMs - (TIMEFRAME_INFO[tf].maxSpanDays - 1) * DAY_MS)).toISOString().slice(0, 10);
}
