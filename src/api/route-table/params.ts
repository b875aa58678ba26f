// Path and query parameters of every REST route, as TypeBox schemas with the spec's enums, ranges
// and patterns: the route table and the OpenAPI document read them. Requests are parsed by the
// domain parsers (with the spec's 400 messages); these schemas describe what those parsers accept.
import { ADJUSTMENTS } from '../../domain/adjustment.ts';
import { Type as T, type TObject, type TSchema } from '@sinclair/typebox';
import type { AssetClass } from '../../domain/asset-classes.ts';
import { BOND_COUNTRIES } from '../../domain/bonds.ts';
import { COVERAGE_DEFAULT_TIMEFRAME } from '../../domain/coverage-params.ts';
import { CALENDAR_COUNTRIES, IMPORTANCES } from '../../domain/economic-calendar.ts';
import { CALENDAR_DEFAULT_DAYS, CALENDAR_MAX_DAYS, CALENDAR_PAGE_DEFAULT, CALENDAR_PAGE_MAX } from '../../domain/economic-calendar-params.ts';
import { FUNDAMENTALS_MARKETS } from '../../domain/fundamentals.ts';
import { RANGE_LIMIT_DEFAULT, RANGE_LIMIT_MAX, RANGE_OFFSET_MAX } from '../../domain/range-params.ts';
import { expectedSymbolFormat, MAX_SYMBOL_LENGTH, symbolPattern } from '../../domain/symbols.ts';
import { TIMEFRAME_INFO, TIMEFRAMES } from '../../domain/timeframes.ts';
import { DEFAULT_PAGE_SIZE, MAX_BATCH_SYMBOLS, MAX_PAGE_SIZE } from '../routes/fundamentals.ts';
import { HOLIDAYS_DEFAULT_DAYS, MAX_WINDOW_DAYS, SESSIONS_DEFAULT_DAYS } from '../routes/markets.ts';

/** One of a fixed set of strings: `anyOf` of `const`s, which TypeBox's checker and OpenAPI 3.1 both read. */
function oneOf<V extends string | number>(values: readonly V[], options: { description: string; default?: V }): TSchema {
  return T.Union(values.map((v) => T.Literal(v)), options);
}

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const date = (description: string) => T.String({ pattern: DATE_PATTERN, description });

export function symbolParams(assetClass: AssetClass): TObject {
  return T.Object({
    symbol: T.String({
      pattern: symbolPattern(assetClass),
      maxLength: MAX_SYMBOL_LENGTH,
      description: `${expectedSymbolFormat(assetClass)}; trimmed and uppercased before lookup (the pattern is the canonical form)`,
    }),
  });
}

const MULTIPLIERS = [...new Set(TIMEFRAMES.map((tf) => TIMEFRAME_INFO[tf].multiplier))].sort((a, b) => a - b);
const PAIRS = TIMEFRAMES.map((tf) => `${TIMEFRAME_INFO[tf].multiplier}/${TIMEFRAME_INFO[tf].timespan}`).join(', ');
const SPANS = TIMEFRAMES.map((tf) => `${TIMEFRAME_INFO[tf].maxSpanDays} days for ${TIMEFRAME_INFO[tf].multiplier}/${TIMEFRAME_INFO[tf].timespan}`).join(', ');

export function rangeParams(assetClass: AssetClass): TObject {
  return T.Object({
    ...symbolParams(assetClass).properties,
    multiplier: oneOf(MULTIPLIERS, { description: `bar size in timespans; valid pairs: ${PAIRS}` }),
    timespan: oneOf(['minute', 'hour', 'day'], { description: 'case-insensitive' }),
    from: date('first UTC date, inclusive'),
    to: date(`last UTC date, inclusive; on or after from; the window is at most ${SPANS}`),
  });
}

export const CoverageQuery = T.Object({
  timeframe: T.Optional(oneOf(TIMEFRAMES, { default: COVERAGE_DEFAULT_TIMEFRAME, description: 'the bar size whose slots are classified' })),
  from: T.Optional(date('first UTC date, inclusive; default the to date')),
  to: T.Optional(date(`last UTC date, inclusive; default today; on or after from; the window is at most ${TIMEFRAMES.map((tf) => `${TIMEFRAME_INFO[tf].maxSpanDays} days for ${tf}`).join(', ')}`)),
});

