import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import type { Bar } from '../../src/domain/bar.ts';
import { MINUTE_MS } from '../../src/domain/timeframes.ts';
import { BAR_FIELDS, Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const T0 = Date.UTC(2026, 0, 5);

function bars(n: number, stepMs = MINUTE_MS, start = T0): Bar[] {
  return Array.from({ length: n }, (_, i) => ({ t: start + i * stepMs, o: i, h: i + 2, l: i - 1, c: i + 1, v: i % 3 === 0 ? null : i * 10 }));
}

function unpack(data: Float64Array): Bar[] {
  const out: Bar[] = [];
  for (let i = 0; i < data.length; i += BAR_FIELDS) out.push({ t: data[i]!, o: data[i + 1]!, h: data[i + 2]!, l: data[i + 3]!, c: data[i + 4]!, v: Number.isNaN(data[i + 5]!) ? null : data[i + 5]! });
  return out;
}

describe('bar store', () => {
  test('a range read equals a filter over the appended bars, across chunk boundaries, before and after commit', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    const all = bars(5000);
    store.appendHistory(1, '1m', all);
    const check = () =>
      fc.assert(
        fc.property(fc.integer({ min: -10, max: 5010 }), fc.integer({ min: 0, max: 5020 }), (a, len) => {
          const from = T0 + a * MINUTE_MS;
          const to = from + len * MINUTE_MS;
          const slice = store.barsInRange(1, '1m', from, to);
          const expected = all.filter((b) => b.t >= from && b.t < to);
          expect(slice.count).toBe(expected.length);
          expect(unpack(slice.data)).toEqual(expected);
        }),
        { numRuns: 60 },
      );
    check();
    await store.flush();
    check();
    await store.close();
  });

  test('chunk spans and chunk records give the same bars as a range read, as chunks grow, before and after commit', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    // Gaps every 7th minute, so indexes are not time arithmetic.
    const all = bars(7000).filter((_, i) => i % 7 !== 3);
    const viaSpans = (from: number, to: number) => {
      const spans = store.barChunkSpans(1, '1m', from, to);
      const out: Bar[] = [];
      for (const span of spans) {
        expect(span.count).toBe(store.barChunkRecords(1, '1m', span.start, 0, 2000).length / BAR_FIELDS);
        expect(span.to).toBeGreaterThan(span.from);
        out.push(...unpack(store.barChunkRecords(1, '1m', span.start, span.from, span.to)));
      }
      return out;
    };
    const check = () =>
      fc.assert(
        fc.property(fc.integer({ min: -10, max: 7010 }), fc.integer({ min: 0, max: 7020 }), (a, len) => {
          const from = T0 + a * MINUTE_MS;
          const to = from + len * MINUTE_MS;
          expect(viaSpans(from, to)).toEqual(unpack(store.barsInRange(1, '1m', from, to).data));
        }),
        { numRuns: 40 },
      );
    // Appended in steps: windows asked for in between must see every later bar.
    for (const upTo of [1500, 1501, 3000, all.length]) {
      store.appendHistory(1, '1m', all.slice(0, upTo));
      check();
      expect(viaSpans(0, Infinity)).toEqual(all.slice(0, upTo));
    }
    await store.flush();
    check();
    await store.close();
  });

  test('completed bars are immutable: an older or equal t is refused', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    expect(store.appendBar(1, '5m', { t: T0, o: 1, h: 1, l: 1, c: 1, v: 1 })).toBe(true);
    expect(store.appendBar(1, '5m', { t: T0, o: 2, h: 2, l: 2, c: 2, v: 2 })).toBe(false);
    expect(store.appendBar(1, '5m', { t: T0 - 1, o: 2, h: 2, l: 2, c: 2, v: 2 })).toBe(false);
    expect(unpack(store.barsInRange(1, '5m', T0, T0 + 1).data)).toEqual([{ t: T0, o: 1, h: 1, l: 1, c: 1, v: 1 }]);
    await store.close();
  });

  test('bars, open bars and the last completed t survive a reopen', async () => {
    using dir = tempDir();
    let store = Store.open({ dataDir: dir.path });
    store.appendHistory(4, '1h', bars(3000, 3_600_000));
    store.setOpenBar(4, '1h', { t: T0 + 3000 * 3_600_000, o: 1, h: 2, l: 0.5, c: 1.5, v: null });
    await store.close();
    store = Store.open({ dataDir: dir.path });
    expect(store.lastCompletedBarT(4, '1h')).toBe(T0 + 2999 * 3_600_000);
    expect(store.barsInRange(4, '1h', 0, Number.MAX_SAFE_INTEGER).count).toBe(3000);
    expect(store.openBar(4, '1h')).toEqual({ t: T0 + 3000 * 3_600_000, o: 1, h: 2, l: 0.5, c: 1.5, v: null });
    expect(store.lastBarBefore(4, '1h', T0 + 10 * 3_600_000)?.t).toBe(T0 + 9 * 3_600_000);
    expect(store.lastCompletedBarT(4, '1d')).toBeNull();
    await store.close();
  });

  test('series of different symbols and timeframes do not mix', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    store.appendHistory(1, '1m', bars(10));
    store.appendHistory(2, '1m', bars(20));
    store.appendHistory(1, '5m', bars(30, 5 * MINUTE_MS));
    await store.flush();
    expect(store.barsInRange(1, '1m', 0, Infinity).count).toBe(10);
    expect(store.barsInRange(2, '1m', 0, Infinity).count).toBe(20);
    expect(store.barsInRange(1, '5m', 0, Infinity).count).toBe(30);
    expect(store.lastCompletedBarT(1, '1m')).toBe(T0 + 9 * MINUTE_MS);
    await store.close();
  });
});
