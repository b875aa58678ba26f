// TypeBox schemas of the bond-yield responses (issue 8; the spec leaves their fields to us): one
// observation, a country's curve on one date, and a symbol's daily history paged like the range
// route. Serializers produce exactly these shapes; tests check real responses against them.
import { Type as T, type Static } from '@sinclair/typebox';

const DATE = T.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** One dated official observation: every record carries its date and source. */
export const BondYieldSchema = T.Object(
  {
    symbol: T.String(),
    country: T.String(),
    tenor: T.String(),
    maturity_months: T.Integer(),
    /** Percent. */
    yield: T.Number(),
    date: DATE,
    /** The observation date as Unix ms (00:00 UTC), like a daily bar's `t`. */
    timestamp: T.Integer(),
    source: T.String(),
  },
  { $id: 'BondYield', additionalProperties: false },
);
export type BondYield = Static<typeof BondYieldSchema>;

export const BondCurveSchema = T.Object(
  {
    country: T.String(),
    date: DATE,
    timestamp: T.Integer(),
    count: T.Integer(),
    /** Shortest maturity first. */
    results: T.Array(BondYieldSchema),
  },
  { $id: 'BondCurve', additionalProperties: false },
);

export const BondHistoryPointSchema = T.Object(
  { date: DATE, timestamp: T.Integer(), yield: T.Number(), source: T.String() },
  { $id: 'BondHistoryPoint', additionalProperties: false },
);

export const BondHistorySchema = T.Object(
  {
    symbol: T.String(),
    country: T.String(),
    tenor: T.String(),
    from: DATE,
    to: DATE,
    /** Length of this page. */
    results_count: T.Integer(),
    /** Observations in the whole window. */
    total_count: T.Integer(),
    results: T.Array(BondHistoryPointSchema),
    next_offset: T.Union([T.Integer(), T.Null()]),
  },
  { $id: 'BondHistory', additionalProperties: false },
);
