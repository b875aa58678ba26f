// `--role edge`: follows the ingest node's stream MDS_TICKS in stream order and applies each message
// (stream-applier.ts). The stream sequence applied is stored with the data in one transaction (the
// store's replica position); every (re)start, reconnect or NATS restart consumes from the next one,
// so each message is applied once across kill -9, NATS outages and restarts. An ordered consumer
// (no acks, flow-controlled, remade by us from the stored position) rather than a durable one: the
// position in LMDB is the truth, and a second copy of it on the server could only disagree.
import { jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { EdgeClusterStatus } from '../domain/cluster-status.ts';
import { systemClock, type OffsetClock } from '../clock.ts';
import type { Pipeline } from '../ingest/pipeline.ts';
import type { Store } from '../store/index.ts';
import type { NatsLink } from './link.ts';
import { TICKS_STREAM } from './nats.ts';
import { StreamApplier } from './stream-applier.ts';

/** Messages asked for per pull (each a batch of ticks). */
const PULL_MESSAGES = 512;
/** A pull open this long is renewed; the client misses heartbeats after two halves of it. */
const PULL_EXPIRES_MS = 5000;
/** A consumer left behind (an edge killed) is removed by the server after this. */
const CONSUMER_INACTIVE_MS = 30_000;
const RETRY_MS = 500;

/** Sets where an edge's store resumes the stream: the last stream sequence its data includes (a snapshot bootstrap); durable on return. */
export async function setEdgeResumePoint(store: Store, streamSeq: number, clockOffsetMs: number | null = store.replicaPosition()?.clockOffsetMs ?? null): Promise<void> {
  if (!Number.isInteger(streamSeq) || streamSeq < 0) throw new Error(`a stream sequence is a whole number from 0, got ${streamSeq}`);
  store.setReplicaPosition({ streamSeq, clockOffsetMs });
  await store.flush();
}

export class EdgeReplica {
  private streamSeq: number;
  private lagMessages: number | null = null;
  /** Wall time (ms) the stream stored the newest applied message. */
  private lastStoredMs: number | null = null;
  private readonly startedMs = systemClock.nowMs();
  private readonly applier: StreamApplier;
  /** Bumped on every (re)start of the consumer: an older one's loop gives up. */
  private generation = 0;
  private messages: ConsumerMessages | null = null;
  private isStopped = false;
  private resolveClockSynced: () => void = () => {};
  /** Whether the clock follows the ingest node's (a stored offset, or a sweep seen): only then is the offset stored. */
  private isClockKnown = false;
  /** Resolves once the edge's clock is its ingest node's: from the stored position, or the first sweep. */
  readonly clockSynced = new Promise<void>((resolve) => (this.resolveClockSynced = resolve));

  constructor(
    private readonly link: NatsLink,
    private readonly store: Store,
    private readonly clock: OffsetClock,
    pipeline: Pipeline,
    private readonly log: (line: string) => void,
    private readonly maxLagMs: number,
  ) {
    const saved = store.replicaPosition();
    this.streamSeq = saved?.streamSeq ?? 0;
    // A store made from a snapshot has a position but no offset yet: its clock is not the ingest
    // node's until the first sweep, and time-based work (retention) must not run on it before.
    if (saved !== null && saved.clockOffsetMs !== null) this.followClock(saved.clockOffsetMs);
    this.applier = new StreamApplier(store, pipeline, log);
    link.onUp((nc) => void this.follow(nc));
    link.onDown(() => this.closeConsumer());
    log(this.streamSeq > 0 ? `edge: resuming the stream ${TICKS_STREAM} after sequence ${this.streamSeq}` : `edge: following the stream ${TICKS_STREAM} from its first message`);
  }

  private followClock(offsetMs: number): void {
    this.clock.offsetMs = offsetMs;
    this.isClockKnown = true;
    this.resolveClockSynced();
  }

  status(): Omit<EdgeClusterStatus, 'bootstrap' | 'partialHistory'> {
    const nowMs = systemClock.nowMs();
    const lagMs = this.lastStoredMs === null ? null : Math.max(0, Math.round(nowMs - this.lastStoredMs));
    let reason: string | null = null;
    if (this.link.state !== 'connected') reason = `not connected to NATS (${this.link.state}): serving what this edge has, which may be behind`;
    else if (lagMs === null) {
      if (nowMs - this.startedMs > this.maxLagMs) reason = `no message from the stream ${TICKS_STREAM} yet (is the ingest node running?)`;
    } else if (lagMs > this.maxLagMs) {
      reason = (this.lagMessages ?? 0) > 0 ? `${lagMs} ms behind the stream (${this.lagMessages} messages to apply; limit ${this.maxLagMs} ms)` : `no message from the ingest node for ${lagMs} ms (limit ${this.maxLagMs} ms): is it running?`;
    }
    return { role: 'edge', nats: this.link.state, streamSeq: this.streamSeq, lagMessages: this.lagMessages, lagMs, maxLagMs: this.maxLagMs, barMismatches: this.applier.barMismatches, seqGaps: this.applier.seqGaps, skippedMessages: this.applier.skippedMessages, historyMessages: this.applier.historyMessages, reason };
  }

  async stop(): Promise<void> {
    this.isStopped = true;
    this.closeConsumer();
    this.applier.close();
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
        // Only the current consumer's messages count: one being closed may still deliver a few.
        const callback = (m: JsMsg) => {
          if (generation === this.generation) this.apply(m);
        };
        const messages = await consumer.consume({ callback, max_messages: PULL_MESSAGES, expires: PULL_EXPIRES_MS });
        if (this.isStopped || generation !== this.generation) {
          void messages.close().catch(() => {});
          return;
        }
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
    this.applier.apply(m.subject, m.data);
    // The edge's clock follows the ingest node's, as its sweeps tell.
    const offsetMs = this.applier.clockOffsetMs;
    if (offsetMs !== null) this.followClock(offsetMs);
    this.streamSeq = seq;
    const info = m.info;
    this.lagMessages = info.pending;
    this.lastStoredMs = info.timestampNanos / 1_000_000;
    this.store.setReplicaPosition({ streamSeq: seq, clockOffsetMs: this.isClockKnown ? this.clock.offsetMs : null });
  }
}
