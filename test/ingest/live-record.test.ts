// The live recorder turns the feeds' own states into stretches in the store: a feed counts from the
// first poll that sees it live to the last, a renewed connection starts a new stretch, a stop ends
// every stretch where its feed was last seen live. Driven by a manual clock and explicit polls.
import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../../src/clock.ts';
import type { FeedHealth, FeedState } from '../../src/domain/feed.ts';
import { HOUR_MS } from '../../src/domain/timeframes.ts';
import { LiveRecorder, type FeedStates } from '../../src/ingest/live-record.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const T0 = Date.UTC(2026, 2, 4, 15, 30);
const S = 1000;

class Feeds implements FeedStates {
  readonly states = new Map<string, { state: FeedState; since: number | null }>();
  constructor(private readonly ids: Record<string, number[]>) {
    for (const id of Object.keys(ids)) this.states.set(id, { state: 'connecting', since: null });
  }
  set(id: string, state: FeedState, since: number | null = 0): void {
    this.states.set(id, { state, since });
  }
  health(): FeedHealth[] {
    return [...this.states].map(([id, s]) => ({ id, state: s.state, connectedSinceMs: s.since, lastMessageMs: null, messagesPerSecond: 0, reconnects: 0, parseErrors: 0, instruments: 1, reason: null }));
  }
  supplied(): Map<string, number[]> {
    return new Map(Object.entries(this.ids));
  }
}

describe('LiveRecorder', () => {
  test('live, stale, live again after a reconnect, then stopped: three stretches, each from poll to poll', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    const clock = new ManualClock(T0);
    const feeds = new Feeds({ venue: [1, 2], other: [3] });
    const recorder = new LiveRecorder(store, clock, feeds);
    const pollAt = (offsetS: number) => {
      clock.set(T0 + offsetS * S);
      recorder.poll();
    };
    pollAt(0);
    feeds.set('venue', 'live', 1);
    pollAt(1);
    pollAt(60);
    feeds.set('venue', 'stale', null);
    pollAt(61);
    feeds.set('venue', 'live', 2);
    pollAt(62);
    pollAt(90);
    // Reconnected between two polls: the moments in between may have been down.
    feeds.set('venue', 'live', 3);
    pollAt(100);
    pollAt(120);
    clock.set(T0 + 125 * S);
    recorder.stop();
    expect(store.liveIntervals(1, T0 - 60 * S, T0 + 600 * S)).toEqual([
      { fromMs: T0 + 1 * S, toMs: T0 + 60 * S },
      { fromMs: T0 + 62 * S, toMs: T0 + 90 * S },
      { fromMs: T0 + 100 * S, toMs: T0 + 125 * S },
    ]);
    expect(store.liveIntervals(3, T0 - 60 * S, T0 + 600 * S)).toEqual([]);
    await store.close();
  });

  test('a feed that supplies no served symbol records nothing; one that fails ends its stretch', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    const clock = new ManualClock(T0);
    const feeds = new Feeds({ empty: [], venue: [4] });
    feeds.set('empty', 'live');
    feeds.set('venue', 'live');
    const recorder = new LiveRecorder(store, clock, feeds);
    recorder.poll();
    clock.advance(30 * S);
    recorder.poll();
    feeds.set('venue', 'failed', null);
    clock.advance(30 * S);
    recorder.poll();
    expect(store.liveIntervals(4, T0 - HOUR_MS, T0 + HOUR_MS)).toEqual([{ fromMs: T0, toMs: T0 + 30 * S }]);
    expect(store.liveIntervals(0, T0 - HOUR_MS, T0 + HOUR_MS)).toEqual([]);
    recorder.stop();
    await store.close();
  });
});
