// The one rule for empty sides of a top of book, for every venue parser (docs/feeds.md, "Empty
// sides"): a side is the best price and the size at it. A side is empty when the venue gives no
// price, a price of 0, or a size of 0 (nothing to trade there). A quote needs both sides: an empty
// side makes no quote but a `book-empty` event, which marks the venue's line stale, since its last
// quote is no longer true. A size the venue does not give is null (unknown), never 0.
import type { VenueEvent } from './venue-protocol.ts';

/**
 * The event for one top of book. `bid` and `ask` are NaN or 0 when the venue gives no price (a
 * malformed price is the parser's parse error, never passed here); sizes are null when not given.
 */
export function topOfBook(venueSymbol: string, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): VenueEvent {
  if (!(bid > 0) || !(ask > 0) || bidSize === 0 || askSize === 0) return { type: 'book-empty', venueSymbol };
  return { type: 'quote', venueSymbol, tsMs, bid, ask, bidSize, askSize };
}
