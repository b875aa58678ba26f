// The bar sizes the service precomputes, and the range route's multiplier/timespan grammar
// (spec: "Range route parameters", "Limits": maximum calendar span per interval).

export const TIMEFRAMES = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];

export const MINUTE_MS = 60_000;
export const HOUR_MS = 60 * MINUTE_MS;
export const DAY_MS = 24 * HOUR_MS;

export interface TimeframeInfo {
  id: Timeframe;
  /** Small integer used in storage keys. */
  index: number;
  durationMs: number;
  multiplier: number;
  timespan: 'minute' | 'hour' | 'day';
  /** Longest window of calendar days a range request may span. */
  maxSpanDays: number;
}

export const TIMEFRAME_INFO: Record<Timeframe, TimeframeInfo> = {
  '1m': { id: '1m', index: 0, durationMs: MINUTE_MS, multiplier: 1, timespan: 'minute', maxSpanDays: 31 },
  '5m': { id: '5m', index: 1, durationMs: 5 * MINUTE_MS, multiplier: 5, timespan: 'minute', maxSpanDays: 90 },
  '15m': { id: '15m', index: 2, durationMs: 15 * MINUTE_MS, multiplier: 15, timespan: 'minute', maxSpanDays: 180 },
  '1h': { id: '1h', index: 3, durationMs: HOUR_MS, multiplier: 1, timespan: 'hour', maxSpanDays: 365 },
  '4h': { id: '4h', index: 4, durationMs: 4 * HOUR_MS, multiplier: 4, timespan: 'hour', maxSpanDays: 730 },
  '1d': { id: '1d', index: 5, durationMs: DAY_MS, multiplier: 1, timespan: 'day', maxSpanDays: 5000 },
};

export const TIMEFRAME_BY_INDEX: readonly TimeframeInfo[] = TIMEFRAMES.map((id) => TIMEFRAME_INFO[id]);

export function isTimeframe(value: string): value is Timeframe {
  return (TIMEFRAMES as readonly string[]).includes(value);
}

/** `1/minute` → '1m'; undefined for a pair the spec does not allow. */
export function timeframeOf(multiplier: number, timespan: string): Timeframe | undefined {
  for (const tf of TIMEFRAMES) {
    const info = TIMEFRAME_INFO[tf];
    if (info.multiplier === multiplier && info.timespan === timespan) return tf;
  }
  return undefined;
}

export const VALID_PAIRS_TEXT = TIMEFRAMES.map((tf) => `${TIMEFRAME_INFO[tf].multiplier}/${TIMEFRAME_INFO[tf].timespan}`).join(', ');
