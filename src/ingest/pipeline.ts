// The one ingest path: every feed's ticks → the symbol's consolidation policy → store (latest,
// ticks ring) → bars → listeners (the WebSocket stream). Spot lines consolidate across sources
// under their class policy (quote-consolidator.ts); perpetual lines take the composite of their
// sources (perpetual-composite.ts). Sources are named by string (a feed's id, or one part of a
// feed: `sim-1`); inside, each name is a small integer, the index into every book.
import { ASSET_CLASSES, CLASS_POLICY } from '../domain/asset-classes.ts';
import { midScaleOf, roundedMid } from '../domain/mid-price.ts';
import type { Bar } from '../domain/bar.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import type { Clock } from '../clock.ts';
import { alignmentFor } from '../market/bar-alignment.ts';
import { usRegularSessionAt } from '../market/index.ts';
import type { Store } from '../store/index.ts';
import { BarBuilder } from './bar-builder.ts';
import { COMPOSITE_RULES, compositeInto, type Composite, type CompositeRules } from './consolidators/perpetual-composite.ts';
import { liveSourceCount, newestQuoteMs } from './consolidators/line-freshness.ts';
import { VenueBook } from './consolidators/policies.ts';
import { CLASS_OUTLIER_LIMIT, CLASS_QUOTE_POLICY, ETF_EXTENDED_MAX_SPREAD, QuoteConsolidator } from './consolidators/quote-consolidator.ts';
import type { CompositeQuote, ConsolidatedQuote, VenueQuote, VenueTrade } from './ticks.ts';

export const RAW_SUFFIX = '.RAW';

/**
 * What the path publishes: every consolidated quote and every trade that passed, once stored.
 * `sourceCount` is the number of sources behind a perpetual composite, null on spot lines.
 */
export interface TickListener {
  /** `q` is reused for the next tick: read it during the call, copy it to keep it. */
  onQuote(entry: SymbolEntry, seq: number, q: ConsolidatedQuote, sourceCount: number | null): void;
  onTrade(entry: SymbolEntry, seq: number, tsMs: number, price: number, size: number | null, sourceCount: number | null): void;
  /**
   * The line lost its last live source (`isStale`) or regained one, at `sinceMs` (service clock);
   * `liveSources` counts the sources behind it now (0 when stale). Called on changes only.
   */
  onStatus?(entry: SymbolEntry, isStale: boolean, liveSources: number, sinceMs: number): void;
}

/**
 * What the path publishes of bars: each 1-minute bar once sealed (written, never to change), and
 * the day's bar in progress with that minute folded in (null when the symbol has none). The bar
 * builder stays the one writer; listeners only read, during the call.
 */
export interface BarListener {
  onMinuteBar(entry: SymbolEntry, minute: Readonly<Bar>, day: Readonly<Bar> | null): void;
}

/** A trade of a perpetual that passed, with the sources that counted when it printed. */
export interface CompositeTrade {
  tsMs: number;
  price: number;
  size: number | null;
  sourceCount: number;
}

/** One served line and its consolidation policy: `consolidator` for spot, `book` for a perpetual composite. */
interface Line {
  entry: SymbolEntry;
  consolidator: QuoteConsolidator | null;
  book: VenueBook | null;
  barsFromMid: boolean;
  /** Bars from mids round them as the served fallback (or the perpetual mark) does. */
  midScale: number;
  hasVolume: boolean;
  /** Forex: the unconsolidated line of one source (`<PAIR>.RAW`), and which source it follows. */
  raw: Line | null;
  rawSource: number;
  /** Perpetuals: prices are rounded one decimal finer than the instrument. */
  scale: number;
  published: CompositeQuote | null;
  hasPublished: boolean;
  lastTrade: CompositeTrade | null;
  /** A live source stands behind the line (line-freshness.ts); false from the start until one quotes. */
  isLive: boolean;
  /**
   * Newest uncrossed source quote time: the line is stale once it is older than the stale window.
   * +Infinity on an edge's lines, whose freshness follows the quotes it applies.
   */
  newestSourceMs: number;
}

