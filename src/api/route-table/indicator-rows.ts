// The indicator routes' rows: the native `/{class}/indicators/{indicator}/{symbol}` of every asset
// class, and the Massive dialect's `/v1/indicators/{sma|ema|rsi|macd}/{ticker}`.
import { Type as T, type TSchema } from '@sinclair/typebox';
import { ASSET_CLASSES } from '../../domain/asset-classes.ts';
import { INDICATORS, WARMUP_WINDOWS } from '../../domain/indicators/compute.ts';
import { DEFAULT_WINDOW, INDICATOR_WINDOW_MAX, MACD_DEFAULTS, SERIES_TYPES } from '../../domain/indicators/params.ts';
import { IndicatorSchema } from '../../domain/indicators/schema.ts';
import { RANGE_LIMIT_DEFAULT, RANGE_LIMIT_MAX, RANGE_OFFSET_MAX } from '../../domain/range-params.ts';
import { TIMEFRAME_INFO, TIMEFRAMES } from '../../domain/timeframes.ts';
import { MassiveIndicatorSchema, MassiveMacdSchema } from '../compat/massive/indicator-schemas.ts';
import { MassiveErrorSchema } from '../compat/massive/schemas.ts';
import { CLASS_EXAMPLES } from './class-rows.ts';
import { symbolParams } from './params.ts';
import { KEYED, statuses, type RouteRow } from './row.ts';

const oneOf = <V extends string | number>(values: readonly V[], options: { description: string; default?: V }): TSchema => T.Union(values.map((v) => T.Literal(v)), options);
const windowOf = (description: string, fallback?: number) =>
  T.Optional(T.Integer({ minimum: 1, maximum: INDICATOR_WINDOW_MAX, ...(fallback === undefined ? {} : { default: fallback }), description }));
const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const PAIRS = TIMEFRAMES.map((tf) => `${TIMEFRAME_INFO[tf].multiplier}/${TIMEFRAME_INFO[tf].timespan}`).join(', ');
const MULTIPLIERS = [...new Set(TIMEFRAMES.map((tf) => TIMEFRAME_INFO[tf].multiplier))].sort((a, b) => a - b);

const NativeQuery = T.Object({
  timespan: T.Optional(oneOf(['minute', 'hour', 'day'], { default: 'day', description: 'bar size, with multiplier as on the range route' })),
  multiplier: T.Optional(oneOf(MULTIPLIERS, { default: 1, description: `valid pairs: ${PAIRS}` })),
  window: windowOf(`sma, ema, rsi: bars per window (default sma ${DEFAULT_WINDOW.sma}, ema ${DEFAULT_WINDOW.ema}, rsi ${DEFAULT_WINDOW.rsi}); a 400 on macd`),
  short_window: windowOf(`macd: the fast EMA (default ${MACD_DEFAULTS.shortWindow}); less than long_window`),
  long_window: windowOf(`macd: the slow EMA (default ${MACD_DEFAULTS.longWindow})`),
  signal_window: windowOf(`macd: the signal line's EMA of the MACD line (default ${MACD_DEFAULTS.signalWindow})`),
  series_type: T.Optional(oneOf(SERIES_TYPES, { default: 'close', description: 'the bar price the indicator is computed over' })),
  from: T.Optional(T.String({ pattern: DATE_PATTERN, description: "first UTC date, inclusive; default the earliest the bar size's maximum span allows" })),
  to: T.Optional(T.String({ pattern: DATE_PATTERN, description: 'last UTC date, inclusive; default today; the window spans at most the range route maximum' })),
  limit: T.Optional(T.Integer({ minimum: 1, maximum: RANGE_LIMIT_MAX, default: RANGE_LIMIT_DEFAULT, description: 'page size' })),
  offset: T.Optional(T.Integer({ minimum: 0, maximum: RANGE_OFFSET_MAX, default: 0, description: 'zero-based, applied after sorting; pass the previous next_offset' })),
  sort: T.Optional(oneOf(['asc', 'desc'], { default: 'desc', description: 'order by t before paging' })),
});

