// The perpetual-futures composite (spec: "the median of live bids and the median of live asks
// across several independent sources"). A source counts only while it is live: quoted within the
// stale window, not crossed or locked (bid ≥ ask), and not far off the others (its mid within a
// set fraction of the median mid of the live sources). With no source counting there is no
// composite at all, never a stale value. Pure: numbers in, numbers out, no clock, no I/O.

import { liveMedian, VenueBook } from './policies.ts';

export interface CompositeRules {
  /** A source silent longer than this no longer counts. */
  staleMs: number;
  /** A source whose mid is further than this fraction from the median mid of the live sources is left out. */
  maxDeviation: number;
}

/** 10 s of silence makes a source stale; 0.5% off the median mid makes it an outlier. */
export const COMPOSITE_RULES: CompositeRules = { staleMs: 10_000, maxDeviation: 0.005 };

/** A composite top of book; `tsMs` is the newest quote time among the sources that count. */
export interface Composite {
  tsMs: number;
  bid: number;
  ask: number;
  bidSize: number | null;
  askSize: number | null;
  sourceCount: number;
}

/** Whether a source is fresh and uncrossed at `nowMs` (before the outlier test). */
export function isFreshAndUncrossed(book: VenueBook, source: number, nowMs: number, rules: CompositeRules): boolean {
  return book.has[source] === 1 && nowMs - book.tsMs[source]! <= rules.staleMs && book.bid[source]! < book.ask[source]! && book.bid[source]! > 0;
}

/**
 * Writes the composite at `nowMs` into `out` and marks the sources that count in `book.live`.
 * Returns false, with no source counted, when no source is live or the medians cross. Reads and
 * writes only the book's flat arrays: no allocation per call.
 */
export function compositeInto(book: VenueBook, nowMs: number, rules: CompositeRules, out: Composite): boolean {
  const counted = book.live;
  let fresh = 0;
  for (let s = 0; s < book.size; s++) {
    const ok = isFreshAndUncrossed(book, s, nowMs, rules);
    counted[s] = ok ? 1 : 0;
    if (ok) fresh++;
  }
  if (fresh === 0) return false;
  // Far off the others: judged against the median mid of the fresh sources, which one bad source
  // cannot move far. Two sources that disagree cannot tell which is right, and both drop out.
  const mid = book.mid;
  for (let s = 0; s < book.size; s++) mid[s] = (book.bid[s]! + book.ask[s]!) / 2;
  const medianMid = liveMedian(book, mid);
  let n = 0;
  let tsMs = -Infinity;
  let bidSize = 0;
  let askSize = 0;
  for (let s = 0; s < book.size; s++) {
    if (counted[s] !== 1) continue;
    if (Math.abs(mid[s]! - medianMid) > rules.maxDeviation * medianMid) {
      counted[s] = 0;
      continue;
    }
    n++;
    if (book.tsMs[s]! > tsMs) tsMs = book.tsMs[s]!;
    bidSize += book.bidSize[s]!;
    askSize += book.askSize[s]!;
  }
  const bid = n === 0 ? NaN : liveMedian(book, book.bid);
  const ask = n === 0 ? NaN : liveMedian(book, book.ask);
  if (!(bid < ask)) {
    counted.fill(0);
    return false;
  }
  out.tsMs = tsMs;
  out.bid = bid;
  out.ask = ask;
  // Sums of fractional lots: rounded so binary fractions do not show (1.4, not 1.4000000000000001).
  out.bidSize = Number.isNaN(bidSize) ? null : Math.round(bidSize * 1e8) / 1e8;
  out.askSize = Number.isNaN(askSize) ? null : Math.round(askSize * 1e8) / 1e8;
  out.sourceCount = n;
  return true;
}

export interface SourceQuote {
  tsMs: number;
  bid: number;
  ask: number;
  bidSize: number | null;
  askSize: number | null;
}

/** The composite of a set of source quotes (index = source), or null: the object form, for tests and cold callers. */
export function composite(sources: readonly (SourceQuote | undefined)[], nowMs: number, rules: CompositeRules = COMPOSITE_RULES): Composite | null {
  const book = new VenueBook();
  sources.forEach((q, s) => {
    if (q) book.set(s, q.tsMs, q.bid, q.ask, q.bidSize, q.askSize);
  });
  const out: Composite = { tsMs: 0, bid: NaN, ask: NaN, bidSize: null, askSize: null, sourceCount: 0 };
  return compositeInto(book, nowMs, rules, out) ? out : null;
}
