// The store on a disk that fills up (a real tmpfs, ENOSPC): a failed commit loses no completed bar
// nor the latest values, raw ticks waiting for a commit stay bounded with the oldest dropped and
// counted, reads go on, and the next commit once there is room writes everything kept.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Bar } from '../../src/domain/bar.ts';
import { BAR_FIELDS, Store } from '../../src/store/index.ts';
import { BLOCK_TICKS } from '../../src/store/ticks.ts';
import { until } from '../support/cli.ts';
import { mountSmallDisk, type SmallDisk } from '../support/full-disk.ts';

const RING = 128;
const MINUTE = 60_000;
const barAt = (i: number): Bar => ({ t: i * MINUTE, o: i, h: i + 2, l: i - 1, c: i + 1, v: i });

function barTimes(store: Store, fromMs: number, toMs: number): number[] {
  const slice = store.barsInRange(1, '1m', fromMs, toMs);
  return Array.from({ length: slice.count }, (_, i) => slice.data[i * BAR_FIELDS]!);
}

let disk: SmallDisk;
beforeAll(() => {
  disk = mountSmallDisk(16);
});
afterAll(() => disk.unmount());

describe('store writes on a full disk', () => {
  test('keep bars and latest values, bound and count dropped ticks, and write everything kept once there is room', async () => {
    const dataDir = join(disk.path, 'data');
    mkdirSync(dataDir);
    let store = Store.open({ dataDir, ringCapacity: RING, nowMs: () => 1234 });
    for (let i = 1; i <= 1000; i++) store.appendBar(1, '1m', barAt(i));
    let seq = 0;
    for (; seq < 500; ) seq = store.appendQuote(1, 1000 + seq, 100 + seq, 101 + seq, null, null);
    await store.flush();

    const filler = disk.fill();
    // Completed bars over several chunks, and far more ticks than the ring holds.
    for (let i = 1001; i <= 4000; i++) store.appendBar(1, '1m', barAt(i));
    for (; seq < 20_000; ) {
      seq = store.appendQuote(1, 1000 + seq, 100 + seq, 101 + seq, null, null);
      // A flush now and then, as the queue's timer does: each one fails.
      if (seq % 5000 === 0) await expect(store.flush()).rejects.toThrow();
    }
    await expect(store.flush()).rejects.toThrow();
    await until(async () => store.writeStatus().failure !== 'a commit failed', 'the cause of the failure');
    const failing = store.writeStatus();
    expect(failing.failure).toMatch(/^(No space left on device|Input\/output error)$/);
    expect(failing.failingSinceMs).toBe(1234);
    // One ring: at most the ring's blocks wait unwritten; the rest were dropped, oldest first.
    expect(failing.unwrittenTicks).toBeLessThanOrEqual(RING + BLOCK_TICKS);
    expect(failing.droppedTicks).toBeGreaterThan(19_000 - RING - 2 * BLOCK_TICKS);
    expect(failing.droppedTicks % BLOCK_TICKS).toBe(0);

    // Reads go on: every bar, the latest quote, the newest ticks.
    expect(barTimes(store, 0, 5000 * MINUTE)).toEqual(Array.from({ length: 4000 }, (_, i) => (i + 1) * MINUTE));
    expect(store.latest(1)?.quoteSeq).toBe(20_000);
    const newest = store.ticksSince(1, 'quote', 0, RING);
    expect(newest.map((t) => t[5])).toEqual(Array.from({ length: RING }, (_, i) => 20_000 - RING + 1 + i));

    rmSync(filler);
    await store.flush();
    expect(store.writeStatus()).toMatchObject({ failure: null, failingSinceMs: null, droppedTicks: failing.droppedTicks });
    expect(await store.close()).toBe(true);

    store = Store.open({ dataDir, ringCapacity: RING });
    try {
      expect(barTimes(store, 0, 5000 * MINUTE)).toEqual(Array.from({ length: 4000 }, (_, i) => (i + 1) * MINUTE));
      const bars = store.barsInRange(1, '1m', 3999 * MINUTE, 4000 * MINUTE);
      expect(Array.from(bars.data)).toEqual([3999 * MINUTE, 3999, 4001, 3998, 4000, 3999]);
      expect(store.latest(1)?.quote).toEqual({ bid: 100 + 19_999, ask: 101 + 19_999, bidSize: null, askSize: null, tsMs: 1000 + 19_999 });
      expect(store.ticksSince(1, 'quote', 0, RING).map((t) => t[5])).toEqual(newest.map((t) => t[5]));
    } finally {
      await store.close();
    }
  });
});
