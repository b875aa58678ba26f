// Consolidation policies per class over the latest quote of each venue (the perpetual composite,
// perpetual-composite.ts, reads the same VenueBook).
// forex / indices / ETFs / commodities: median composite (stale venues dropped, so no single
// venue moves the line alone); stocks and crypto: best bid and offer across venues.
// The consolidator runs them on every venue tick, so they read a flat book (numbers per venue,
// no object per quote) and write into the caller's result: no allocation per tick. The
// object-taking forms below wrap the same code for callers off the hot path.
import type { ConsolidatedQuote, VenueQuote } from '../ticks.ts';

export type QuotePolicy = 'median' | 'best' | 'raw';

export type TopOfBook = Omit<ConsolidatedQuote, 'tsMs'>;

/** The latest quote of each venue by venue index; a null size is stored as NaN, so a sum over a null is NaN. */
export class VenueBook {
  /** One more than the highest venue index seen. */
  size = 0;
  private capacity = 0;
  has = new Uint8Array(0);
  tsMs = new Float64Array(0);
  bid = new Float64Array(0);
  ask = new Float64Array(0);
  bidSize = new Float64Array(0);
  askSize = new Float64Array(0);
  /** Scratch: the medians' sorted values, and which venues are live in the current call. */
  sorted = new Float64Array(0);
  live = new Uint8Array(0);
  /** Scratch: each venue's mid, for the outlier test. */
  mid = new Float64Array(0);

  set(venue: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): void {
    if (venue >= this.capacity) this.grow(venue + 1);
    if (venue >= this.size) this.size = venue + 1;
    this.has[venue] = 1;
    this.tsMs[venue] = tsMs;
    this.bid[venue] = bid;
    this.ask[venue] = ask;
    this.bidSize[venue] = bidSize ?? NaN;
    this.askSize[venue] = askSize ?? NaN;
  }

  /** Forgets a venue's quote (its line went stale); returns false if it had none. */
  clear(venue: number): boolean {
    if (venue >= this.size || this.has[venue] !== 1) return false;
    this.has[venue] = 0;
    return true;
  }

  /** Marks in `live` the venues that count at `nowMs` (quoted within `staleMs`, not crossed or locked); returns how many. */
  markLive(nowMs: number, staleMs: number): number {
    let n = 0;
    for (let v = 0; v < this.size; v++) {
      const ok = this.has[v] === 1 && nowMs - this.tsMs[v]! <= staleMs && this.bid[v]! < this.ask[v]!;
      this.live[v] = ok ? 1 : 0;
      if (ok) n++;
    }
    return n;
  }

  static of(venues: readonly (VenueQuote | undefined)[]): VenueBook {
    const book = new VenueBook();
    venues.forEach((q, i) => {
      if (q) book.set(i, q.tsMs, q.bid, q.ask, q.bidSize, q.askSize);
    });
    return book;
  }

  private grow(capacity: number): void {
    const copy = <T extends Float64Array | Uint8Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    this.capacity = Math.max(capacity, 4);
    this.has = copy(this.has, new Uint8Array(this.capacity));
    this.tsMs = copy(this.tsMs, new Float64Array(this.capacity));
    this.bid = copy(this.bid, new Float64Array(this.capacity));
    this.ask = copy(this.ask, new Float64Array(this.capacity));
    this.bidSize = copy(this.bidSize, new Float64Array(this.capacity));
    this.askSize = copy(this.askSize, new Float64Array(this.capacity));
    this.sorted = new Float64Array(this.capacity);
    this.live = new Uint8Array(this.capacity);
    this.mid = new Float64Array(this.capacity);
  }
}

function nullable(size: number): number | null {
  return Number.isNaN(size) ? null : size;
}

