// The coverage report as served (`GET /coverage/{class}/{symbol}`): which bar slots of a window
// inside the market's sessions hold a bar, which are quiet and which are gaps, as merged ranges.
import { Type as T, type Static } from '@sinclair/typebox';
import { ASSET_CLASSES } from './asset-classes.ts';
import { TIMEFRAMES } from './timeframes.ts';

const ms = (description: string) => T.Integer({ description });
const count = (description: string) => T.Integer({ minimum: 0, description });

export const CoverageRangeSchema = T.Object(
  {
    from: ms('start of the first slot, Unix ms'),
    to: ms('end (exclusive) of the last slot, Unix ms'),
    kind: T.Union([T.Literal('bars'), T.Literal('quiet'), T.Literal('gap'), T.Literal('pending')], {
      description:
        'bars: every slot has a bar; quiet: no bar while a feed was live (nothing traded); gap: no bar and no live feed (feed down, import hole, downtime); pending: no bar yet in time the history build running in the background has not reached (see /health history)',
    }),
    count: count('slots in the range'),
  },
  { $id: 'CoverageRange', additionalProperties: false },
);

export const CoverageSchema = T.Object(
  {
    symbol: T.String(),
    class: T.Union(ASSET_CLASSES.map((c) => T.Literal(c))),
    timeframe: T.Union(TIMEFRAMES.map((tf) => T.Literal(tf))),
    from: ms('start of the from date, Unix ms'),
    to: ms('end (exclusive) of the to date, Unix ms'),
    classified_to: ms('slots ending after this instant (the bar in progress, the future) are not classified: min(to, as_of minus the settle lag)'),
    as_of: ms('service time of the answer, Unix ms'),
    totals: T.Object(
      { slots: count('slots classified'), bars: count('slots with a bar'), quiet: count('slots without a bar while a feed was live'), gaps: count('slots without a bar or a live feed'), pending: count('slots without a bar that the history build has not reached yet') },
      { additionalProperties: false },
    ),
    ranges: T.Array(CoverageRangeSchema, { description: 'time order; a range never spans time the market is closed' }),
    partial_history: T.Optional(T.String({ description: 'an edge node that started without the ingest node\'s history (no snapshot in time): why gaps before its start may be history it lacks, not gaps of the market' })),
  },
  { $id: 'Coverage', additionalProperties: false },
);
export type Coverage = Static<typeof CoverageSchema>;
