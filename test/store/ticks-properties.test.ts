// The ticks ring under arbitrary feeds: whatever the capacity, the number of ticks and when
// flushes happen, before and after a reopen, it holds at most `capacity` ticks, exactly the newest ones, and any newest N
// read back in order with the values written (including nulls).
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

/** The quote written as tick number `seq`, as the ring reads it back: [tsMs, bid, ask, bidSize, askSize, seq]. */
function quoteOf(seq: number): number[] {
  return [1_000 + seq * 7, 100 + seq / 8, 101 + seq / 8, seq % 5 === 0 ? NaN : seq, 2 * seq, seq];
}

describe('ticks ring buffer properties', () => {
  test('bounded, wraps, and reads back the newest N in order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 128, max: 400 }),
        fc.integer({ min: 0, max: 2_000 }),
        fc.integer({ min: 0, max: 700 }),
        fc.integer({ min: 1, max: 500 }),
        fc.boolean(),
        async (capacity, count, flushEvery, newest, reopen) => {
          using dir = tempDir();
          let store = Store.open({ dataDir: dir.path, ringCapacity: capacity });
          try {
            for (let seq = 1; seq <= count; seq++) {
              const [tsMs, bid, ask, bidSize, askSize] = quoteOf(seq) as [number, number, number, number, number];
              store.appendQuote(7, tsMs, bid, ask, Number.isNaN(bidSize) ? null : bidSize, askSize);
              if (flushEvery > 0 && seq % flushEvery === 0) await store.flush();
            }
            if (reopen) {
              await store.close();
              store = Store.open({ dataDir: dir.path, ringCapacity: capacity });
            }
            const held = store.ticksSince(7, 'quote', 0, Number.MAX_SAFE_INTEGER);
            const expectedHeld = Math.min(count, capacity);
            expect(held.length).toBe(expectedHeld);
            expect(held).toEqual(Array.from({ length: expectedHeld }, (_, i) => quoteOf(count - expectedHeld + 1 + i)));
            const n = Math.min(newest, expectedHeld);
            const tail = store.ticksSince(7, 'quote', count - n, n);
            expect(tail).toEqual(held.slice(held.length - n));
          } finally {
            await store.close();
          }
        },
      ),
      { numRuns: 25 },
    );
  });
});
