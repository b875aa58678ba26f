// `--role ingest`: a store snapshot in the NATS object store for new edges (snapshots.ts), taken
// once the node is connected and JetStream acked a first message, then every --snapshot-every
// minutes. The resume point is read before the store is flushed and copied, so the copy holds every
// tick the stream carries up to it (a message leaves only once the store committed what it carries,
// see ingest-publisher.ts): no need to wait for an empty queue, which a busy feed may never have.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Clock } from '../clock.ts';
import type { SnapshotStatus } from '../domain/cluster-status.ts';
import type { Store } from '../store/index.ts';
import { VERSION } from '../version.ts';
import type { NatsLink } from './link.ts';
import { publishSnapshot } from './snapshots.ts';

/** Copies are made in the data dir (a store's size: often more than a tmpfs holds), under this prefix. */
const TMP_PREFIX = '.snapshot-tmp-';
/** How often the first snapshot's preconditions (connected, queue published) are looked at. */
const READY_CHECK_MS = 1000;

export interface SnapshotSource {
  /** The newest stream sequence JetStream acked. */
  streamSeq(): number;
}

export class SnapshotPublisher {
  private last: SnapshotStatus | null = null;
  private failure: string | null = null;
  private running: Promise<void> | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private stopped = false;

  constructor(
    private readonly link: NatsLink,
    private readonly store: Store,
    private readonly dataDir: string,
    private readonly source: SnapshotSource,
    private readonly clock: Clock,
    private readonly everyMs: number,
    private readonly log: (line: string) => void,
  ) {}

  start(): void {
    // What a crash left behind.
    for (const name of readdirSync(this.dataDir)) if (name.startsWith(TMP_PREFIX)) rmSync(join(this.dataDir, name), { recursive: true, force: true });
    this.schedule(READY_CHECK_MS);
  }

  status(): { last: SnapshotStatus | null; error: string | null } {
    return { last: this.last, error: this.failure };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private async tick(): Promise<void> {
    const nc = this.link.nc;
    // The first one waits for a connected node whose stream position is known (its first ack).
    if (nc === null || !this.link.isConnected || this.source.streamSeq() === 0) return this.schedule(READY_CHECK_MS);
    this.running = this.take(nc);
    await this.running;
    this.running = null;
    this.schedule(this.failure === null ? this.everyMs : Math.min(this.everyMs, 60_000));
  }

  private async take(nc: NonNullable<NatsLink['nc']>): Promise<void> {
    const started = performance.now();
    const streamSeq = this.source.streamSeq();
    try {
      await this.store.flush();
      const tmp = mkdtempSync(join(this.dataDir, TMP_PREFIX));
      try {
        const info = await publishSnapshot(nc, this.dataDir, tmp, { streamSeq, takenMs: this.clock.nowMs(), version: VERSION });
        const seconds = (performance.now() - started) / 1000;
        this.last = { streamSeq: info.streamSeq, takenMs: info.takenMs, bytes: info.bytes, seconds };
        this.failure = null;
        this.log(`snapshot for new edges: ${(info.bytes / 1e6).toFixed(1)} MB up to stream sequence ${streamSeq}, in ${seconds.toFixed(1)} s`);
      } finally {
        rmSync(tmp, { recursive: true, force: true });
      }
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      if (message !== this.failure) this.log(`warning: the snapshot for new edges failed: ${message}; trying again`);
      this.failure = message;
    }
  }
}