/** The range route's paging, shared by the bond history. */
const paging = {
  limit: T.Optional(T.Integer({ minimum: 1, maximum: RANGE_LIMIT_MAX, default: RANGE_LIMIT_DEFAULT, description: 'page size' })),
  offset: T.Optional(T.Integer({ minimum: 0, maximum: RANGE_OFFSET_MAX, default: 0, description: 'zero-based, applied after sorting; pass the previous next_offset' })),
  sort: T.Optional(oneOf(['asc', 'desc'], { default: 'desc', description: 'order by t (date for bonds) before paging; case-insensitive' })),
};

const adjustment = T.Optional(
  oneOf(ADJUSTMENTS, {
    default: 'raw',
    description: 'split: prices ÷ and volume × the ratio of later splits; dividend: earlier prices × (1 − dividend ÷ previous close), CRSP; all: both. Adjusted answers add adjustment and adjustment_version and carry an ETag. Only stocks have corporate actions',
  }),
);

export const RangeQuery = T.Object({ ...paging, adjustment });

export const PrevQuery = T.Object({
  interval: T.Optional(oneOf(TIMEFRAMES, { description: 'the latest settled bar of this size instead of the last completed UTC daily bar; adds interval, bar_start, bar_end, as_of' })),
  adjustment,
});

export const StockSymbolsQuery = T.Object({
  market: T.Optional(T.String({ pattern: '^[A-Za-z]{2}$', description: 'two-letter market code (case-insensitive); only markets enabled on the account' })),
});

const marketCode = T.String({ pattern: '^\\s*[A-Za-z0-9]{2,12}\\s*$', description: 'market code such as US, DE, CRYPTO, FOREX; trimmed and uppercased' });
export const MarketParams = T.Object({ market: marketCode });

export const AtQuery = T.Object({
  at: T.Optional(T.String({ description: 'ISO 8601 time with Z or an offset, or Unix ms; default now' })),
});

export function windowQuery(defaultDays: number): TObject {
  return T.Object({
    from: T.Optional(date(`first local date, inclusive; default today in the market's time zone (or ${defaultDays} days before to)`)),
    to: T.Optional(date(`last local date, inclusive; default ${defaultDays} days from from; at most ${MAX_WINDOW_DAYS} days`)),
  });
}
export const SessionsQuery = windowQuery(SESSIONS_DEFAULT_DAYS);
export const HolidaysQuery = windowQuery(HOLIDAYS_DEFAULT_DAYS);

export const FundamentalsSymbolParams = T.Object({
  symbol: T.String({ pattern: symbolPattern('stocks'), description: `CC:SYMBOL of a market in ${FUNDAMENTALS_MARKETS.join(', ')}; trimmed and uppercased` }),
});

export const FundamentalsListQuery = T.Object({
  symbols: T.Optional(T.String({ description: `comma-separated CC:SYMBOL, at most ${MAX_BATCH_SYMBOLS}; when present the answer is the batch and market, cursor, limit are ignored` })),
  market: T.Optional(oneOf(FUNDAMENTALS_MARKETS, { default: 'US', description: 'the market to page through (case-insensitive)' })),
  cursor: T.Optional(T.String({ description: 'the next_cursor of the previous page; omit for the first page' })),
  limit: T.Optional(T.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'page size' })),
});

export const BondSymbolParams = T.Object({
  symbol: T.String({ pattern: '^[A-Za-z]{2}:[0-9]{1,2}[MYmy]$', description: 'COUNTRY:TENOR such as US:10Y or US:3M; trimmed and uppercased' }),
});
export const BondCountryParams = T.Object({ country: oneOf(BOND_COUNTRIES, { description: 'country of the curve (case-insensitive)' }) });
export const BondCurveQuery = T.Object({ date: T.Optional(date('observation date; default the latest date with a curve')) });
export const BondHistoryQuery = T.Object({ from: date('first date, inclusive'), to: date('last date, inclusive; on or after from'), ...paging });

export const CalendarQuery = T.Object({
  from: T.Optional(date('first UTC date, inclusive; default today')),
  to: T.Optional(date(`last UTC date, inclusive; default ${CALENDAR_DEFAULT_DAYS} days from from; at most ${CALENDAR_MAX_DAYS} days`)),
  country: T.Optional(T.String({ description: `comma-separated, of ${CALENDAR_COUNTRIES.join(', ')} (EU is the euro area); case-insensitive` })),
  importance: T.Optional(T.String({ description: `comma-separated, of ${IMPORTANCES.join(', ')}; case-insensitive` })),
  limit: T.Optional(T.Integer({ minimum: 1, maximum: CALENDAR_PAGE_MAX, default: CALENDAR_PAGE_DEFAULT, description: 'page size' })),
  cursor: T.Optional(T.String({ description: 'the next_cursor of the previous page, with the same window and filters' })),
});
