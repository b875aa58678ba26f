// `--role ingest`: what the ingest path makes (stream-writer.ts), published to the JetStream stream
// MDS_TICKS through the ordered, bounded outbox; the stream is created when missing. Message ids are
// this run's id and a counter, so a resend after a reconnect is dropped by JetStream's dedupe.
// A message leaves only once the store has committed what it carries: an edge never holds a tick
// this node could lose in a crash (it would then number another tick the same, and the edge would
// take that one for a repeat). History messages (history-publisher.ts) join the same queue.
import { randomBytes } from 'node:crypto';
import { DiscardPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { IngestClusterStatus } from '../domain/cluster-status.ts';
import type { Pipeline } from '../ingest/pipeline.ts';
import type { Store } from '../store/index.ts';
import type { HistoryMessage } from './history-publisher.ts';
import { systemClock } from '../clock.ts';
import type { NatsLink } from './link.ts';
import { TICKS_STREAM, TICKS_STREAM_SUBJECTS } from './nats.ts';
import { Outbox } from './outbox.ts';
import { StreamWriter } from './stream-writer.ts';

/** How long a clean stop waits for the queue to be acked. */
const STOP_DRAIN_MS = 5000;
/** Stream limits when the ingest node creates the stream (an operator may change them with the nats CLI). */
const STREAM_MAX_AGE_MS = 24 * 3_600_000;
const STREAM_DUPLICATE_WINDOW_MS = 120_000;
const NANOS_PER_MS = 1_000_000;

/** Creates MDS_TICKS when missing (file storage, 24 h max age, 2 min duplicate window); adds our subjects to one that lacks them. */
async function ensureTicksStream(jsm: JetStreamManager): Promise<void> {
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

/** A message waiting for the store's commit, or a callback run once everything before it is queued. */
type Held = { subject: string; data: Uint8Array; ticks: number } | (() => void);

export class IngestPublisher {
  private readonly outbox: Outbox;
  private held: Held[] = [];
  private isFlushing = false;
  private hasWarnedUnflushed = false;
  /** The newest sweep of the ingest path (service time). */
  lastSweepMs = -Infinity;
  private readonly writer: StreamWriter;
  private readonly runId = randomBytes(9).toString('base64url');
  private messageNo = 0;
  private nc: NatsConnection | null = null;

  constructor(
    private readonly link: NatsLink,
    private readonly store: Store,
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
    this.writer = new StreamWriter(pipeline, (subject, data, ticks) => this.hold({ subject, data, ticks }), () => systemClock.nowMs());
    pipeline.subscribeSweeps((nowMs) => {
      this.lastSweepMs = nowMs;
    });
  }

  /** Queues history messages after everything held; resolves true once JetStream acked them all. */
  publishHistory(messages: HistoryMessage[]): Promise<boolean> {
    for (const [subject, data] of messages) this.held.push({ subject, data, ticks: 0 });
    return new Promise((resolve) => this.hold(() => void this.outbox.settled().then(resolve)));
  }

  private hold(item: Held): void {
    this.held.push(item);
    if (!this.isFlushing) this.flushHeld();
  }

  /** Commits the store, then queues what was held before the commit (in order); repeats while more came. */
  private flushHeld(): void {
    this.isFlushing = true;
    const batch = this.held;
    this.held = [];
    const release = () => {
      for (const item of batch) {
        if (typeof item === 'function') item();
        else this.outbox.enqueue(item.subject, item.data, `${this.runId}.${++this.messageNo}`, item.ticks);
      }
      this.isFlushing = false;
      if (this.held.length > 0) this.flushHeld();
    };
    this.store.flush().then(release, (err: unknown) => {
      // Writes fail (a full disk): this node serves these ticks from memory, so do its edges.
      if (!this.hasWarnedUnflushed) this.log(`warning: publishing ticks the store could not commit yet (${err instanceof Error ? err.message : String(err)})`);
      this.hasWarnedUnflushed = true;
      release();
    });
  }

  status(): Omit<IngestClusterStatus, 'snapshot' | 'snapshotError' | 'historyPending'> {
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
      queued: c.queued + this.held.filter((h) => typeof h !== 'function').length,
      queuedBytes: c.queuedBytes,
      droppedMessages: c.droppedMessages,
      droppedTicks: c.droppedTicks,
      publishError: c.failure,
      reason,
    };
  }

  /** Publishes what is open and waits (a while) for the queue to be acked; then publishes nothing more. */
  async stop(): Promise<void> {
    this.writer.close();
    await this.heldQueued();
    const left = () => this.outbox.report().queued;
    if (this.link.isConnected) {
      if (!(await this.outbox.drained(STOP_DRAIN_MS))) this.log(`warning: stopping with ${left()} messages not acked by JetStream; edges miss them`);
    } else if (left() > 0) this.log(`warning: stopping while NATS is away: ${left()} queued messages are not published; edges miss them`);
    this.outbox.stop();
  }

  /** Resolves once everything held is in the outbox. */
  private heldQueued(): Promise<void> {
    if (!this.isFlushing && this.held.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.hold(resolve));
  }

  private async ensureStream(): Promise<void> {
    const nc = this.nc;
    if (nc === null) throw new Error('not connected to NATS');
    await ensureTicksStream(await jetstreamManager(nc));
  }
}
