// `--role edge`: follows the ingest node's stream MDS_TICKS in stream order and applies each message
// through the ingest path's replicated entry points: ticks under the ingest node's seq (a seq the
// store already has is a no-op), sweeps at the ingest node's instants (so the bar builder seals
// the same bars), registry entries of symbols the edge lacks. The stream sequence applied is stored
// with the data in one transaction; a (re)start consumes from the next one, so every message is
// applied once across kill -9, NATS restarts and reconnects. The ingest node's sealed bars are
// compared with the edge's own, and a difference is counted.
import { jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { AssetClass } from '../domain/asset-classes.ts';
import type { Bar } from '../domain/bar.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import type { OffsetClock } from '../clock.ts';
import { systemClock } from '../clock.ts';
import type { Pipeline } from '../ingest/pipeline.ts';
import type { Store } from '../store/index.ts';
import type { EdgeClusterStatus } from '../domain/cluster-status.ts';
import type { NatsLink } from './link.ts';
import { BAR_SUBJECT_PREFIX, SWEEP_SUBJECT, SYMBOL_SUBJECT_PREFIX, TICK_SUBJECT_PREFIX, TICKS_STREAM } from './nats.ts';
import { decodePayload, QUOTE, TRADE, type BarPayload, type SweepPayload, type SymbolPayload, type TickBatchPayload } from './payloads.ts';

/** Messages asked for per pull (each a batch of ticks). */
const PULL_MESSAGES = 512;
/** A pull open this long is renewed; the client misses heartbeats after two halves of it. */
const PULL_EXPIRES_MS = 5000;
/** A consumer left behind (an edge killed) is removed by the server after this. */
const CONSUMER_INACTIVE_MS = 30_000;
const RETRY_MS = 500;
/** Bars seen on one side only, waiting for the other, before the oldest are forgotten. */
const MAX_UNMATCHED_BARS = 50_000;

type BarValues = [number, number, number, number, number, number | null];

/** Sets where an edge's store resumes the stream: the last stream sequence its data includes (a snapshot bootstrap); durable on return. */
export async function setEdgeResumePoint(store: Store, streamSeq: number, clockOffsetMs = store.replicaPosition()?.clockOffsetMs ?? 0): Promise<void> {
  if (!Number.isInteger(streamSeq) || streamSeq < 0) throw new Error(`a stream sequence is a whole number from 0, got ${streamSeq}`);
  store.setReplicaPosition({ streamSeq, clockOffsetMs });
  await store.flush();
}

export class EdgeReplica {
  private streamSeq: number;
  private clockOffsetMs: number;
  private lagMessages: number | null = null;
  /** Wall time (ms) the stream stored the newest applied message. */
  private lastStoredMs: number | null = null;
  private readonly startedMs = systemClock.nowMs();
  private barMismatches = 0;
  private seqGaps = 0;
  private skippedMessages = 0;
  private readonly symIds = new Map<string, Map<string, number>>();
  /** Per symbol: bars starting at or before this were not seen whole by this edge (it joined, or a gap). */
  private readonly compareAfterMs: number[] = [];
  private readonly unmatched = new Map<string, { isOwn: boolean; bar: BarValues }>();
  private readonly warned = new Set<string>();
  /** Bumped on every (re)start of the consumer: an older one's late messages are ignored. */
  private generation = 0;
  private messages: ConsumerMessages | null = null;
  private isStopped = false;
  private readonly unsubscribe: () => void;
  private readonly onMessage = (m: JsMsg) => this.apply(m);

  constructor(
    private readonly link: NatsLink,
    private readonly store: Store,
    private readonly pipeline: Pipeline,
    private readonly clock: OffsetClock,
    private readonly log: (line: string) => void,
    private readonly maxLagMs: number,
  ) {
    const saved = store.replicaPosition();
    this.streamSeq = saved?.streamSeq ?? 0;
    this.clockOffsetMs = saved?.clockOffsetMs ?? clock.offsetMs;
    clock.offsetMs = this.clockOffsetMs;
    this.unsubscribe = pipeline.subscribeBars({ onMinuteBar: (entry, minute) => this.matchBar(entry.id, minute, true) });
    link.onUp((nc) => void this.follow(nc));
    link.onDown(() => this.closeConsumer());
    log(this.streamSeq > 0 ? `edge: resuming the stream ${TICKS_STREAM} after sequence ${this.streamSeq}` : `edge: following the stream ${TICKS_STREAM} from its first message`);
  }

  status(): EdgeClusterStatus {
    const nowMs = systemClock.nowMs();
    const lagMs = this.lastStoredMs === null ? null : Math.max(0, Math.round(nowMs - this.lastStoredMs));
    let reason: string | null = null;
    if (this.link.state !== 'connected') reason = `not connected to NATS (${this.link.state}): serving what this edge has, which may be behind`;
    else if (lagMs === null) {
      if (nowMs - this.startedMs > this.maxLagMs) reason = `no message from the stream ${TICKS_STREAM} yet (is the ingest node running?)`;
    } else if (lagMs > this.maxLagMs) {
      reason = (this.lagMessages ?? 0) > 0 ? `${lagMs} ms behind the stream (${this.lagMessages} messages to apply; limit ${this.maxLagMs} ms)` : `no message from the ingest node for ${lagMs} ms (limit ${this.maxLagMs} ms): is it running?`;
    }
    return { role: 'edge', nats: this.link.state, streamSeq: this.streamSeq, lagMessages: this.lagMessages, lagMs, maxLagMs: this.maxLagMs, barMismatches: this.barMismatches, seqGaps: this.seqGaps, skippedMessages: this.skippedMessages, reason };
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    this.unsubscribe();
    this.closeConsumer();
  }

  /** (Re)starts consuming after the stored position, on every (re)connect and whenever the consumer ends. */
  private async follow(nc: NatsConnection): Promise<void> {
    this.closeConsumer();
    const generation = ++this.generation;
    let lastError = '';
    while (!this.isStopped && generation === this.generation && this.link.isConnected) {
      try {
        const jsm = await jetstreamManager(nc);
        const info = await jsm.streams.info(TICKS_STREAM);
        const startSeq = this.startSeqIn(info.state.first_seq, info.state.last_seq);
        const consumer = await jetstream(nc).consumers.get(TICKS_STREAM, { opt_start_seq: startSeq, inactive_threshold: CONSUMER_INACTIVE_MS });
        if (this.isStopped || generation !== this.generation) return;
        const messages = await consumer.consume({ callback: this.onMessage, max_messages: PULL_MESSAGES, expires: PULL_EXPIRES_MS });
        this.messages = messages;
        lastError = '';
        const ended = await messages.closed();
        if (this.isStopped || generation !== this.generation) return;
        this.log(`warning: edge: the stream consumer ended (${ended instanceof Error ? ended.message : 'closed'}); following again`);
      } catch (err) {
        const message = err instanceof Error ? err.message : String(err);
        if (message !== lastError) this.log(`warning: edge: cannot follow the stream ${TICKS_STREAM} yet (${message}); retrying`);
        lastError = message;
      }
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }

  /** Where to start in a stream holding [firstSeq, lastSeq]; says so when it cannot be the next after the position. */
  private startSeqIn(firstSeq: number, lastSeq: number): number {
    const next = this.streamSeq + 1;
    if (this.streamSeq > lastSeq) {
      this.log(`error: edge: the stream ${TICKS_STREAM} ends at sequence ${lastSeq}, before this edge's position ${this.streamSeq}: it was made anew; following it from its first message (ticks this edge has are kept, bars may differ)`);
      this.streamSeq = Math.max(0, firstSeq - 1);
      return Math.max(1, firstSeq);
    }
    if (this.streamSeq > 0 && next < firstSeq) this.log(`error: edge: the stream no longer holds sequences ${next} to ${firstSeq - 1} (its max age passed while this edge was away): this edge misses them`);
    return Math.max(next, 1);
  }

  private closeConsumer(): void {
    const messages = this.messages;
    this.messages = null;
    this.generation++;
    if (messages !== null) void messages.close().catch(() => {});
  }

  private apply(m: JsMsg): void {
    const seq = m.seq;
    // A message at or before the position is applied already (a consumer restarted a little early).
    if (seq <= this.streamSeq || this.isStopped) return;
    try {
      const subject = m.subject;
      if (subject === SWEEP_SUBJECT) this.applySweep(decodePayload<SweepPayload>(m.data));
      else if (subject.startsWith(TICK_SUBJECT_PREFIX)) this.applyTicks(decodePayload<TickBatchPayload>(m.data));
      else if (subject.startsWith(BAR_SUBJECT_PREFIX)) this.applyBar(decodePayload<BarPayload>(m.data));
      else if (subject.startsWith(SYMBOL_SUBJECT_PREFIX)) this.applySymbol(decodePayload<SymbolPayload>(m.data));
    } catch (err) {
      this.skippedMessages++;
      this.warnOnce(`message:${err instanceof Error ? err.message : String(err)}`, `error: edge: stream message ${seq} (${m.subject}) cannot be applied: ${err instanceof Error ? err.message : String(err)}; skipped`);
    }
    this.streamSeq = seq;
    const info = m.info;
    this.lagMessages = info.pending;
    this.lastStoredMs = info.timestampNanos / 1_000_000;
    this.store.setReplicaPosition({ streamSeq: seq, clockOffsetMs: this.clockOffsetMs });
  }

  private applySweep(p: SweepPayload): void {
    this.clockOffsetMs = p.t - p.w;
    this.clock.offsetMs = this.clockOffsetMs;
    this.pipeline.sweep(p.t);
  }

  private applyTicks(p: TickBatchPayload): void {
    const t = p.ticks;
    const byClass = this.symbolsOf(p.class);
    for (let i = 0; i < t.length; ) {
      const kind = t[i];
      const symbol = t[i + 1] as string;
      let symId = byClass.get(symbol);
      if (symId === undefined) symId = this.resolve(p.class, symbol, byClass);
      const seq = t[i + 2] as number;
      const tsMs = t[i + 3] as number;
      if (kind === QUOTE) {
        if (symId >= 0) {
          const last = this.store.latest(symId)?.quoteSeq ?? 0;
          if (this.pipeline.applyQuote(symId, seq, tsMs, t[i + 4] as number, t[i + 5] as number, t[i + 6] as number | null, t[i + 7] as number | null, t[i + 8] as number | null) && seq !== last + 1) this.noteGap(symId, symbol, last, seq, tsMs);
        }
        i += 9;
      } else if (kind === TRADE) {
        if (symId >= 0) {
          const last = this.store.latest(symId)?.tradeSeq ?? 0;
          if (this.pipeline.applyTrade(symId, seq, tsMs, t[i + 4] as number, t[i + 5] as number | null, t[i + 6] as number | null) && seq !== last + 1) this.noteGap(symId, symbol, last, seq, tsMs);
        }
        i += 7;
      } else throw new Error(`unknown tick kind ${JSON.stringify(kind)}`);
    }
  }

  /** A seq ahead of the next: ticks between were never applied here. Bars of that minute are not compared. */
  private noteGap(symId: number, symbol: string, last: number, seq: number, tsMs: number): void {
    if (tsMs > (this.compareAfterMs[symId] ?? -Infinity)) this.compareAfterMs[symId] = tsMs;
    if (last === 0) return;
    this.seqGaps++;
    this.warnOnce(`gap:${symId}`, `warning: edge: ${symbol} jumped from seq ${last} to ${seq}: this edge never got the ticks between`);
  }

  private applyBar(p: BarPayload): void {
    const symId = this.symbolsOf(p.class).get(p.symbol) ?? this.resolve(p.class, p.symbol, this.symbolsOf(p.class));
    if (symId < 0) return;
    const [t, o, h, l, c, v] = p.bar;
    this.matchBar(symId, { t, o, h, l, c, v }, false);
  }

  /** A registry entry of the ingest node: learned when this edge lacks the symbol (a venue's instrument). */
  private applySymbol(p: SymbolPayload): void {
    const e = p.entry;
    if (this.store.registry.resolve(e.assetClass, e.symbol) !== undefined) return;
    this.store.registry.upsert([e]);
    const entry = this.store.registry.resolve(e.assetClass, e.symbol);
    if (entry === undefined) return;
    this.pipeline.addLine(entry);
    this.symbolsOf(e.assetClass).set(e.symbol, entry.id);
    this.log(`edge: learned ${e.assetClass} ${e.symbol} (${e.name}) from the ingest node`);
  }

  private symbolsOf(assetClass: AssetClass): Map<string, number> {
    let m = this.symIds.get(assetClass);
    if (m === undefined) {
      m = new Map();
      this.symIds.set(assetClass, m);
    }
    return m;
  }

  /** The symbol's id, with a line in the ingest path; -1 (remembered) for a symbol this edge does not know. */
  private resolve(assetClass: AssetClass, symbol: string, byClass: Map<string, number>): number {
    const entry: SymbolEntry | undefined = this.store.registry.resolve(assetClass, symbol);
    if (entry === undefined) {
      this.skippedMessages++;
      this.warnOnce(`unknown:${assetClass}:${symbol}`, `error: edge: ${assetClass} ${symbol} is not in this edge's registry and its entry was not in the stream; its ticks are skipped`);
      return -1;
    }
    if (!this.pipeline.hasLine(entry.id)) this.pipeline.addLine(entry);
    byClass.set(symbol, entry.id);
    return entry.id;
  }

  /** Compares the ingest node's sealed bar with the edge's own for the same minute, whichever comes first. */
  private matchBar(symId: number, bar: Readonly<Bar>, isOwn: boolean): void {
    if (bar.t <= (this.compareAfterMs[symId] ?? -Infinity)) return;
    const key = `${symId}:${bar.t}`;
    const values: BarValues = [bar.t, bar.o, bar.h, bar.l, bar.c, bar.v];
    const other = this.unmatched.get(key);
    if (other === undefined || other.isOwn === isOwn) {
      this.unmatched.set(key, { isOwn, bar: values });
      if (this.unmatched.size > MAX_UNMATCHED_BARS) this.unmatched.delete(this.unmatched.keys().next().value!);
      return;
    }
    this.unmatched.delete(key);
    if (values.every((x, i) => x === other.bar[i])) return;
    this.barMismatches++;
    const [own, theirs] = isOwn ? [values, other.bar] : [other.bar, values];
    const symbol = this.store.registry.get(symId)?.symbol ?? String(symId);
    this.warnOnce('bar-mismatch', `error: edge: the ${symbol} minute bar at ${new Date(bar.t).toISOString()} differs from the ingest node's (edge ${JSON.stringify(own)}, ingest ${JSON.stringify(theirs)}); further differences are counted in /health`);
  }

  private warnOnce(key: string, line: string): void {
    if (this.warned.has(key)) return;
    if (this.warned.size < 1000) this.warned.add(key);
    this.log(line);
  }
}
