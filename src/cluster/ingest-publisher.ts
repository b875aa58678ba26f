// `--role ingest`: what the ingest path makes (stream-writer.ts), published to the JetStream stream
// MDS_TICKS through the ordered, bounded outbox; the stream is created when missing. Message ids are
// this run's id and a counter, so a resend after a reconnect is dropped by JetStream's dedupe.
import { randomBytes } from 'node:crypto';
import { DiscardPolicy, jetstream, jetstreamManager, RetentionPolicy, StorageType, type JetStreamManager } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import type { IngestClusterStatus } from '../domain/cluster-status.ts';
import type { Pipeline } from '../ingest/pipeline.ts';
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

export class IngestPublisher {
  private readonly outbox: Outbox;
  private readonly writer: StreamWriter;
  private readonly runId = randomBytes(9).toString('base64url');
  private messageNo = 0;
  private nc: NatsConnection | null = null;

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
    this.writer = new StreamWriter(pipeline, (subject, data, ticks) => this.outbox.enqueue(subject, data, `${this.runId}.${++this.messageNo}`, ticks), () => systemClock.nowMs());
  }

  status(): Omit<IngestClusterStatus, 'snapshot' | 'snapshotError'> {
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

  /** Publishes what is open and waits (a while) for the queue to be acked; then publishes nothing more. */
  async stop(): Promise<void> {
    this.writer.close();
    const left = () => this.outbox.report().queued;
    if (this.link.isConnected) {
      if (!(await this.outbox.drained(STOP_DRAIN_MS))) this.log(`warning: stopping with ${left()} messages not acked by JetStream; edges miss them`);
    } else if (left() > 0) this.log(`warning: stopping while NATS is away: ${left()} queued messages are not published; edges miss them`);
    this.outbox.stop();
  }

  private async ensureStream(): Promise<void> {
    const nc = this.nc;
    if (nc === null) throw new Error('not connected to NATS');
    await ensureTicksStream(await jetstreamManager(nc));
  }
}
