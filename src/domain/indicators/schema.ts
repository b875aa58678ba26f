// The native indicator route's body (docs/rest.md: Indicators): the values of one page, the
// parameters they were computed with, and how many bars the warm-up read and the window left out.
import { Type as T } from '@sinclair/typebox';

const Int = T.Integer();

export const IndicatorValueSchema = T.Object(
  {
    t: T.Integer({ description: 'start of the bar the value is computed at (Unix ms), as the range route stamps it' }),
    value: T.Number({ description: 'the indicator (for MACD the MACD line)' }),
    signal: T.Optional(T.Number({ description: 'MACD only: the signal line' })),
    histogram: T.Optional(T.Number({ description: 'MACD only: MACD line − signal' })),
  },
  { $id: 'IndicatorValue', additionalProperties: false },
);

export const IndicatorSchema = T.Object(
  {
    symbol: T.String(),
    indicator: T.Union([T.Literal('sma'), T.Literal('ema'), T.Literal('rsi'), T.Literal('macd')]),
    multiplier: Int,
    timespan: T.Union([T.Literal('minute'), T.Literal('hour'), T.Literal('day')]),
    series_type: T.Union([T.Literal('close'), T.Literal('open'), T.Literal('high'), T.Literal('low')]),
    window: T.Optional(Int),
    short_window: T.Optional(Int),
    long_window: T.Optional(Int),
    signal_window: T.Optional(Int),
    warmup_count: T.Integer({ description: 'bars read before `from` to warm the indicator up (fewer than the rule asks when the history is shorter)' }),
    skipped_count: T.Integer({ description: 'bars of the window with no value: too few bars precede them for a full window' }),
    results_count: Int,
    total_count: T.Integer({ description: 'values in the window (its bars less skipped_count)' }),
    results: T.Array(IndicatorValueSchema),
    next_offset: T.Union([Int, T.Null()]),
  },
  { $id: 'Indicator', additionalProperties: false },
);
