// TypeBox schemas of every REST resource (spec: "Resources and their fields"). Serializers
// produce exactly these shapes; tests check real responses against them.
import { Type as T, type Static } from '@sinclair/typebox';

const Num = T.Union([T.Number(), T.Null()]);
const Str = T.Union([T.String(), T.Null()]);
/** Adjusted answers only (`adjustment` other than raw): what was applied, and the version of the actions it applied. */
const AdjustmentField = T.Union([T.Literal('split'), T.Literal('dividend'), T.Literal('all')], { description: 'the adjustment applied (adjusted answers only)' });
const AdjustmentVersionField = T.String({ pattern: '^[0-9a-f]{12}$', description: 'identifies the set of corporate actions applied; changes exactly when that set does (also in the ETag)' });

/** mds addition (not in the spec's tables): whether the line behind the values has lost its last live source. */
export const Stale = T.Boolean({
  description:
    'mds addition: true when no live source stands behind the line now (every venue feeding it went stale, was dropped, or none has quoted within the stale window since the service started); the values are the last ones known. The stream says the same with a `status` frame.',
});

export const QuoteSchema = T.Object(
  { symbol: Str, bid: Num, ask: Num, bid_size: Num, ask_size: Num, timestamp: Num, stale: Stale },
  { $id: 'Quote', additionalProperties: false },
);
export type Quote = Static<typeof QuoteSchema>;

export const LastTradeSchema = T.Object({ symbol: Str, price: Num, size: Num, timestamp: Num }, { $id: 'LastTrade', additionalProperties: false });
export type LastTrade = Static<typeof LastTradeSchema>;

export const SnapshotSchema = T.Object(
  {
    symbol: Str,
    bid: Num,
    ask: Num,
    bid_size: Num,
    ask_size: Num,
    last_price: Num,
    // Present for crypto; for stocks, forex, commodities only when a trade size is known; never for ETFs.
    last_size: T.Optional(Num),
    last_timestamp: Num,
    prev_close: Num,
    change: Num,
    change_percent: Num,
    stale: Stale,
  },
  { $id: 'Snapshot', additionalProperties: false },
);
export type Snapshot = Static<typeof SnapshotSchema>;

// The snapshot per `last_size` rule (spec: Snapshot): crypto always carries it (indices too, null
// when unknown), ETFs never; stocks, forex and commodities only when a trade size is known.
export const SnapshotWithLastSizeSchema = T.Composite([T.Omit(SnapshotSchema, ['last_size']), T.Object({ last_size: Num })], {
  $id: 'SnapshotWithLastSize',
  additionalProperties: false,
});
export const SnapshotWithoutLastSizeSchema = T.Omit(SnapshotSchema, ['last_size'], { $id: 'SnapshotWithoutLastSize', additionalProperties: false });

export const BarSchema = T.Object({ o: Num, h: Num, l: Num, c: Num, v: Num, t: Num }, { $id: 'Bar', additionalProperties: false });

export const PrevBarSchema = T.Object(
  {
    symbol: Str,
    result: BarSchema,
    interval: T.Optional(Str),
    bar_start: T.Optional(Num),
    bar_end: T.Optional(Num),
    as_of: T.Optional(Num),
    adjustment: T.Optional(AdjustmentField),
    adjustment_version: T.Optional(AdjustmentVersionField),
  },
  { $id: 'PrevBar', additionalProperties: false },
);

export const RangeSchema = T.Object(
  {
    symbol: Str,
    results_count: Num,
    total_count: Num,
    results: T.Array(BarSchema),
    next_offset: Num,
    adjustment: T.Optional(AdjustmentField),
    adjustment_version: T.Optional(AdjustmentVersionField),
  },
  { $id: 'Range', additionalProperties: false },
);

export const StockSymbolsSchema = T.Object(
  { symbols: T.Array(T.Object({ symbol: T.String(), base_symbol: T.String(), market: T.String(), name: T.String() }, { additionalProperties: false })) },
  { $id: 'StockSymbols', additionalProperties: false },
);

export const PlainSymbolsSchema = T.Object(
  { symbols: T.Array(T.Object({ symbol: T.String(), name: T.String() }, { additionalProperties: false })) },
  { $id: 'Symbols', additionalProperties: false },
);

