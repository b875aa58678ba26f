// Perpetual futures composites: one source book per perpetual symbol, fed with each venue's quotes
// and trades. Every change of the composite is stored (latest state, ticks ring), folds its mid
// into the bars and goes to the listeners with its `source_count`; trades pass only from a source
// that counts at that instant. REST reads the composite as of the request, so a source that went
// stale since the last tick no longer counts (spec: perpetual futures).
import type { SymbolEntry } from '../domain/instrument.ts';
import { midScaleOf, roundedMid } from '../domain/mid-price.ts';
import { alignmentFor } from '../market/bar-alignment.ts';
import type { Store } from '../store/index.ts';
import type { BarBuilder } from './bar-builder.ts';
import { COMPOSITE_RULES, compositeInto, SourceBook, type Composite, type CompositeRules } from './consolidators/perpetual-composite.ts';
import type { CompositeQuote, VenueQuote, VenueTrade } from './ticks.ts';

export interface CompositeListener {
  /** `q` is reused for the next tick: read it during the call. */
  onQuote(entry: SymbolEntry, seq: number, q: CompositeQuote): void;
  onTrade(entry: SymbolEntry, seq: number, tsMs: number, price: number, size: number | null, sourceCount: number): void;
}

/** A trade that passed, with the sources that counted when it printed. */
export interface CompositeTrade {
  tsMs: number;
  price: number;
  size: number | null;
  sourceCount: number;
}

interface Line {
  entry: SymbolEntry;
  book: SourceBook;
  /** Prices are rounded one decimal finer than the instrument, as the other consolidated lines. */
  scale: number;
  /** The mark's scale: bars from the composite mid equal the served mark. */
  markScale: number;
  published: CompositeQuote;
  hasPublished: boolean;
  lastTrade: CompositeTrade | null;
}

export class PerpetualComposites {
  /** By symId. */
  private readonly lines: (Line | undefined)[] = [];
  private readonly listeners: CompositeListener[] = [];
  private readonly next: Composite = { tsMs: 0, bid: NaN, ask: NaN, bidSize: null, askSize: null, sourceCount: 0 };

  constructor(
    private readonly store: Store,
    private readonly bars: BarBuilder,
    private readonly rules: CompositeRules = COMPOSITE_RULES,
  ) {
    for (const entry of store.registry.all('perpetuals')) {
      if (!entry.listed) continue;
      const lastTsMs = store.latest(entry.id)?.quote?.tsMs ?? -Infinity;
      const published: CompositeQuote = { tsMs: lastTsMs, bid: NaN, ask: NaN, bidSize: null, askSize: null, sourceCount: 0 };
      this.lines[entry.id] = { entry, book: new SourceBook(), scale: 10 ** (entry.decimals + 1), markScale: midScaleOf(entry.decimals, 2), published, hasPublished: false, lastTrade: null };
      bars.track(entry.id, alignmentFor(entry));
    }
  }

  subscribe(listener: CompositeListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  /** A venue's quote: recomputes the composite; stores and publishes it when it changed. */
  onVenueQuote(symId: number, q: VenueQuote): void {
    const line = this.lines[symId];
    if (line === undefined) return;
    line.book.set(q.venue, q.tsMs, q.bid, q.ask, q.bidSize, q.askSize);
    const c = this.next;
    if (!compositeInto(line.book, q.tsMs, this.rules, c)) {
      // Nothing to publish: no stale number goes out. The next live composite is a change again.
      line.hasPublished = false;
      return;
    }
    const bid = Math.round(c.bid * line.scale) / line.scale;
    const ask = Math.round(c.ask * line.scale) / line.scale;
    const p = line.published;
    if (line.hasPublished && bid === p.bid && ask === p.ask && c.bidSize === p.bidSize && c.askSize === p.askSize && c.sourceCount === p.sourceCount) return;
    // Strictly increasing per symbol, like every consolidated line.
    p.tsMs = q.tsMs > p.tsMs ? q.tsMs : p.tsMs + 1;
    p.bid = bid;
    p.ask = ask;
    p.bidSize = c.bidSize;
    p.askSize = c.askSize;
    p.sourceCount = c.sourceCount;
    line.hasPublished = true;
    const seq = this.store.appendQuote(symId, p.tsMs, bid, ask, p.bidSize, p.askSize);
    this.bars.onPrice(symId, p.tsMs, roundedMid(bid, ask, line.markScale), null);
    for (const listener of this.listeners) listener.onQuote(line.entry, seq, p);
  }

  /** A venue's trade: kept only if its source counts in the composite at the trade's time. */
  onVenueTrade(symId: number, t: VenueTrade): void {
    const line = this.lines[symId];
    if (line === undefined) return;
    const c = this.next;
    if (!compositeInto(line.book, t.tsMs, this.rules, c) || line.book.counted[t.venue] !== 1) return;
    const trade: CompositeTrade = { tsMs: t.tsMs, price: t.price, size: t.size, sourceCount: c.sourceCount };
    line.lastTrade = trade;
    const seq = this.store.appendTrade(symId, t.tsMs, t.price, t.size);
    for (const listener of this.listeners) listener.onTrade(line.entry, seq, t.tsMs, t.price, t.size, c.sourceCount);
  }

  /** The composite as of `nowMs` (sources judged live at that instant), or null when no source is live. */
  compositeAt(symId: number, nowMs: number): Composite | null {
    const line = this.lines[symId];
    if (line === undefined) return null;
    const out: Composite = { tsMs: 0, bid: NaN, ask: NaN, bidSize: null, askSize: null, sourceCount: 0 };
    if (!compositeInto(line.book, nowMs, this.rules, out)) return null;
    out.bid = Math.round(out.bid * line.scale) / line.scale;
    out.ask = Math.round(out.ask * line.scale) / line.scale;
    return out;
  }

  /** The last trade that passed since the server started, or null. */
  lastTrade(symId: number): CompositeTrade | null {
    return this.lines[symId]?.lastTrade ?? null;
  }
}
