// The ring's read API for tick history under arbitrary feeds: whatever the capacity, the count,
// the flushes and a reopen, `tickRetention` names the oldest tick held, and paging a time window
// through `ticksInWindow` (either order, any page size) gives exactly the held ticks of the window.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

/** Trade number `seq` as the ring reads it back: [tsMs, price, size, seq]; times repeat in pairs. */
function tradeOf(seq: number): number[] {
  return [10_000 + Math.floor(seq / 2) * 3, 50 + seq / 4, seq % 3 === 0 ? NaN : seq, seq];
}

describe('tick window reads', () => {
  test('pages of a time window, asc and desc, are the held ticks of the window', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 128, max: 300 }),
        fc.integer({ min: 0, max: 1_200 }),
        fc.integer({ min: 0, max: 400 }),
        fc.boolean(),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 1, max: 200 }),
        fc.boolean(),
        async (capacity, count, flushEvery, reopen, a, b, limit, desc) => {
          using dir = tempDir();
          let store = Store.open({ dataDir: dir.path, ringCapacity: capacity });
          try {
            for (let seq = 1; seq <= count; seq++) {
              const [tsMs, price, size] = tradeOf(seq) as [number, number, number];
              store.appendTrade(7, tsMs, price, Number.isNaN(size) ? null : size);
              if (flushEvery > 0 && seq % flushEvery === 0) await store.flush();
            }
            if (reopen) {
              await store.close();
              store = Store.open({ dataDir: dir.path, ringCapacity: capacity });
            }
            const first = Math.max(1, count - capacity + 1);
            const held = Array.from({ length: count - first + 1 }, (_, i) => tradeOf(first + i));
            const retention = store.tickRetention(7, 'trade');
            expect(retention).toEqual({ capacity, oldest: count === 0 ? null : { seq: first, tsMs: tradeOf(first)[0]! }, newestSeq: count });
            const fromMs = 10_000 + Math.min(a, b);
            const toMs = 10_000 + Math.max(a, b);
            const inWindow = held.filter((t) => t[0]! >= fromMs && t[0]! < toMs);
            const got: number[][] = [];
            let resume: number | null = null;
            for (let pages = 0; pages <= inWindow.length; pages++) {
              const { ticks, more } = store.ticksInWindow(7, 'trade', {
                fromMs,
                toMs,
                afterSeq: !desc && resume !== null ? resume : 0,
                beforeSeq: desc && resume !== null ? resume : Infinity,
                desc,
                limit,
              });
              expect(ticks.length).toBeLessThanOrEqual(limit);
              got.push(...ticks);
              if (!more) break;
              expect(ticks.length).toBe(limit);
              resume = ticks[ticks.length - 1]![3]!;
            }
            expect(got).toEqual(desc ? [...inWindow].reverse() : inWindow);
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
