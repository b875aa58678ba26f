// One consolidator per symbol: keeps each venue's latest quote (as numbers, not the caller's
// objects) and turns them into the consolidated line under the class policy. Also owns the
// per-class gates: the ETF spread rule outside the US regular session (spec, class rule 1) and
// timestamps that never go back (strictly increasing where asked: forex, spec).
import type { AssetClass } from '../../domain/asset-classes.ts';
import type { ConsolidatedQuote, VenueQuote } from '../ticks.ts';
import { bestInto, medianInto, VenueBook, type QuotePolicy } from './policies.ts';

export const CLASS_QUOTE_POLICY: Record<AssetClass, QuotePolicy> = {
  crypto: 'best',
  stocks: 'best',
  forex: 'median',
  indices: 'median',
  etfs: 'median',
  commodities: 'median',
  // Not used by the pipeline: perpetuals have their own composite rules (perpetual-composite.ts).
  perpetuals: 'median',
  // Overnight lines are consolidated like stocks: best bid and offer across the overnight venues.
  overnight: 'best',
};

/**
 * Spot crypto: with three or more live venues, a venue whose mid is further than this fraction from
 * the median mid of the live venues is an outlier and left out (a broken or lagging venue cannot
 * set the best bid or offer). Other classes: no outlier test (null).
 */
export const CLASS_OUTLIER_LIMIT: Record<AssetClass, number | null> = {
  crypto: 0.01,
  stocks: null,
  forex: null,
  indices: null,
  etfs: null,
  commodities: null,
  perpetuals: null,
  overnight: null,
};

/** Spec, class rule 1: outside the regular session an ETF quote is published only within 0.5% of mid. */
export const ETF_EXTENDED_MAX_SPREAD = 0.005;

export interface ConsolidatorOptions {
  policy: QuotePolicy;
  decimals: number;
  /** A venue silent this long no longer counts. */
  staleMs: number;
  /** Best-bid-offer lines: the outlier limit (CLASS_OUTLIER_LIMIT); null or absent: no outlier test. */
  maxDeviation?: number | null;
  /** Returns false when a quote must be held back at this instant (ETF rule); default: never. */
  gate?: (q: Omit<ConsolidatedQuote, 'tsMs'>, tsMs: number) => boolean;
  /**
   * True (the default): no two published quotes share a millisecond; a quote in the same (or an
   * earlier) millisecond as the last is stamped one after it (spec: forex ts). False: timestamps
   * never go back but may repeat, so a line changing more than 1,000 times a second keeps real time.
   */
  strictTimestamps?: boolean;
}

export class QuoteConsolidator {
  private readonly book = new VenueBook();
  private readonly policy: QuotePolicy;
  private readonly staleMs: number;
  private readonly maxDeviation: number | null;
  private readonly gate: ConsolidatorOptions['gate'];
  private readonly strict: boolean;
  /** The result handed out: reused, so it is valid until the next call. */
  private readonly out: ConsolidatedQuote = { tsMs: 0, bid: NaN, ask: NaN, bidSize: null, askSize: null };
  private lastTsMs = -Infinity;
  private lastBid = NaN;
  private lastAsk = NaN;
  private lastBidSize: number | null = null;
  private lastAskSize: number | null = null;
  private readonly scale: number;

  constructor(opts: ConsolidatorOptions) {
    this.policy = opts.policy;
    this.staleMs = opts.staleMs;
    this.maxDeviation = opts.maxDeviation ?? null;
    this.gate = opts.gate;
    this.strict = opts.strictTimestamps ?? true;
    this.scale = 10 ** (opts.decimals + 1);
  }

  /**
   * Takes one venue quote; returns the new consolidated quote, or null when the line did not
   * change. The returned object is reused by the next call: read it now or copy it.
   */
  onQuote(q: VenueQuote): ConsolidatedQuote | null {
    return this.quoteFrom(q.venue, q.tsMs, q.bid, q.ask, q.bidSize, q.askSize);
  }

  /** `onQuote` with the quote's fields as arguments (the hot path: no object per tick). */
  quoteFrom(venue: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): ConsolidatedQuote | null {
    const next = this.out;
    if (this.policy === 'raw') {
      if (!(bid < ask)) return null;
      next.bid = bid;
      next.ask = ask;
      next.bidSize = null;
      next.askSize = null;
      return this.publish(tsMs);
    }
    this.book.set(venue, tsMs, bid, ask, bidSize, askSize);
    return this.recompute(tsMs);
  }

  /** Each venue's latest quote, read-only: whether any still counts (line-freshness.ts). Null on a raw line, which keeps none. */
  get venues(): VenueBook | null {
    return this.policy === 'raw' ? null : this.book;
  }

  /** The venue's line is no longer current: it leaves the book; returns the line without it, or null (unchanged or nothing left). */
  dropVenue(venue: number, nowMs: number): ConsolidatedQuote | null {
    if (this.policy === 'raw' || !this.book.clear(venue)) return null;
    return this.recompute(nowMs);
  }

  private recompute(atMs: number): ConsolidatedQuote | null {
    const next = this.out;
    const found = this.policy === 'best' ? bestInto(this.book, atMs, this.staleMs, next, this.maxDeviation) : medianInto(this.book, atMs, this.staleMs, next);
    return found ? this.publish(atMs) : null;
  }

  private publish(atMs: number): ConsolidatedQuote | null {
    const next = this.out;
    next.bid = Math.round(next.bid * this.scale) / this.scale;
    next.ask = Math.round(next.ask * this.scale) / this.scale;
    if (this.gate && !this.gate(next, atMs)) return null;
    if (next.bid === this.lastBid && next.ask === this.lastAsk && next.bidSize === this.lastBidSize && next.askSize === this.lastAskSize) return null;
    // Never back; strictly increasing per symbol where asked, so no two ticks share a timestamp (spec: forex ts).
    const tsMs = atMs > this.lastTsMs ? atMs : this.strict ? this.lastTsMs + 1 : this.lastTsMs;
    this.lastTsMs = tsMs;
    this.lastBid = next.bid;
    this.lastAsk = next.ask;
    this.lastBidSize = next.bidSize;
    this.lastAskSize = next.askSize;
    next.tsMs = tsMs;
    return next;
  }

  /** Resumes the timestamp sequence after a restart. */
  resumeAfter(tsMs: number): void {
    if (tsMs > this.lastTsMs) this.lastTsMs = tsMs;
  }
}
