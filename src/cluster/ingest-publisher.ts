// `--role ingest`: every consolidated tick, every sweep time and every sealed minute bar of the ingest
// path, published to the JetStream stream MDS_TICKS in the order the path made them. Ticks are
// batched per class for a few ms (one message per class per cycle: at 100,000 ticks/s a message per
// tick would be 100,000 JetStream messages a second); a sweep first closes every open batch, so an
// edge sees each tick on the same side of each seal as this node did.
import { randomBytes } from 'node:crypto';
import { DiscardPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { AssetClass } from '../domain/asset-classes.ts';
import type { Bar } from '../domain/bar.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import type { BarListener, Pipeline, TickListener } from '../ingest/pipeline.ts';
import type { ConsolidatedQuote } from '../ingest/ticks.ts';
import { systemClock } from '../clock.ts';
import type { NatsLink } from './link.ts';
import { barSubject, SWEEP_SUBJECT, symbolSubject, tickSubject, TICKS_STREAM, TICKS_STREAM_SUBJECTS } from './nats.ts';
import type { IngestClusterStatus } from '../domain/cluster-status.ts';
import { Outbox } from './outbox.ts';
import { encodeBar, encodeSweep, encodeSymbol, TickBatch } from './payloads.ts';

/** How long ticks gather before their batch is published. */
const CYCLE_MS = 5;
/** A batch this full is published at once (a message stays far under NATS's 1 MiB payload limit). */
const MAX_BATCH_TICKS = 4096;
/** How long a clean stop waits for the queue to be acked. */
const STOP_DRAIN_MS = 5000;
/** Stream limits when the ingest node creates the stream (an operator may change them with the nats CLI). */
export const STREAM_MAX_AGE_MS = 24 * 3_600_000;
export const STREAM_DUPLICATE_WINDOW_MS = 120_000;
const NANOS_PER_MS = 1_000_000;

/** Creates MDS_TICKS when missing (file storage, 24 h max age, 2 min duplicate window); adds our subjects to one that lacks them. */
export async function ensureTicksStream(jsm: JetStreamManager): Promise<void> {
  const info = await jsm.streams.info(TICKS_STREAM).catch((err: unknown) => {
    if (err instanceof Error && /stream not found/i.test(err.message)) return null;
    throw err;
  });
  if (info === null) {
    await jsm.streams.add({
      name: TICKS_STREAM,
      subjects: TICKS_STREAM_SUBJECTS,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      discard: DiscardPolicy.Old,
      max_age: STREAM_MAX_AGE_MS * NANOS_PER_MS,
      duplicate_window: STREAM_DUPLICATE_WINDOW_MS * NANOS_PER_MS,
      num_replicas: 1,
    });
    return;
  }
  const missing = TICKS_STREAM_SUBJECTS.filter((s) => !info.config.subjects?.includes(s));
  if (missing.length > 0) await jsm.streams.update(TICKS_STREAM, { ...info.config, subjects: [...(info.config.subjects ?? []), ...missing] });
}

export class IngestPublisher implements TickListener, BarListener {
  private readonly outbox: Outbox;
  /** Open batches by class, published at the end of the cycle. */
  private readonly batches = new Map<AssetClass, TickBatch>();
  private cycleTimer: ReturnType<typeof setTimeout> | null = null;
  /** Symbols whose entry went out in this run (an edge learns a venue's instrument from it). */
  private readonly announced = new Set<number>();
  /** Message ids are this run's id and a counter: a resend after a reconnect repeats its id. */
  private readonly runId = randomBytes(9).toString('base64url');
  private messageNo = 0;
  private readonly unsubscribe: (() => void)[] = [];
  private nc: NatsConnection | null = null;
  private readonly closeCycle = () => {
    this.cycleTimer = null;
    this.publishBatches();
  };

  constructor(
    private readonly link: NatsLink,
    pipeline: Pipeline,
    private readonly log: (line: string) => void,
  ) {
    this.outbox = new Outbox(log, () => this.ensureStream());
    link.onUp((nc) => {
      this.nc = nc;
      // A restarted server may have lost the stream (a new store dir): made again before sending.
      this.ensureStream().then(
        () => {
          if (this.nc === nc) this.outbox.attach(jetstream(nc));
        },
        (err: unknown) => {
          log(`warning: the JetStream stream ${TICKS_STREAM} cannot be set up yet (${err instanceof Error ? err.message : String(err)}); retrying`);
          this.outbox.attach(jetstream(nc));
        },
      );
    });
    link.onDown(() => this.outbox.detach());
    this.unsubscribe.push(pipeline.subscribe(this), pipeline.subscribeBars(this), pipeline.subscribeSweeps((nowMs) => this.onSweep(nowMs)));
  }

  onQuote(entry: SymbolEntry, seq: number, q: ConsolidatedQuote, sourceCount: number | null): void {
    this.batchFor(entry).quote(entry.symbol, seq, q.tsMs, q.bid, q.ask, q.bidSize, q.askSize, sourceCount);
    this.afterTick(entry.assetClass);
  }

  onTrade(entry: SymbolEntry, seq: number, tsMs: number, price: number, size: number | null, sourceCount: number | null): void {
    this.batchFor(entry).trade(entry.symbol, seq, tsMs, price, size, sourceCount);
    this.afterTick(entry.assetClass);
  }

  onMinuteBar(entry: SymbolEntry, minute: Readonly<Bar>): void {
    this.announce(entry);
    this.send(barSubject(entry.assetClass, entry.symbol), encodeBar(entry, minute), 0);
  }

  /** A sweep goes out after every tick before it: the open batches are published first. */
  onSweep(nowMs: number): void {
    this.publishBatches();
    this.send(SWEEP_SUBJECT, encodeSweep(nowMs, systemClock.nowMs()), 0);
  }

  status(): IngestClusterStatus {
    const c = this.outbox.report();
    let reason: string | null = null;
    if (this.link.state !== 'connected') reason = `not connected to NATS (${this.link.state}): ${c.queued} messages wait for the edges`;
    else if (c.failure !== null) reason = `publishing to JetStream fails (${c.failure}): ${c.queued} messages wait for the edges`;
    return {
      role: 'ingest',
      nats: this.link.state,
      streamSeq: c.streamSeq,
      published: c.published,
      publishedTicks: c.publishedTicks,
      queued: c.queued,
      queuedBytes: c.queuedBytes,
      droppedMessages: c.droppedMessages,
      droppedTicks: c.droppedTicks,
      publishError: c.failure,
      reason,
    };
  }

  /** The newest stream sequence JetStream acked: every message this node queued before it is in the stream. */
  get ackedStreamSeq(): number {
    return this.outbox.ackedSeq;
  }

  /** Publishes what is open and waits (a while) for the queue to be acked; then publishes nothing more. */
  async stop(): Promise<void> {
    for (const off of this.unsubscribe.splice(0)) off();
    if (this.cycleTimer !== null) clearTimeout(this.cycleTimer);
    this.publishBatches();
    if (this.link.isConnected) {
      const isDrained = await this.outbox.drained(STOP_DRAIN_MS);
      const left = this.outbox.report();
      if (!isDrained) this.log(`warning: stopping with ${left.queued} messages not acked by JetStream; edges miss them`);
    } else {
      const left = this.outbox.report();
      if (left.queued > 0) this.log(`warning: stopping while NATS is away: ${left.queued} queued messages are not published; edges miss them`);
    }
    this.outbox.stop();
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
    if (batch.count >= MAX_BATCH_TICKS) this.publishBatch(batch);
    else if (this.cycleTimer === null) this.cycleTimer = setTimeout(this.closeCycle, CYCLE_MS);
  }

  /** A symbol's entry goes out before its first tick or bar of this run. */
  private announce(entry: SymbolEntry): void {
    if (this.announced.has(entry.id)) return;
    this.announced.add(entry.id);
    this.send(symbolSubject(entry.assetClass, entry.symbol), encodeSymbol(entry), 0);
  }

  private publishBatches(): void {
    if (this.cycleTimer !== null) {
      clearTimeout(this.cycleTimer);
      this.cycleTimer = null;
    }
    for (const batch of this.batches.values()) this.publishBatch(batch);
  }

  private publishBatch(batch: TickBatch): void {
    if (batch.count === 0) return;
    this.batches.delete(batch.assetClass);
    this.send(tickSubject(batch.assetClass), batch.encode(), batch.count);
  }

  private send(subject: string, data: Uint8Array, ticks: number): void {
    this.outbox.enqueue(subject, data, `${this.runId}.${++this.messageNo}`, ticks);
  }

  private async ensureStream(): Promise<void> {
    const nc = this.nc;
    if (nc === null) throw new Error('not connected to NATS');
    await ensureTicksStream(await jetstreamManager(nc));
  }
}
