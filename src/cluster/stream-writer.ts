// What an ingest node writes to the replicated stream, in the order its ingest path made it: each
// consolidated tick and each change of a line's freshness (batched per class for a few ms: at 100,000 ticks/s a message per tick would be
// 100,000 JetStream messages a second), each sweep time (after closing every open batch, so an edge
// sees each tick on the same side of each seal), each sealed minute bar, and each symbol's entry
// before its first tick. Where the messages go is its user's (the JetStream outbox, or a test).
import type { AssetClass } from '../domain/asset-classes.ts';
import type { Bar } from '../domain/bar.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import type { BarListener, Pipeline, TickListener } from '../ingest/pipeline.ts';
import type { ConsolidatedQuote } from '../ingest/ticks.ts';
import { barSubject, SWEEP_SUBJECT, symbolSubject, tickSubject } from './nats.ts';
import { encodeBar, encodeSweep, encodeSymbol, TickBatch } from './payloads.ts';

/** How long ticks gather before their batch is written. */
const CYCLE_MS = 5;
/** A batch this full is written at once (a message stays far under NATS's 1 MiB payload limit). */
const MAX_BATCH_TICKS = 4096;

/** Takes each message in stream order; `ticks` is how many ticks it carries. */
export type MessageSink = (subject: string, data: Uint8Array, ticks: number) => void;

export class StreamWriter implements TickListener, BarListener {
  /** Open batches by class, written at the end of the cycle. */
  private readonly batches = new Map<AssetClass, TickBatch>();
  private cycleTimer: ReturnType<typeof setTimeout> | null = null;
  /** Symbols whose entry went out in this run (an edge learns a venue's instrument from it). */
  private readonly announced = new Set<number>();
  private readonly unsubscribe: (() => void)[];
  private readonly closeCycle = () => {
    this.cycleTimer = null;
    this.writeBatches();
  };

  constructor(
    pipeline: Pipeline,
    private readonly send: MessageSink,
    /** The ingest node's wall clock, sent with each sweep (the edge's clock follows service minus wall). */
    private readonly wallMs: () => number,
  ) {
    this.unsubscribe = [pipeline.subscribe(this), pipeline.subscribeBars(this), pipeline.subscribeSweeps((nowMs) => this.onSweep(nowMs))];
  }

  onQuote(entry: SymbolEntry, seq: number, q: ConsolidatedQuote, sourceCount: number | null): void {
    this.batchFor(entry).quote(entry.symbol, seq, q.tsMs, q.bid, q.ask, q.bidSize, q.askSize, sourceCount);
    this.afterTick(entry.assetClass);
  }

  onTrade(entry: SymbolEntry, seq: number, tsMs: number, price: number, size: number | null, sourceCount: number | null): void {
    this.batchFor(entry).trade(entry.symbol, seq, tsMs, price, size, sourceCount);
    this.afterTick(entry.assetClass);
  }

  onStatus(entry: SymbolEntry, isStale: boolean, liveSources: number, sinceMs: number): void {
    this.batchFor(entry).status(entry.symbol, isStale, liveSources, sinceMs);
    if (this.cycleTimer === null) this.cycleTimer = setTimeout(this.closeCycle, CYCLE_MS);
  }

  onMinuteBar(entry: SymbolEntry, minute: Readonly<Bar>): void {
    this.announce(entry);
    this.send(barSubject(entry.assetClass, entry.symbol), encodeBar(entry, minute), 0);
  }

  /** A sweep goes out after every tick before it: the open batches are written first. */
  onSweep(nowMs: number): void {
    this.writeBatches();
    this.send(SWEEP_SUBJECT, encodeSweep(nowMs, this.wallMs()), 0);
  }

  /** Writes what is open and stops listening. */
  close(): void {
    for (const off of this.unsubscribe.splice(0)) off();
    this.writeBatches();
  }

  private batchFor(entry: SymbolEntry): TickBatch {
    this.announce(entry);
    let batch = this.batches.get(entry.assetClass);
    if (batch === undefined) {
      batch = new TickBatch(entry.assetClass);
      this.batches.set(entry.assetClass, batch);
    }
    return batch;
  }

  private afterTick(assetClass: AssetClass): void {
    const batch = this.batches.get(assetClass)!;
    if (batch.count >= MAX_BATCH_TICKS) this.writeBatch(batch);
    else if (this.cycleTimer === null) this.cycleTimer = setTimeout(this.closeCycle, CYCLE_MS);
  }

  /** A symbol's entry goes out before its first tick or bar of this run. */
  private announce(entry: SymbolEntry): void {
    if (this.announced.has(entry.id)) return;
    this.announced.add(entry.id);
    this.send(symbolSubject(entry.assetClass, entry.symbol), encodeSymbol(entry), 0);
  }

  private writeBatches(): void {
    if (this.cycleTimer !== null) {
      clearTimeout(this.cycleTimer);
      this.cycleTimer = null;
    }
    for (const batch of this.batches.values()) this.writeBatch(batch);
  }

  private writeBatch(batch: TickBatch): void {
    if (batch.isEmpty) return;
    this.batches.delete(batch.assetClass);
    this.send(tickSubject(batch.assetClass), batch.encode(), batch.count);
  }
}
