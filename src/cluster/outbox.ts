// The ingest node's ordered publishing to JetStream: messages leave in the order they were queued,
// many acks outstanding at once (a publish never waits on the serving thread), at most MAX_IN_FLIGHT
// of them. Whatever may have been lost is sent again from the oldest message not acked, under the
// same message id, so JetStream drops what it had already stored: after a lost connection at once on
// the new one (what the old one still had in flight is sent again, ahead of anything newer), after a
// failed publish once every outstanding publish has settled. Either way nothing newer reaches the
// stream before an older message it may lack: the stream keeps queue order. While NATS is away the
// queue is bounded: past MAX_QUEUED_BYTES the oldest waiting messages are dropped, and counted.
import type { JetStreamClient } from '@nats-io/jetstream';

/** Publishes awaiting their ack at once. */
const MAX_IN_FLIGHT = 256;
/** Bytes of payload held for NATS (unsent and unacked) before the oldest are dropped. */
export const MAX_QUEUED_BYTES = 256 * 1024 * 1024;
/** A publish not acked within this is failed (and sent again). */
const PUBLISH_TIMEOUT_MS = 5000;
/** After a failure, how long until the next attempt while the link stays up. */
const RETRY_MS = 500;
/** Messages acked at the front before the array is compacted. */
const COMPACT_AT = 4096;

interface Outgoing {
  subject: string;
  data: Uint8Array;
  id: string;
  /** Ticks it carries (counted as dropped if it is). */
  ticks: number;
  acked: boolean;
}

export interface OutboxCounts {
  /** Messages stored by JetStream (duplicates of a resend not counted). */
  published: number;
  /** Ticks in them. */
  publishedTicks: number;
  /** Messages waiting for their ack or to be sent. */
  queued: number;
  queuedBytes: number;
  /** Messages and ticks dropped because NATS was away longer than the queue holds. */
  droppedMessages: number;
  droppedTicks: number;
  /** The stream sequence of the newest acked message (0 before the first). */
  streamSeq: number;
  /** Why the last publish failed, while publishing fails. */
  failure: string | null;
}

export class Outbox {
  private items: Outgoing[] = [];
  /** First message not acked. */
  private head = 0;
  /** Next message to send. */
  private next = 0;
  private inFlight = 0;
  private queuedBytes = 0;
  private js: JetStreamClient | null = null;
  /** A publish failed: nothing is sent until the outstanding ones settle and `resume` is called. */
  private isFailing = false;
  /** Bumped when the connection is lost: publishes of an older connection no longer hold up sending. */
  private connection = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  private drainWaiters: (() => void)[] = [];
  /** Messages removed from the front of `items` so far: `base + i` numbers a message for good. */
  private base = 0;
  /** Waiting for every message before `end` to be acked; `drops` is the dropped count when they began. */
  private settleWaiters: { end: number; drops: number; resolve: (isAcked: boolean) => void }[] = [];
  private readonly counts: OutboxCounts = { published: 0, publishedTicks: 0, queued: 0, queuedBytes: 0, droppedMessages: 0, droppedTicks: 0, streamSeq: 0, failure: null };
  private hasLoggedDrop = false;

  constructor(
    private readonly log: (line: string) => void,
    /** Called before sending again after a failure (the stream may have to be made again). */
    private readonly beforeRetry: () => Promise<void>,
    private readonly maxQueuedBytes = MAX_QUEUED_BYTES,
  ) {}

  report(): OutboxCounts {
    return { ...this.counts, queued: this.items.length - this.head, queuedBytes: this.queuedBytes };
  }

  /** Queues a message; `id` is its Nats-Msg-Id. */
  enqueue(subject: string, data: Uint8Array, id: string, ticks: number): void {
    if (this.queuedBytes + data.byteLength > this.maxQueuedBytes) this.dropOldest(data.byteLength);
    this.items.push({ subject, data, id, ticks, acked: false });
    this.queuedBytes += data.byteLength;
    this.pump();
  }

  /** The link is up with this client: send (again) from the oldest message not acked. */
  attach(js: JetStreamClient): void {
    this.js = js;
    this.resume();
  }

