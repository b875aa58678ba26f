// TypeBox schemas of the US overnight session's resources (issue 8; the spec shows no fields):
// the per-class Quote, Last trade, Snapshot and Previous-bar shapes plus the session the values
// belong to, so a value from a session that is over is never taken for a live one.
import { Type as T, type Static } from '@sinclair/typebox';
import { LastTradeSchema, PrevBarSchema, QuoteSchema, SnapshotSchema } from './schemas.ts';

const Num = T.Union([T.Number(), T.Null()]);

/** The overnight session the values were made in: its open and close (Unix ms), and whether it is still in progress. */
export const SessionFields = {
  session_start: Num,
  session_end: Num,
  session_open: T.Boolean(),
};

export const OvernightQuoteSchema = T.Composite([QuoteSchema, T.Object(SessionFields)], { $id: 'OvernightQuote', additionalProperties: false });
export type OvernightQuote = Static<typeof OvernightQuoteSchema>;

export const OvernightTradeSchema = T.Composite([LastTradeSchema, T.Object(SessionFields)], { $id: 'OvernightTrade', additionalProperties: false });
export type OvernightTrade = Static<typeof OvernightTradeSchema>;

export const OvernightSnapshotSchema = T.Composite([SnapshotSchema, T.Object(SessionFields)], { $id: 'OvernightSnapshot', additionalProperties: false });
export type OvernightSnapshot = Static<typeof OvernightSnapshotSchema>;

/** The previous bar with the session it lies in (the daily bar is one whole session). */
export const OvernightPrevBarSchema = T.Composite([PrevBarSchema, T.Object(SessionFields)], { $id: 'OvernightPrevBar', additionalProperties: false });

/** `/overnight/symbols`: every line sorted by symbol; `type` says whether it is a US stock or an ETF. */
export const OvernightSymbolsSchema = T.Object(
  { symbols: T.Array(T.Object({ symbol: T.String(), name: T.String(), type: T.Union([T.Literal('stock'), T.Literal('etf')]) }, { additionalProperties: false })) },
  { $id: 'OvernightSymbols', additionalProperties: false },
);
