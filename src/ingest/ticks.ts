// Normalized ticks as adapters emit them: one venue's quote or trade for one symbol, stamped
// with the venue's event time.

export interface VenueQuote {
  venue: number;
  tsMs: number;
  bid: number;
  ask: number;
  bidSize: number | null;
  askSize: number | null;
}

export interface VenueTrade {
  venue: number;
  tsMs: number;
  price: number;
  size: number | null;
}

/** Where the simulator's venues hand their ticks as objects (`venue` = source index): the ingest path, or a feed's sink adapter. */
export interface VenueTickInput {
  onVenueQuote(symId: number, q: VenueQuote): void;
  onVenueTrade(symId: number, t: VenueTrade): void;
}

/** A consolidated top of book, as the store and the stream receive it. */
export interface ConsolidatedQuote {
  tsMs: number;
  bid: number;
  ask: number;
  bidSize: number | null;
  askSize: number | null;
}

/** A perpetual composite: the consolidated top of book plus how many sources stand behind it. */
export interface CompositeQuote extends ConsolidatedQuote {
  sourceCount: number;
}