  /**
   * The link is down: stop sending, and on the next connection send again from the oldest message
   * not acked (what was in flight may be lost; an ack that still comes marks its message done).
   */
  detach(): void {
    this.js = null;
    this.connection++;
    this.inFlight = 0;
    this.next = this.head;
    this.isFailing = false;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  /**
   * Resolves once every message queued so far is acked or dropped: true when none was dropped
   * meanwhile (a history publisher then knows its messages are in the stream). Never times out.
   */
  settled(): Promise<boolean> {
    const end = this.base + this.items.length;
    const drops = this.counts.droppedMessages;
    if (this.base + this.head >= end) return Promise.resolve(true);
    return new Promise((resolve) => this.settleWaiters.push({ end, drops, resolve }));
  }

  /** Resolves once every queued message is acked, or after `timeoutMs`. */
  drained(timeoutMs: number): Promise<boolean> {
    if (this.head === this.items.length) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.drainWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  stop(): void {
    this.js = null;
    if (this.retryTimer !== null) clearTimeout(this.retryTimer);
    this.retryTimer = null;
  }

  private pump(): void {
    const js = this.js;
    if (js === null || this.isFailing) return;
    while (this.inFlight < MAX_IN_FLIGHT && this.next < this.items.length) {
      const item = this.items[this.next++]!;
      if (item.acked) continue;
      this.inFlight++;
      const connection = this.connection;
      js.publish(item.subject, item.data, { msgID: item.id, timeout: PUBLISH_TIMEOUT_MS, retries: 0 }).then(
        (ack) => {
          if (!item.acked) {
            item.acked = true;
            this.queuedBytes -= item.data.byteLength;
            if (!ack.duplicate) {
              this.counts.published++;
              this.counts.publishedTicks += item.ticks;
            }
            if (ack.seq > this.counts.streamSeq) this.counts.streamSeq = ack.seq;
          }
          this.advance();
          if (connection !== this.connection) return;
          this.inFlight--;
          this.counts.failure = null;
          if (this.isFailing) this.settleFailure();
          else this.pump();
        },
        (err: unknown) => {
          if (connection !== this.connection) return;
          this.inFlight--;
          const message = err instanceof Error ? err.message : String(err);
          if (!this.isFailing) {
            this.isFailing = true;
            if (this.counts.failure !== message) this.log(`warning: publishing to JetStream failed (${message}); sending again once NATS answers`);
          }
          this.counts.failure = message;
          this.settleFailure();
        },
      );
    }
  }

  /** After a failure, once nothing is outstanding: rewind to the oldest unacked message and retry. */
  private settleFailure(): void {
    if (this.inFlight > 0 || this.retryTimer !== null) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = null;
      this.resume();
    }, RETRY_MS);
  }

  private resume(): void {
    if (this.js === null || this.inFlight > 0) return;
    if (!this.isFailing) return this.pump();
    void this.beforeRetry().then(
      () => {
        if (this.inFlight > 0 || !this.isFailing) return;
        this.isFailing = false;
        this.next = this.head;
        this.pump();
      },
      (err: unknown) => {
        this.counts.failure = err instanceof Error ? err.message : String(err);
        this.settleFailure();
      },
    );
  }

  private advance(): void {
    const items = this.items;
    while (this.head < items.length && items[this.head]!.acked) this.head++;
    if (this.head >= COMPACT_AT && this.head * 2 >= items.length) {
      items.splice(0, this.head);
      this.next -= this.head;
      this.base += this.head;
      this.head = 0;
    }
    if (this.head === items.length) for (const w of this.drainWaiters.splice(0)) w();
    if (this.settleWaiters.length > 0) {
      const front = this.base + this.head;
      this.settleWaiters = this.settleWaiters.filter((w) => {
        if (w.end > front) return true;
        w.resolve(this.counts.droppedMessages === w.drops);
        return false;
      });
    }
  }

  /** Makes room for `bytes` by dropping the oldest messages not sent (only while none is outstanding ahead of them). */
  private dropOldest(bytes: number): void {
    while (this.queuedBytes + bytes > this.maxQueuedBytes && this.inFlight === 0 && this.next === this.head && this.head < this.items.length) {
      const item = this.items[this.head]!;
      item.acked = true;
      this.queuedBytes -= item.data.byteLength;
      this.counts.droppedMessages++;
      this.counts.droppedTicks += item.ticks;
      this.head++;
      this.next++;
    }
    if (!this.hasLoggedDrop && this.counts.droppedMessages > 0) {
      this.hasLoggedDrop = true;
      this.log(`error: NATS has been away longer than the publish queue holds (${Math.round(this.maxQueuedBytes / 1024 / 1024)} MiB): dropping the oldest messages; edges will miss those ticks (counted in /health)`);
    }
    this.advance();
  }
}