export const CryptoSymbolsSchema = T.Object(
  { data: T.Array(T.Object({ symbol: T.String(), name: T.String(), type: T.Literal('crypto') }, { additionalProperties: false })), count: T.Integer() },
  { $id: 'CryptoSymbols', additionalProperties: false },
);

/** Ours (the spec leaves the legacy shape open): every non-stock symbol with its class. */
export const LegacySymbolsSchema = T.Object(
  { symbols: T.Array(T.Object({ symbol: T.String(), name: T.String(), asset: T.String() }, { additionalProperties: false })), count: T.Integer() },
  { $id: 'LegacySymbols', additionalProperties: false },
);

/** Ours (the spec leaves the error body open). */
export const ErrorSchema = T.Object(
  {
    status: T.Integer(),
    error: T.String(),
    request_id: T.String(),
    // Ours: an unknown or malformed symbol's 404/400 adds the known symbols it was probably meant to be.
    did_you_mean: T.Optional(T.Array(T.String(), { description: 'known symbols close to the one asked for (case, separators, market prefix, typos); present only when there is one' })),
  },
  { $id: 'Error', additionalProperties: false },
);

// Market hours and holidays (ours: the spec states the product and that status times are ISO
// 8601 UTC strings, but not the fields). Times are whole seconds, `YYYY-MM-DDTHH:MM:SSZ`.
const IsoTime = T.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}Z$' });
const IsoTimeOrNull = T.Union([IsoTime, T.Null()]);
const CivilDate = T.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });
/**
 * Ours, beyond the spec: the version of the market's calendar that made the answer, the newest
 * dated rule or event, a digest of the market's dated data and the build (`2026-12-25.3f9a2c1b+1.0.0-dev`).
 * It changes when the calendar data changes, so a client caching sessions knows to refresh.
 */
const CalendarVersion = T.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}\\.[0-9a-f]{8}\\+\\S+$' });

export const MarketSchema = T.Object(
  {
    market: T.String(),
    name: T.String(),
    mic: Str,
    country: Str,
    timezone: T.String(),
    type: T.Union([T.Literal('stocks'), T.Literal('crypto'), T.Literal('forex'), T.Literal('commodities'), T.Literal('indices'), T.Literal('etfs'), T.Literal('overnight')]),
    calendar_version: CalendarVersion,
  },
  { $id: 'Market', additionalProperties: false },
);

export const MarketListSchema = T.Object({ markets: T.Array(MarketSchema) }, { $id: 'MarketList', additionalProperties: false });

export const MarketStatusSchema = T.Object(
  {
    market: T.String(),
    is_open: T.Boolean(),
    status: T.Union([T.Literal('open'), T.Literal('closed'), T.Literal('break'), T.Literal('early_close')]),
    session_open: IsoTimeOrNull,
    session_close: IsoTimeOrNull,
    next_open: IsoTimeOrNull,
    next_close: IsoTimeOrNull,
    as_of: IsoTime,
    calendar_version: CalendarVersion,
  },
  { $id: 'MarketStatus', additionalProperties: false },
);

export const MarketStatusListSchema = T.Object(
  { as_of: IsoTime, markets: T.Array(MarketStatusSchema) },
  { $id: 'MarketStatusList', additionalProperties: false },
);

export const SessionSchema = T.Object(
  { date: CivilDate, open: IsoTime, close: IsoTime, break_start: IsoTimeOrNull, break_end: IsoTimeOrNull, early_close: T.Boolean() },
  { $id: 'Session', additionalProperties: false },
);

export const SessionListSchema = T.Object(
  { market: T.String(), sessions: T.Array(SessionSchema), calendar_version: CalendarVersion },
  { $id: 'SessionList', additionalProperties: false },
);

export const HolidaySchema = T.Object(
  // `close` is the early close time; null on full closures. `source` (ours): the exchange notice or
  // report the entry follows, null where none is recorded (days from holiday rules).
  { date: CivilDate, name: T.String(), status: T.Union([T.Literal('closed'), T.Literal('early_close')]), close: IsoTimeOrNull, source: Str },
  { $id: 'Holiday', additionalProperties: false },
);

export const HolidayListSchema = T.Object(
  { market: T.String(), holidays: T.Array(HolidaySchema), calendar_version: CalendarVersion },
  { $id: 'HolidayList', additionalProperties: false },
);
