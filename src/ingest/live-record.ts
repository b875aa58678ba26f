// Records when each feed is live, for the coverage report ("no bar, yet a feed was live: nothing
// traded"). Polls the feeds' own state once a second and tells the store, which writes a stretch
// every few seconds: the cost is per feed and second, never per tick. A feed counts from the first
// poll that sees it `live` to the last one; one whose connection was renewed between two polls
// (`connectedSinceMs` changed) starts a new stretch, since it may have been down in between.
import type { Clock } from '../clock.ts';
import type { FeedHealth } from '../domain/feed.ts';

/** How often the feeds' states are read. */
export const LIVE_POLL_MS = 1000;

/** The feeds, as the recorder reads them (the FeedSet). */
export interface FeedStates {
  health(): FeedHealth[];
  /** Symbol ids each feed supplies, by feed id (fixed once the feeds have started). */
  supplied(): Map<string, number[]>;
}

/** Where stretches go (the store). */
export interface LiveSink {
  recordLive(feedId: string, nowMs: number, symIds: readonly number[]): void;
  recordDown(feedId: string): void;
}

export class LiveRecorder {
  private timer: ReturnType<typeof setInterval> | null = null;
  /** The feeds seen live at the last poll, with the connection time they reported. */
  private readonly live = new Map<string, number | null>();
  private supplied: Map<string, number[]> | null = null;

  constructor(
    private readonly sink: LiveSink,
    private readonly clock: Clock,
    private readonly feeds: FeedStates,
    private readonly log: (line: string) => void = () => {},
    private readonly pollMs = LIVE_POLL_MS,
  ) {}

  /** Polls now and then every `pollMs`. */
  start(): void {
    if (this.timer !== null) return;
    this.poll();
    this.timer = setInterval(() => this.poll(), this.pollMs);
  }

  /** Reads every feed's state once and records what it says. */
  poll(): void {
    try {
      const nowMs = this.clock.nowMs();
      this.supplied ??= this.feeds.supplied();
      for (const h of this.feeds.health()) {
        const symIds = this.supplied.get(h.id) ?? [];
        const wasLive = this.live.has(h.id);
        if (h.state !== 'live' || symIds.length === 0) {
          if (wasLive) this.down(h.id);
          continue;
        }
        if (wasLive && this.live.get(h.id) !== h.connectedSinceMs) this.sink.recordDown(h.id);
        this.live.set(h.id, h.connectedSinceMs);
        this.sink.recordLive(h.id, nowMs, symIds);
      }
    } catch (err) {
      this.log(`error: recording when feeds are live failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  /** A last poll, then every stretch ends where its feed was last seen live (the server is stopping). */
  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.poll();
    for (const id of [...this.live.keys()]) this.down(id);
  }

  private down(feedId: string): void {
    this.live.delete(feedId);
    this.sink.recordDown(feedId);
  }
}
