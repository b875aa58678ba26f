// One consolidator per symbol: keeps each venue's latest quote (as numbers, not the caller's
// objects) and turns them into the consolidated line under the class policy. Also owns the
// per-class gates: the ETF spread rule outside the US regular session (spec, class rule 1) and
// strictly increasing timestamps.
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

/** Spec, class rule 1: outside the regular session an ETF quote is published only within 0.5% of mid. */
export const ETF_EXTENDED_MAX_SPREAD = 0.005;

export interface ConsolidatorOptions {
  policy: QuotePolicy;
  decimals: number;
  /** A venue silent this long no longer counts. */
  staleMs: number;
  /** Returns false when a quote must be held back at this instant (ETF rule); default: never. */
  gate?: (q: Omit<ConsolidatedQuote, 'tsMs'>, tsMs: number) => boolean;
}

export class QuoteConsolidator {
  private readonly book = new VenueBook();
  private readonly policy: QuotePolicy;
  private readonly staleMs: number;
  private readonly gate: ConsolidatorOptions['gate'];
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
    this.gate = opts.gate;
    this.scale = 10 ** (opts.decimals + 1);
  }

  /**
   * Takes one venue quote; returns the new consolidated quote, or null when the line did not
   * change. The returned object is reused by the next call: read it now or copy it.
   */
  onQuote(q: VenueQuote): ConsolidatedQuote | null {
    const next = this.out;
    if (this.policy === 'raw') {
      if (!(q.bid < q.ask)) return null;
      next.bid = q.bid;
      next.ask = q.ask;
      next.bidSize = null;
      next.askSize = null;
    } else {
      this.book.set(q.venue, q.tsMs, q.bid, q.ask, q.bidSize, q.askSize);
      const found = this.policy === 'best' ? bestInto(this.book, q.tsMs, this.staleMs, next) : medianInto(this.book, q.tsMs, this.staleMs, next);
      if (!found) return null;
    }
    next.bid = Math.round(next.bid * this.scale) / this.scale;
    next.ask = Math.round(next.ask * this.scale) / this.scale;
    if (this.gate && !this.gate(next, q.tsMs)) return null;
    if (next.bid === this.lastBid && next.ask === this.lastAsk && next.bidSize === this.lastBidSize && next.askSize === this.lastAskSize) return null;
    // Strictly increasing per symbol, so no two ticks of a line share a timestamp (spec: forex ts).
    const tsMs = q.tsMs > this.lastTsMs ? q.tsMs : this.lastTsMs + 1;
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