/** Told of every sweep that sealed due bars, with its time (the recorder, the cluster publisher). */
export type SweepListener = (nowMs: number) => void;

export interface PipelineOptions {
  /** A spot source silent this long is left out of the consolidated line. */
  staleMs?: number;
  /** How often bars whose end has passed are sealed. */
  sealEveryMs?: number;
  /** The perpetual composite's rules (stale window, outlier limit). */
  compositeRules?: CompositeRules;
  /** Told the time of every sweep that seals due bars (the recorder writes it down, so a replay seals alike). */
  onSweep?: (nowMs: number) => void;
  /** Where failures of the timed work go (the service log). */
  log?: (line: string) => void;
}

export class Pipeline {
  readonly bars: BarBuilder;
  /** By symId. */
  private readonly lines: (Line | undefined)[] = [];
  private readonly listeners: TickListener[] = [];
  private readonly barListeners: BarListener[] = [];
  private readonly sweepListeners: SweepListener[] = [];
  /** A quote handed to listeners by the replicated entry points (read during the call, like every tick). */
  private readonly applied: CompositeQuote = { tsMs: 0, bid: NaN, ask: NaN, bidSize: null, askSize: null, sourceCount: 0 };
  private sealTimer: ReturnType<typeof setInterval> | null = null;
  private readonly staleMs: number;
  private readonly rules: CompositeRules;
  private readonly sourceIds = new Map<string, number>();
  private readonly next: Composite = { tsMs: 0, bid: NaN, ask: NaN, bidSize: null, askSize: null, sourceCount: 0 };
  /**
   * Time of the newest consolidated tick (health: is the feed alive); a plain field, set per tick.
   * The newest, not the last: closing books of closed markets arrive with their old timestamps.
   */
  private newestTickMs = -Infinity;
  /** Counted for /metrics: ticks the feeds handed in, and consolidated ticks stored and published. */
  readonly counts = { sourceQuotes: 0, sourceTrades: 0, quotes: 0, trades: 0 };

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly opts: PipelineOptions = {},
  ) {
    this.staleMs = opts.staleMs ?? 10_000;
    this.rules = opts.compositeRules ?? COMPOSITE_RULES;
    this.bars = new BarBuilder(store);
    for (const cls of ASSET_CLASSES) {
      for (const entry of store.registry.all(cls)) if (entry.listed) this.addLine(entry);
    }
    // A restart has no live source yet: every stored line is stale from now until one quotes.
    const startMs = clock.nowMs();
    for (const line of this.lines) {
      if (line === undefined) continue;
      store.setFreshness(line.entry.id, true, startMs, 0);
      if (line.raw !== null) store.setFreshness(line.raw.entry.id, true, startMs, 0);
    }
  }

  /** The small integer a source name stands for in every book; the same name always gets the same index. */
  sourceIndex(name: string): number {
    let index = this.sourceIds.get(name);
    if (index === undefined) {
      index = this.sourceIds.size;
      this.sourceIds.set(name, index);
    }
    return index;
  }

  /** Serves a symbol the path had no line for (an instrument the registry learned from a feed); no-op if it has one. */
  addLine(entry: SymbolEntry): void {
    if (this.lines[entry.id] !== undefined) return;
    const line = entry.assetClass === 'perpetuals' ? this.makeCompositeLine(entry) : this.makeLine(entry);
    if (entry.assetClass === 'forex') {
      const rawEntry = this.store.registry.bySymbolName(entry.symbol + RAW_SUFFIX);
      if (rawEntry) line.raw = this.makeLine(rawEntry, true);
    }
  }

  hasLine(symId: number): boolean {
    return this.lines[symId] !== undefined;
  }

  /** Time of the newest consolidated quote or trade, or null before the first. */
  lastTickMs(): number | null {
    return this.newestTickMs === -Infinity ? null : this.newestTickMs;
  }

  subscribe(listener: TickListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  /** Reports sealed bars to `listener`; the bar builder calls out only while one is subscribed. */
  subscribeBars(listener: BarListener): () => void {
    this.barListeners.push(listener);
    this.bars.onMinuteSealed = (symId, minute, day) => this.publishBar(symId, minute, day);
    return () => {
      const at = this.barListeners.indexOf(listener);
      if (at >= 0) this.barListeners.splice(at, 1);
      if (this.barListeners.length === 0) this.bars.onMinuteSealed = null;
    };
  }

  /** Reports the time of every sweep to `listener` (after `opts.onSweep`). */
  subscribeSweeps(listener: SweepListener): () => void {
    this.sweepListeners.push(listener);
    return () => {
      const at = this.sweepListeners.indexOf(listener);
      if (at >= 0) this.sweepListeners.splice(at, 1);
    };
  }

  start(): void {
    if (this.sealTimer) return;
    this.sealTimer = setInterval(() => this.sweep(this.clock.nowMs()), this.opts.sealEveryMs ?? 500);
  }

  /** Seals the bars whose end has passed at `nowMs`: the timer's sweep, or a recorded one a replay runs. */
  sweep(nowMs: number): void {
    try {
      this.bars.sealDue(nowMs);
    } catch (err) {
      this.opts.log?.(`error: sealing bars failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
    this.markSilentLines(nowMs);
    this.opts.onSweep?.(nowMs);
    const listeners = this.sweepListeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!(nowMs);
  }

  stop(): void {
    if (this.sealTimer) clearInterval(this.sealTimer);
    this.sealTimer = null;
  }

  /** A source's quote, as objects (the simulator, tests); `q.venue` is the source index. */
  onVenueQuote(symId: number, q: VenueQuote): void {
    this.quote(symId, q.venue, q.tsMs, q.bid, q.ask, q.bidSize, q.askSize);
  }

  /** A source's trade, as objects; `t.venue` is the source index. */
  onVenueTrade(symId: number, t: VenueTrade): void {
    this.trade(symId, t.venue, t.tsMs, t.price, t.size);
  }

  /** Entry point for a source's quote, flat (no object per tick). */
  quote(symId: number, source: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null): void {
    this.counts.sourceQuotes++;
    const line = this.lines[symId];
    if (line === undefined) return;
    if (line.book !== null) {
      line.book.set(source, tsMs, bid, ask, bidSize, askSize);
      this.publishComposite(line, tsMs);
    } else {
      this.publishSpot(line, line.consolidator!.quoteFrom(source, tsMs, bid, ask, bidSize, askSize));
      const raw = line.raw;
      if (raw !== null) {
        // The raw line follows one source: the lowest-numbered that quotes the pair (the first registered).
        if (line.rawSource < 0 || source < line.rawSource) line.rawSource = source;
        if (line.rawSource === source) {
          this.publishSpot(raw, raw.consolidator!.quoteFrom(source, tsMs, bid, ask, bidSize, askSize));
          if (bid < ask) this.sourceQuoted(raw, tsMs);
        }
      }
    }
    if (bid < ask) this.sourceQuoted(line, tsMs);
  }

  /** A source's uncrossed quote: the hot path keeps the newest time; only a stale line asks the clock. */
  private sourceQuoted(line: Line, tsMs: number): void {
    if (tsMs > line.newestSourceMs) line.newestSourceMs = tsMs;
    if (line.isLive) return;
    const nowMs = this.clock.nowMs();
    // A closing book replayed with its old time is no live source.
    if (nowMs - line.newestSourceMs > this.staleMs) return;
    const book = line.book ?? line.consolidator!.venues;
    this.setStatus(line, false, book === null ? 1 : liveSourceCount(book, nowMs, this.staleMs), nowMs);
  }

  /** Time-based staleness on the service clock: a live line whose newest source quote left the stale window. */
  private markSilentLines(nowMs: number): void {
    const lines = this.lines;
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i];
      if (line === undefined) continue;
      if (line.isLive && nowMs - line.newestSourceMs > this.staleMs) this.setStatus(line, true, 0, line.newestSourceMs + this.staleMs);
      const raw = line.raw;
      if (raw !== null && raw.isLive && nowMs - raw.newestSourceMs > this.staleMs) this.setStatus(raw, true, 0, raw.newestSourceMs + this.staleMs);
    }
  }

  /** Records the line's freshness and tells the listeners (a change only). */
  private setStatus(line: Line, isStale: boolean, liveSources: number, sinceMs: number): void {
    line.isLive = !isStale;
    if (!this.store.setFreshness(line.entry.id, isStale, sinceMs, liveSources)) return;
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.onStatus?.(line.entry, isStale, liveSources, sinceMs);
  }

  /**
   * Entry point for a source's trade. Spot: trades of all sources form the consolidated tape.
   * Perpetuals: kept only if the source counts in the composite at the trade's time.
   */
  trade(symId: number, source: number, tsMs: number, price: number, size: number | null): void {
    this.counts.sourceTrades++;
    const line = this.lines[symId];
    if (line === undefined) return;
    let sourceCount: number | null = null;
    if (line.book !== null) {
      const c = this.next;
      if (!compositeInto(line.book, tsMs, this.rules, c) || line.book.live[source] !== 1) return;
      sourceCount = c.sourceCount;
      line.lastTrade = { tsMs, price, size, sourceCount };
    }
    if (tsMs > this.newestTickMs) this.newestTickMs = tsMs;
    const symIdOut = line.entry.id;
    const seq = this.store.appendTrade(symIdOut, tsMs, price, size);
    this.counts.trades++;
    if (!line.barsFromMid) this.bars.onPrice(symIdOut, tsMs, price, line.hasVolume ? (size ?? 0) : null);
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.onTrade(line.entry, seq, tsMs, price, size, sourceCount);
  }

  /**
   * A consolidated quote another node made (an edge applying the ingest node's stream), under that
   * node's `seq`: stored, folded into the bars by the same rule as `quote` (mids on lines whose
   * bars are made of mids) and published. False, and nothing happens, when the store already has
   * that seq (a message applied again after a restart). `sourceCount` is set on perpetual lines.
   */
  applyQuote(symId: number, seq: number, tsMs: number, bid: number, ask: number, bidSize: number | null, askSize: number | null, sourceCount: number | null): boolean {
    const line = this.lines[symId];
    if (line === undefined || !this.store.putQuoteAt(symId, seq, tsMs, bid, ask, bidSize, askSize)) return false;
    if (tsMs > this.newestTickMs) this.newestTickMs = tsMs;
    this.counts.quotes++;
    if (line.barsFromMid) this.bars.onPrice(symId, tsMs, roundedMid(bid, ask, line.midScale), null);
    const q = line.published ?? this.applied;
    q.tsMs = tsMs;
    q.bid = bid;
    q.ask = ask;
    q.bidSize = bidSize;
    q.askSize = askSize;
    q.sourceCount = sourceCount ?? 0;
    // A perpetual line served from what another node composed: compositeAt answers with it.
    if (line.book !== null) line.hasPublished = true;
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.onQuote(line.entry, seq, q, sourceCount);
    // An edge has no sources to judge: a line it is sent quotes for is live (not judged by time).
    if (!line.isLive) {
      line.newestSourceMs = Infinity;
      this.setStatus(line, false, sourceCount ?? 1, this.clock.nowMs());
    }
    return true;
  }

  /**
   * A line's freshness as another node judged it (an edge applying the ingest node's stream): the
   * edge has no sources of its own, so its `stale` marker and status frames follow these changes.
   */
  applyStatus(symId: number, isStale: boolean, liveSources: number, sinceMs: number): void {
    const line = this.lines[symId] ?? this.rawLineOf(symId);
    if (line === undefined) return;
    line.newestSourceMs = Infinity;
    // A quote the edge applied first may have made the line live already: no second frame for it.
    if (line.isLive === !isStale) this.store.setFreshness(line.entry.id, isStale, sinceMs, liveSources);
    else this.setStatus(line, isStale, liveSources, sinceMs);
  }

  private rawLineOf(symId: number): Line | undefined {
    for (const line of this.lines) if (line?.raw?.entry.id === symId) return line.raw;
    return undefined;
  }

  /** Like `applyQuote`, for a trade of the consolidated tape (bars from trades on lines that take them). */
  applyTrade(symId: number, seq: number, tsMs: number, price: number, size: number | null, sourceCount: number | null): boolean {
    const line = this.lines[symId];
    if (line === undefined || !this.store.putTradeAt(symId, seq, tsMs, price, size)) return false;
    if (tsMs > this.newestTickMs) this.newestTickMs = tsMs;
    this.counts.trades++;
    if (sourceCount !== null && line.book !== null) line.lastTrade = { tsMs, price, size, sourceCount };
    if (!line.barsFromMid) this.bars.onPrice(symId, tsMs, price, line.hasVolume ? (size ?? 0) : null);
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.onTrade(line.entry, seq, tsMs, price, size, sourceCount);
    return true;
  }

  /**
   * The source's line for this symbol is no longer current: it leaves the consolidated line now,
   * and the line without it is published at once (when it changed and something is left).
   */
  dropSource(symId: number, source: number): void {
    const line = this.lines[symId];
    if (line === undefined) return;
    const nowMs = this.clock.nowMs();
    if (line.book !== null) {
      if (!line.book.clear(source)) return;
      this.publishComposite(line, nowMs);
    } else {
      this.publishSpot(line, line.consolidator!.dropVenue(source, nowMs));
      // The raw line follows this one source: without it, nothing stands behind the raw line.
      const raw = line.raw;
      if (raw !== null && source === line.rawSource && raw.isLive) {
        raw.newestSourceMs = -Infinity;
        this.setStatus(raw, true, 0, nowMs);
      }
    }
    const book = line.book ?? line.consolidator!.venues;
    if (!line.isLive || book === null) return;
    line.newestSourceMs = newestQuoteMs(book);
    if (nowMs - line.newestSourceMs > this.staleMs) this.setStatus(line, true, 0, nowMs);
  }

  /** The perpetual composite as of `nowMs` (sources judged live at that instant), or null when no source is live. */
  compositeAt(symId: number, nowMs: number): Composite | null {
    const line = this.lines[symId];
    if (line === undefined || line.book === null) return null;
    if (line.book.size === 0) return this.appliedCompositeAt(line, nowMs);
    const out: Composite = { tsMs: 0, bid: NaN, ask: NaN, bidSize: null, askSize: null, sourceCount: 0 };
    if (!compositeInto(line.book, nowMs, this.rules, out)) return null;
    out.bid = Math.round(out.bid * line.scale) / line.scale;
    out.ask = Math.round(out.ask * line.scale) / line.scale;
    return out;
  }

  /** The last perpetual trade that passed since the server started, or null. */
  lastTrade(symId: number): CompositeTrade | null {
    return this.lines[symId]?.lastTrade ?? null;
  }

  /**
   * An edge has no sources of its own, only the composites the ingest node published: the last
   * one stands while its newest source quote is within the stale window (the ingest node's test
   * for the freshest source); past it there is no composite, as there would be none there.
   */
  private appliedCompositeAt(line: Line, nowMs: number): Composite | null {
    const p = line.published!;
    if (!line.hasPublished || nowMs - p.tsMs > this.rules.staleMs) return null;
    return { tsMs: p.tsMs, bid: p.bid, ask: p.ask, bidSize: p.bidSize, askSize: p.askSize, sourceCount: p.sourceCount };
  }

  private publishBar(symId: number, minute: Readonly<Bar>, day: Readonly<Bar> | null): void {
    const line = this.lines[symId];
    if (line === undefined) return;
    const listeners = this.barListeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.onMinuteBar(line.entry, minute, day);
  }

  private publishSpot(line: Line, c: ConsolidatedQuote | null): void {
    if (c === null) return;
    const symId = line.entry.id;
    if (c.tsMs > this.newestTickMs) this.newestTickMs = c.tsMs;
    const seq = this.store.appendQuote(symId, c.tsMs, c.bid, c.ask, c.bidSize, c.askSize);
    this.counts.quotes++;
    if (line.barsFromMid) this.bars.onPrice(symId, c.tsMs, roundedMid(c.bid, c.ask, line.midScale), null);
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.onQuote(line.entry, seq, c, null);
  }

  /** Recomputes a perpetual composite at `atMs`; stores and publishes it when it changed. */
  private publishComposite(line: Line, atMs: number): void {
    const c = this.next;
    if (!compositeInto(line.book!, atMs, this.rules, c)) {
      // Nothing to publish: no stale number goes out. The next live composite is a change again.
      line.hasPublished = false;
      return;
    }
    const bid = Math.round(c.bid * line.scale) / line.scale;
    const ask = Math.round(c.ask * line.scale) / line.scale;
    const p = line.published!;
    if (line.hasPublished && bid === p.bid && ask === p.ask && c.bidSize === p.bidSize && c.askSize === p.askSize && c.sourceCount === p.sourceCount) return;
    // Never back, and may repeat within a millisecond (like every line but forex).
    if (atMs > p.tsMs) p.tsMs = atMs;
    p.bid = bid;
    p.ask = ask;
    p.bidSize = c.bidSize;
    p.askSize = c.askSize;
    p.sourceCount = c.sourceCount;
    line.hasPublished = true;
    const symId = line.entry.id;
    if (p.tsMs > this.newestTickMs) this.newestTickMs = p.tsMs;
    const seq = this.store.appendQuote(symId, p.tsMs, bid, ask, p.bidSize, p.askSize);
    this.counts.quotes++;
    this.bars.onPrice(symId, p.tsMs, roundedMid(bid, ask, line.midScale), null);
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.onQuote(line.entry, seq, p, p.sourceCount);
  }

  private makeLine(entry: SymbolEntry, isRaw = false): Line {
    const policy = CLASS_POLICY[entry.assetClass];
    const consolidator = new QuoteConsolidator({
      policy: isRaw ? 'raw' : CLASS_QUOTE_POLICY[entry.assetClass],
      decimals: entry.decimals,
      staleMs: this.staleMs,
      maxDeviation: CLASS_OUTLIER_LIMIT[entry.assetClass],
      gate: entry.assetClass === 'etfs' ? etfGate : undefined,
      // Spec: forex ts strictly increasing per symbol. Other lines may share a millisecond, so a
      // venue changing a book thousands of times a second does not push their clock ahead of time.
      strictTimestamps: entry.assetClass === 'forex',
    });
    const last = this.store.latest(entry.id)?.quote;
    if (last) consolidator.resumeAfter(last.tsMs);
    const line: Line = { entry, consolidator, book: null, barsFromMid: policy.barSource === 'mid', midScale: midScaleOf(entry.decimals), hasVolume: policy.hasVolume, raw: null, rawSource: -1, scale: 0, published: null, hasPublished: false, lastTrade: null, isLive: false, newestSourceMs: -Infinity };
    this.lines[entry.id] = line;
    this.bars.track(entry.id, alignmentFor(entry));
    return line;
  }

  private makeCompositeLine(entry: SymbolEntry): Line {
    const lastTsMs = this.store.latest(entry.id)?.quote?.tsMs ?? -Infinity;
    const published: CompositeQuote = { tsMs: lastTsMs, bid: NaN, ask: NaN, bidSize: null, askSize: null, sourceCount: 0 };
    // Bars from the composite mid equal the served mark (two decimals finer than the instrument).
    const line: Line = { entry, consolidator: null, book: new VenueBook(), barsFromMid: true, midScale: midScaleOf(entry.decimals, 2), hasVolume: false, raw: null, rawSource: -1, scale: 10 ** (entry.decimals + 1), published, hasPublished: false, lastTrade: null, isLive: false, newestSourceMs: -Infinity };
    this.lines[entry.id] = line;
    this.bars.track(entry.id, alignmentFor(entry));
    return line;
  }
}

/** Spec, class rule 1: outside 09:30–16:00 ET an ETF quote is published only within 0.5% of mid. */
function etfGate(q: { bid: number; ask: number }, tsMs: number): boolean {
  if (usRegularSessionAt(tsMs)) return true;
  const mid = (q.bid + q.ask) / 2;
  return (q.ask - q.bid) / mid <= ETF_EXTENDED_MAX_SPREAD;
}
