// The one rule for empty sides of a top of book (docs/feeds.md, "Empty sides"): no price, a price of
// 0 or a size of 0 is an empty side, and a quote needs both; a size not given stays null.
import { describe, expect, test } from 'bun:test';
import { topOfBook } from '../../../src/ingest/adapters/top-of-book.ts';
import type { VenueEvent } from '../../../src/ingest/adapters/venue-protocol.ts';

const empty: VenueEvent = { type: 'book-empty', venueSymbol: 'X' };

describe('topOfBook', () => {
  test.each([
    ['no bid', NaN, 11, 1, 1],
    ['a bid of 0', 0, 11, 1, 1],
    ['an ask of 0', 10, 0, 1, 1],
    ['a bid size of 0', 10, 11, 0, 1],
    ['an ask size of 0', 10, 11, 1, 0],
  ])('%s is an empty side: no quote', (_what, bid, ask, bidSize, askSize) => {
    expect(topOfBook('X', 5, bid, ask, bidSize, askSize)).toEqual(empty);
  });

  test('both sides make a quote; a size not given is null, never 0', () => {
    expect(topOfBook('X', 5, 10, 11, 2, null)).toEqual({ type: 'quote', venueSymbol: 'X', tsMs: 5, bid: 10, ask: 11, bidSize: 2, askSize: null });
  });
});
