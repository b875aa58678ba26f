// Feeds' live stretches: read back at once in the writing process, written to disk every
// LIVE_PERSIST_EVERY_MS and when a stretch ends, so a process that stops without ending its
// stretches (a crash) leaves the last end written; per symbol, across feeds, split at a day.
import { describe, expect, test } from 'bun:test';
import { DAY_MS, HOUR_MS } from '../../src/domain/timeframes.ts';
import { Store } from '../../src/store/index.ts';
import { LIVE_PERSIST_EVERY_MS } from '../../src/store/live-intervals.ts';
import { tempDir } from '../support/temp-dir.ts';

const T0 = Date.UTC(2026, 2, 4, 15, 30);
const S = 1000;

describe('live intervals', () => {
  test('a stretch reads back at once, per symbol the feed supplies, and after a reopen once it ended', async () => {
    using dir = tempDir();
    let store = Store.open({ dataDir: dir.path });
    store.recordLive('venue-a', T0, [3, 1, 2]);
    store.recordLive('venue-a', T0 + 5 * S, [3, 1, 2]);
    expect(store.liveIntervals(1, T0 - HOUR_MS, T0 + HOUR_MS)).toEqual([{ fromMs: T0, toMs: T0 + 5 * S }]);
    expect(store.liveIntervals(9, T0 - HOUR_MS, T0 + HOUR_MS)).toEqual([]);
    store.recordDown('venue-a');
    await store.close();
    store = Store.open({ dataDir: dir.path });
    expect(store.liveIntervals(3, T0 - HOUR_MS, T0 + HOUR_MS)).toEqual([{ fromMs: T0, toMs: T0 + 5 * S }]);
    await store.close();
  });

  test('without an end (a crash), the last end written stands: at most LIVE_PERSIST_EVERY_MS behind', async () => {
    using dir = tempDir();
    let store = Store.open({ dataDir: dir.path });
    for (let s = 0; s <= 40; s++) store.recordLive('venue-a', T0 + s * S, [1]);
    expect(store.liveIntervals(1, T0, T0 + HOUR_MS)).toEqual([{ fromMs: T0, toMs: T0 + 40 * S }]);
    // Closing writes what was handed to the write queue; the open stretch's newest end was not.
    await store.close();
    store = Store.open({ dataDir: dir.path });
    const [stretch] = store.liveIntervals(1, T0, T0 + HOUR_MS);
    expect(stretch!.fromMs).toBe(T0);
    expect(stretch!.toMs).toBeLessThanOrEqual(T0 + 40 * S);
    expect(stretch!.toMs).toBeGreaterThanOrEqual(T0 + 40 * S - LIVE_PERSIST_EVERY_MS);
    await store.close();
  });

  test('stretches of several feeds and runs merge per symbol; a window sees only what overlaps it', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    store.recordLive('a', T0, [1, 2]);
    store.recordLive('a', T0 + 10 * S, [1, 2]);
    store.recordLive('b', T0 + 8 * S, [2]);
    store.recordLive('b', T0 + 30 * S, [2]);
    store.recordDown('a');
    store.recordLive('a', T0 + 60 * S, [1, 2]);
    store.recordLive('a', T0 + 70 * S, [1, 2]);
    expect(store.liveIntervals(1, T0 - HOUR_MS, T0 + HOUR_MS)).toEqual([
      { fromMs: T0, toMs: T0 + 10 * S },
      { fromMs: T0 + 60 * S, toMs: T0 + 70 * S },
    ]);
    expect(store.liveIntervals(2, T0 - HOUR_MS, T0 + HOUR_MS)).toEqual([
      { fromMs: T0, toMs: T0 + 30 * S },
      { fromMs: T0 + 60 * S, toMs: T0 + 70 * S },
    ]);
    expect(store.liveIntervals(2, T0 + 40 * S, T0 + 50 * S)).toEqual([]);
    expect(store.liveIntervals(2, T0 + 70 * S, T0 + HOUR_MS)).toEqual([]);
    await store.close();
  });

  test('a feed live for days is split into records of less than a day that read as one stretch, from disk too', async () => {
    using dir = tempDir();
    let store = Store.open({ dataDir: dir.path });
    for (let t = T0; t <= T0 + 3 * DAY_MS; t += 10 * 60 * S) store.recordLive('a', t, [1]);
    store.recordDown('a');
    expect(store.liveIntervals(1, T0 - DAY_MS, T0 + 4 * DAY_MS)).toEqual([{ fromMs: T0, toMs: T0 + 3 * DAY_MS }]);
    await store.close();
    store = Store.open({ dataDir: dir.path });
    // A window in the middle of the third day still finds the record that began before it.
    const [inWindow, ...more] = store.liveIntervals(1, T0 + 2.5 * DAY_MS, T0 + 2.6 * DAY_MS);
    expect(more).toEqual([]);
    expect(inWindow!.fromMs < T0 + 2.5 * DAY_MS && inWindow!.toMs > T0 + 2.6 * DAY_MS && inWindow!.toMs - inWindow!.fromMs < DAY_MS).toBe(true);
    await store.close();
  });

  test('a clock that steps back never shortens a stretch; a new run on the same millisecond keeps both', async () => {
    using dir = tempDir();
    let store = Store.open({ dataDir: dir.path });
    store.recordLive('a', T0, [1]);
    store.recordLive('a', T0 + 20 * S, [1]);
    store.recordLive('a', T0 + 5 * S, [1]);
    store.recordDown('a');
    await store.close();
    store = Store.open({ dataDir: dir.path });
    store.recordLive('a', T0, [5]);
    store.recordLive('a', T0 + 30 * S, [5]);
    store.recordDown('a');
    await store.close();
    store = Store.open({ dataDir: dir.path });
    expect(store.liveIntervals(1, T0, T0 + HOUR_MS)).toEqual([{ fromMs: T0, toMs: T0 + 20 * S }]);
    expect(store.liveIntervals(5, T0, T0 + HOUR_MS)).toEqual([{ fromMs: T0, toMs: T0 + 30 * S }]);
    await store.close();
  });
});
