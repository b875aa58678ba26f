// TypeBox schemas of the perpetual futures resources (issue 8; the spec shows no fields): the
// per-class Quote, Last trade and Snapshot shapes plus `source_count`, and the mark. Composite
// values are reference values, not executable prices.
import { Type as T, type Static } from '@sinclair/typebox';

const Num = T.Union([T.Number(), T.Null()]);
const Str = T.Union([T.String(), T.Null()]);
/** How many independent sources stand behind the value (stale, crossed and far-off sources do not count). */
const SourceCount = T.Integer({ minimum: 0 });

export const CompositeQuoteSchema = T.Object(
  { symbol: Str, bid: Num, ask: Num, bid_size: Num, ask_size: Num, timestamp: Num, source_count: SourceCount },
  { $id: 'CompositeQuote', additionalProperties: false },
);
export type CompositeQuote = Static<typeof CompositeQuoteSchema>;

/** The composite mid: (median bid + median ask) / 2 of the sources that count. */
export const MarkSchema = T.Object({ symbol: Str, mark: Num, timestamp: Num, source_count: SourceCount }, { $id: 'Mark', additionalProperties: false });
export type Mark = Static<typeof MarkSchema>;

export const CompositeTradeSchema = T.Object(
  { symbol: Str, price: Num, size: Num, timestamp: Num, source_count: SourceCount },
  { $id: 'CompositeTrade', additionalProperties: false },
);
export type CompositeTrade = Static<typeof CompositeTradeSchema>;

export const CompositeSnapshotSchema = T.Object(
  {
    symbol: Str,
    bid: Num,
    ask: Num,
    bid_size: Num,
    ask_size: Num,
    last_price: Num,
    last_timestamp: Num,
    prev_close: Num,
    change: Num,
    change_percent: Num,
    source_count: SourceCount,
  },
  { $id: 'CompositeSnapshot', additionalProperties: false },
);
export type CompositeSnapshot = Static<typeof CompositeSnapshotSchema>;
