// The perpetual-futures composite (spec: "the median of live bids and the median of live asks
// across several independent sources"). A source counts only while it is live: quoted within the
// stale window, not crossed or locked (bid ≥ ask), and not far off the others (its mid within a
// set fraction of the median mid of the live sources). With no source counting there is no
// composite at all, never a stale value. Pure: numbers in, numbers out, no clock, no I/O.

export interface CompositeRules {
  /** A source silent longer than this no longer counts. */
  staleMs: number;
  /** A source whose mid is further than this fraction from the median mid of the live sources is left out. */
  maxDeviation: number;
}

/** 10 s of silence makes a source stale; 0.5% off the median mid makes it an outlier. */
export const COMPOSITE_RULES: CompositeRules = { staleMs: 10_000, maxDeviation: 0.005 };

/** The latest quote of each source of one symbol, by source index, as flat numbers. */
export class SourceBook {
  /** One more than the highest source index seen. */
  size = 0;
  has = new Uint8Array(0);
  tsMs = new Float64Array(0);
  bid = new Float64Array(0);
  ask = new Float64Array(0);
  bidSize = new Float64Array(0);
  askSize = new Float64Array(0);
  /** Set by `compositeInto`: 1 where the source counted in the last composite. */
  counted = new Uint8Array(0);
  /** Scratch for the medians. */
  private readonly scratch: number[] = [];

  /** Records a source's quote; a null size is kept as NaN (the composite's size is then null). */
  set(source: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): void {
    if (source >= this.has.length) this.grow(Math.max(source + 1, 8));
    if (source >= this.size) this.size = source + 1;
    this.has[source] = 1;
    this.tsMs[source] = tsMs;
    this.bid[source] = bid;
    this.ask[source] = ask;
    this.bidSize[source] = bidSize ?? NaN;
    this.askSize[source] = askSize ?? NaN;
  }

  /** Forgets a source's quote (its line went stale); returns false if it had none. */
  clear(source: number): boolean {
    if (source >= this.size || this.has[source] !== 1) return false;
    this.has[source] = 0;
    return true;
  }

  /** Median of `value(source)` over the sources with `flags[source] === 1`. */
  median(flags: Uint8Array, value: (source: number) => number): number {
    const xs = this.scratch;
    xs.length = 0;
    for (let s = 0; s < this.size; s++) if (flags[s] === 1) xs.push(value(s));
    xs.sort((a, b) => a - b);
    const mid = xs.length >> 1;
    return xs.length % 2 === 1 ? xs[mid]! : (xs[mid - 1]! + xs[mid]!) / 2;
  }

  private grow(capacity: number): void {
    const grown = <T extends Float64Array | Uint8Array>(from: T, to: T): T => {
      to.set(from);
      return to;
    };
    this.has = grown(this.has, new Uint8Array(capacity));
    this.tsMs = grown(this.tsMs, new Float64Array(capacity));
    this.bid = grown(this.bid, new Float64Array(capacity));
    this.ask = grown(this.ask, new Float64Array(capacity));
    this.bidSize = grown(this.bidSize, new Float64Array(capacity));
    this.askSize = grown(this.askSize, new Float64Array(capacity));
    this.counted = new Uint8Array(capacity);
  }
}

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
export function isFreshAndUncrossed(book: SourceBook, source: number, nowMs: number, rules: CompositeRules): boolean {
  return book.has[source] === 1 && nowMs - book.tsMs[source]! <= rules.staleMs && book.bid[source]! < book.ask[source]! && book.bid[source]! > 0;
}

/**
 * Writes the composite at `nowMs` into `out` and marks the sources that count in `book.counted`.
 * Returns false, with no source counted, when no source is live or the medians cross.
 */
export function compositeInto(book: SourceBook, nowMs: number, rules: CompositeRules, out: Composite): boolean {
  const counted = book.counted;
  let fresh = 0;
  for (let s = 0; s < book.size; s++) {
    const ok = isFreshAndUncrossed(book, s, nowMs, rules);
    counted[s] = ok ? 1 : 0;
    if (ok) fresh++;
  }
  if (fresh === 0) return false;
  // Far off the others: judged against the median mid of the fresh sources, which one bad source
  // cannot move far. Two sources that disagree cannot tell which is right, and both drop out.
  const mid = (s: number) => (book.bid[s]! + book.ask[s]!) / 2;
  const medianMid = book.median(counted, mid);
  let n = 0;
  let tsMs = -Infinity;
  let bidSize = 0;
  let askSize = 0;
  for (let s = 0; s < book.size; s++) {
    if (counted[s] !== 1) continue;
    if (Math.abs(mid(s) - medianMid) > rules.maxDeviation * medianMid) {
      counted[s] = 0;
      continue;
    }
    n++;
    if (book.tsMs[s]! > tsMs) tsMs = book.tsMs[s]!;
    bidSize += book.bidSize[s]!;
    askSize += book.askSize[s]!;
  }
  const bid = n === 0 ? NaN : book.median(counted, (s) => book.bid[s]!);
  const ask = n === 0 ? NaN : book.median(counted, (s) => book.ask[s]!);
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
  const book = new SourceBook();
  sources.forEach((q, s) => {
    if (q) book.set(s, q.tsMs, q.bid, q.ask, q.bidSize, q.askSize);
  });
  const out: Composite = { tsMs: 0, bid: NaN, ask: NaN, bidSize: null, askSize: null, sourceCount: 0 };
  return compositeInto(book, nowMs, rules, out) ? out : null;
}
