// Consolidation policies per class, as pure functions over the latest quote of each venue.
// forex / indices / ETFs / commodities: median composite (stale venues dropped, so no single
// venue moves the line alone); stocks and crypto: best bid and offer across venues.
import type { ConsolidatedQuote, VenueQuote } from '../ticks.ts';

export type QuotePolicy = 'median' | 'best' | 'raw';

export interface PolicyInput {
  venues: readonly (VenueQuote | undefined)[];
  nowMs: number;
  staleMs: number;
}

/** Venues whose quote is fresh and not crossed. */
export function liveVenues({ venues, nowMs, staleMs }: PolicyInput): VenueQuote[] {
  const live: VenueQuote[] = [];
  for (const q of venues) if (q && nowMs - q.tsMs <= staleMs && q.bid < q.ask) live.push(q);
  return live;
}

export function median(values: number[]): number {
  values.sort((a, b) => a - b);
  const mid = values.length >> 1;
  return values.length % 2 === 1 ? values[mid]! : (values[mid - 1]! + values[mid]!) / 2;
}

function sumSizes(quotes: readonly VenueQuote[], pick: (q: VenueQuote) => number | null): number | null {
  let total = 0;
  for (const q of quotes) {
    const size = pick(q);
    if (size === null) return null;
    total += size;
  }
  return total;
}

/** Median of live bids and median of live asks; sizes are the live venues' total. */
export function medianComposite(input: PolicyInput): Omit<ConsolidatedQuote, 'tsMs'> | null {
  const live = liveVenues(input);
  if (live.length === 0) return null;
  const bid = median(live.map((q) => q.bid));
  const ask = median(live.map((q) => q.ask));
  if (!(bid < ask)) return null;
  return { bid, ask, bidSize: sumSizes(live, (q) => q.bidSize), askSize: sumSizes(live, (q) => q.askSize) };
}

/** Highest live bid and lowest live ask, sizes summed over the venues at those prices. */
export function bestBidOffer(input: PolicyInput): Omit<ConsolidatedQuote, 'tsMs'> | null {
  const live = liveVenues(input);
  if (live.length === 0) return null;
  let bid = -Infinity;
  let ask = Infinity;
  for (const q of live) {
    if (q.bid > bid) bid = q.bid;
    if (q.ask < ask) ask = q.ask;
  }
  if (!(bid < ask)) {
    // Venues crossed against each other: fall back to the freshest venue's own book.
    let freshest = live[0]!;
    for (const q of live) if (q.tsMs > freshest.tsMs) freshest = q;
    return { bid: freshest.bid, ask: freshest.ask, bidSize: freshest.bidSize, askSize: freshest.askSize };
  }
  const atBid = live.filter((q) => q.bid === bid);
  const atAsk = live.filter((q) => q.ask === ask);
  return { bid, ask, bidSize: sumSizes(atBid, (q) => q.bidSize), askSize: sumSizes(atAsk, (q) => q.askSize) };
}

export function applyPolicy(policy: QuotePolicy, input: PolicyInput): Omit<ConsolidatedQuote, 'tsMs'> | null {
  return policy === 'best' ? bestBidOffer(input) : medianComposite(input);
}