const nativeRows: RouteRow[] = ASSET_CLASSES.map((assetClass) => {
  const ex = CLASS_EXAMPLES[assetClass];
  const prefix = `/${assetClass}/indicators`;
  return {
    method: 'GET',
    path: `${prefix}/:indicator/:symbol`,
    operationId: `get${ex.name}Indicator`,
    summary: `${INDICATORS.join(', ')} over ${assetClass} bars of a window, paged like the range route; ${WARMUP_WINDOWS} windows of earlier bars warm EMA, RSI and MACD up`,
    tag: assetClass,
    params: T.Object({ indicator: oneOf(INDICATORS, { description: 'the indicator' }), ...symbolParams(assetClass).properties }),
    query: NativeQuery,
    response: IndicatorSchema,
    errors: statuses(KEYED, [403, 404, 503]),
    examples: [`${prefix}/sma/${ex.symbol}?timespan=hour&window=5&from=2026-03-03&to=2026-03-04&limit=5`, `${prefix}/macd/${ex.symbol}?timespan=minute&multiplier=15&from=2026-03-03&to=2026-03-04`],
    errorExample: { path: `${prefix}/wma/${ex.symbol}`, status: 400 },
  };
});

const str = (description: string) => T.Optional(T.String({ description }));
const massiveQuery = (windows: Record<string, ReturnType<typeof str>>) =>
  T.Object({
    timestamp: str('a date YYYY-MM-DD (that UTC day) or Unix ms (that bar)'),
    'timestamp.gte': str('date or Unix ms'),
    'timestamp.gt': str('date or Unix ms'),
    'timestamp.lte': str('date or Unix ms'),
    'timestamp.lt': str('date or Unix ms'),
    timespan: str('minute, hour or day (default day)'),
    adjusted: str('true or false; accepted (mds bars carry no split adjustments)'),
    ...windows,
    series_type: str('close (default), open, high or low'),
    expand_underlying: str('true: results.underlying.aggregates holds the bars of the values'),
    order: str('desc (default) or asc, by timestamp'),
    limit: str('values per page, 1 to 5000 (default 10)'),
    cursor: str('from next_url'),
    apiKey: str('the mds API key'),
  });

const TICKER = T.Object({ ticker: T.String({ description: 'vendor ticker: AAPL (US stock), X:BTCUSD (crypto), C:EURUSD (forex), I:SPX (index)' }) });

const massiveRows: RouteRow[] = INDICATORS.map((name) => {
  const isMacd = name === 'macd';
  const windows: Record<string, ReturnType<typeof str>> = isMacd
    ? { short_window: str('default 12'), long_window: str('default 26'), signal_window: str('default 9') }
    : { window: str(`default ${DEFAULT_WINDOW[name as 'sma' | 'ema' | 'rsi']}`) };
  return {
    method: 'GET',
    path: `/compat/massive/v1/indicators/${name}/:ticker`,
    operationId: `massive${name.toUpperCase()}`,
    summary: `${name.toUpperCase()} of a ticker's bars (the native indicator), newest first by default, paged by next_url`,
    tag: 'Massive compatibility',
    params: TICKER,
    query: massiveQuery(windows),
    response: isMacd ? MassiveMacdSchema : MassiveIndicatorSchema,
    errors: statuses([400, 401, 403, 404, 429]),
    errorSchema: MassiveErrorSchema,
    examples: [`/compat/massive/v1/indicators/${name}/AAPL?timespan=hour&timestamp.gte=2026-03-03`, `/compat/massive/v1/indicators/${name}/X:BTCUSD?timespan=minute&limit=3&expand_underlying=true`],
    errorExample: { path: `/compat/massive/v1/indicators/${name}/AAPL?timespan=week`, status: 400 },
  };
});

export const indicatorRows: RouteRow[] = [...nativeRows, ...massiveRows];