/** Median of the live venues' values of one side (insertion sort: a handful of venues). */
export function liveMedian(book: VenueBook, values: Float64Array): number {
  const sorted = book.sorted;
  let n = 0;
  for (let v = 0; v < book.size; v++) {
    if (book.live[v] !== 1) continue;
    const x = values[v]!;
    let i = n++;
    while (i > 0 && sorted[i - 1]! > x) {
      sorted[i] = sorted[i - 1]!;
      i--;
    }
    sorted[i] = x;
  }
  const mid = n >> 1;
  return n % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Median of live bids and median of live asks; sizes are the live venues' total. False when there is no line. */
export function medianInto(book: VenueBook, nowMs: number, staleMs: number, out: TopOfBook): boolean {
  if (book.markLive(nowMs, staleMs) === 0) return false;
  let bidSize = 0;
  let askSize = 0;
  for (let v = 0; v < book.size; v++) {
    if (book.live[v] !== 1) continue;
    bidSize += book.bidSize[v]!;
    askSize += book.askSize[v]!;
  }
  const bid = liveMedian(book, book.bid);
  const ask = liveMedian(book, book.ask);
  if (!(bid < ask)) return false;
  out.bid = bid;
  out.ask = ask;
  out.bidSize = nullable(bidSize);
  out.askSize = nullable(askSize);
  return true;
}

/**
 * With three or more live venues, unmarks those whose mid is further than `maxDeviation` (a
 * fraction) from the median mid of the live venues. Two venues that disagree cannot tell which is
 * right, so with two both stay (the crossed-book rule below then applies).
 */
function dropOutliers(book: VenueBook, live: number, maxDeviation: number): void {
  if (live < 3) return;
  const mid = book.mid;
  for (let v = 0; v < book.size; v++) mid[v] = (book.bid[v]! + book.ask[v]!) / 2;
  const median = liveMedian(book, mid);
  for (let v = 0; v < book.size; v++) {
    if (book.live[v] === 1 && Math.abs(mid[v]! - median) > maxDeviation * median) book.live[v] = 0;
  }
}

/**
 * Highest live bid and lowest live ask, sizes summed over the venues at those prices. False when no
 * venue is live. `maxDeviation` (spot crypto) first leaves out venues far from the others' median.
 * A consolidated book that comes out crossed or locked (venues disagree) is replaced by the
 * freshest live venue's own book.
 */
export function bestInto(book: VenueBook, nowMs: number, staleMs: number, out: TopOfBook, maxDeviation: number | null = null): boolean {
  let bid = -Infinity;
  let ask = Infinity;
  let freshest = -1;
  const live = book.markLive(nowMs, staleMs);
  if (maxDeviation !== null) dropOutliers(book, live, maxDeviation);
  for (let v = 0; v < book.size; v++) {
    if (book.live[v] !== 1) continue;
    if (book.bid[v]! > bid) bid = book.bid[v]!;
    if (book.ask[v]! < ask) ask = book.ask[v]!;
    if (freshest < 0 || book.tsMs[v]! > book.tsMs[freshest]!) freshest = v;
  }
  if (freshest < 0) return false;
  if (!(bid < ask)) {
    // Venues crossed against each other: fall back to the freshest venue's own book.
    out.bid = book.bid[freshest]!;
    out.ask = book.ask[freshest]!;
    out.bidSize = nullable(book.bidSize[freshest]!);
    out.askSize = nullable(book.askSize[freshest]!);
    return true;
  }
  let bidSize = 0;
  let askSize = 0;
  for (let v = 0; v < book.size; v++) {
    if (book.live[v] !== 1) continue;
    if (book.bid[v] === bid) bidSize += book.bidSize[v]!;
    if (book.ask[v] === ask) askSize += book.askSize[v]!;
  }
  out.bid = bid;
  out.ask = ask;
  out.bidSize = nullable(bidSize);
  out.askSize = nullable(askSize);
  return true;
}

export interface PolicyInput {
  venues: readonly (VenueQuote | undefined)[];
  nowMs: number;
  staleMs: number;
}

function run(into: typeof medianInto, { venues, nowMs, staleMs }: PolicyInput): TopOfBook | null {
  const out: TopOfBook = { bid: NaN, ask: NaN, bidSize: null, askSize: null };
  return into(VenueBook.of(venues), nowMs, staleMs, out) ? out : null;
}

/** Median of live bids and median of live asks; sizes are the live venues' total. */
export function medianComposite(input: PolicyInput): TopOfBook | null {
  return run(medianInto, input);
}

/** Highest live bid and lowest live ask, sizes summed over the venues at those prices. */
export function bestBidOffer(input: PolicyInput): TopOfBook | null {
  return run(bestInto, input);
}

export function applyPolicy(policy: QuotePolicy, input: PolicyInput): TopOfBook | null {
  return policy === 'best' ? bestBidOffer(input) : medianComposite(input);
}
