// The data's path after the adapters: venue tick → the symbol's consolidator → store (latest,
// ticks ring) → bars → publish to listeners (the WebSocket stream). Feeds call only this.
import { CLASS_POLICY } from '../domain/asset-classes.ts';
import { midScaleOf, roundedMid } from '../domain/mid-price.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import type { Clock } from '../clock.ts';
import { alignmentFor } from '../market/bar-alignment.ts';
import { usRegularSessionAt } from '../market/index.ts';
import type { Store } from '../store/index.ts';
import { BarBuilder } from './bar-builder.ts';
import { CLASS_QUOTE_POLICY, ETF_EXTENDED_MAX_SPREAD, QuoteConsolidator } from './consolidators/quote-consolidator.ts';
import type { ConsolidatedQuote, VenueQuote, VenueTrade } from './ticks.ts';

/** The venue whose own line is served unconsolidated as `<PAIR>.RAW`. */
export const FOREX_RAW_VENUE = 0;
export const RAW_SUFFIX = '.RAW';

export interface TickListener {
  /** `q` is reused for the next tick: read it during the call, copy it to keep it. */
  onQuote(entry: SymbolEntry, seq: number, q: ConsolidatedQuote): void;
  onTrade(entry: SymbolEntry, seq: number, tsMs: number, price: number, size: number | null): void;
}

interface Line {
  entry: SymbolEntry;
  consolidator: QuoteConsolidator;
  barsFromMid: boolean;
  /** Bars from mids round them as the served fallback does (midScaleOf). */
  midScale: number;
  hasVolume: boolean;
  raw: Line | null;
}

export interface PipelineOptions {
  /** A venue silent this long is left out of the composite. */
  staleMs?: number;
  /** How often bars whose end has passed are sealed. */
  sealEveryMs?: number;
}

export class Pipeline {
  readonly bars: BarBuilder;
  /** By symId. */
  private readonly lines: (Line | undefined)[] = [];
  private readonly listeners: TickListener[] = [];
  private sealTimer: ReturnType<typeof setInterval> | null = null;
  private readonly staleMs: number;
  /**
   * Time of the newest consolidated tick (health: is the feed alive); a plain field, set per tick.
   * The newest, not the last: closing books of closed markets arrive with their old timestamps.
   */
  private newestTickMs = -Infinity;

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly opts: PipelineOptions = {},
  ) {
    this.staleMs = opts.staleMs ?? 10_000;
    this.bars = new BarBuilder(store);
    for (const cls of ['crypto', 'forex', 'stocks', 'indices', 'etfs', 'commodities', 'overnight'] as const) {
      for (const entry of store.registry.all(cls)) {
        if (!entry.listed) continue;
        const line = this.makeLine(entry);
        if (cls === 'forex') {
          const rawEntry = store.registry.bySymbolName(entry.symbol + RAW_SUFFIX);
          if (rawEntry) line.raw = this.makeLine(rawEntry, true);
        }
      }
    }
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

  start(): void {
    if (this.sealTimer) return;
    this.sealTimer = setInterval(() => {
      try {
        this.bars.sealDue(this.clock.nowMs());
      } catch (err) {
        console.error('sealing bars failed:', err);
      }
    }, this.opts.sealEveryMs ?? 500);
  }

  stop(): void {
    if (this.sealTimer) clearInterval(this.sealTimer);
    this.sealTimer = null;
  }

  /** Entry point for a venue's quote. */
  onVenueQuote(symId: number, q: VenueQuote): void {
    const line = this.lines[symId];
    if (line === undefined) return;
    this.consolidateQuote(line, q);
    if (line.raw && q.venue === FOREX_RAW_VENUE) this.consolidateQuote(line.raw, q);
  }

  /** Entry point for a venue's trade: trades of all venues form the consolidated tape. */
  onVenueTrade(symId: number, t: VenueTrade): void {
    const line = this.lines[symId];
    if (line === undefined) return;
    const size = t.size;
    if (t.tsMs > this.newestTickMs) this.newestTickMs = t.tsMs;
    const seq = this.store.appendTrade(symId, t.tsMs, t.price, size);
    if (!line.barsFromMid) this.bars.onPrice(symId, t.tsMs, t.price, line.hasVolume ? (size ?? 0) : null);
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.onTrade(line.entry, seq, t.tsMs, t.price, size);
  }

  private consolidateQuote(line: Line, q: VenueQuote): void {
    const c = line.consolidator.onQuote(q);
    if (!c) return;
    const symId = line.entry.id;
    if (c.tsMs > this.newestTickMs) this.newestTickMs = c.tsMs;
    const seq = this.store.appendQuote(symId, c.tsMs, c.bid, c.ask, c.bidSize, c.askSize);
    if (line.barsFromMid) this.bars.onPrice(symId, c.tsMs, roundedMid(c.bid, c.ask, line.midScale), null);
    const listeners = this.listeners;
    for (let i = 0; i < listeners.length; i++) listeners[i]!.onQuote(line.entry, seq, c);
  }

  private makeLine(entry: SymbolEntry, isRaw = false): Line {
    const policy = CLASS_POLICY[entry.assetClass];
    const consolidator = new QuoteConsolidator({
      policy: isRaw ? 'raw' : CLASS_QUOTE_POLICY[entry.assetClass],
      decimals: entry.decimals,
      staleMs: this.staleMs,
      gate: entry.assetClass === 'etfs' ? etfGate : undefined,
    });
    const last = this.store.latest(entry.id)?.quote;
    if (last) consolidator.resumeAfter(last.tsMs);
    const line: Line = { entry, consolidator, barsFromMid: policy.barSource === 'mid', midScale: midScaleOf(entry.decimals), hasVolume: policy.hasVolume, raw: null };
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
