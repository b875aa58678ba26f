// Merging bars anywhere into a series (history imports) against a model: a map from bar start to
// bar where `skip` keeps what is stored and `replace` takes the new bar; range reads, the last
// completed bar and the revision agree with it before and after commit and after a reopen.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import type { Bar } from '../../src/domain/bar.ts';
import { MINUTE_MS } from '../../src/domain/timeframes.ts';
import { BAR_FIELDS, Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const T0 = Date.UTC(2026, 0, 5);

function pack(bars: readonly Bar[]): Float64Array {
  const out = new Float64Array(bars.length * BAR_FIELDS);
  bars.forEach((b, i) => out.set([b.t, b.o, b.h, b.l, b.c, b.v ?? NaN], i * BAR_FIELDS));
  return out;
}

function unpack(data: Float64Array): Bar[] {
  const out: Bar[] = [];
  for (let i = 0; i < data.length; i += BAR_FIELDS) out.push({ t: data[i]!, o: data[i + 1]!, h: data[i + 2]!, l: data[i + 3]!, c: data[i + 4]!, v: Number.isNaN(data[i + 5]!) ? null : data[i + 5]! });
  return out;
}

/** Bars at minute offsets (3000 minutes: three 1m chunks), price tagged so versions differ. */
const barsArb = (tag: number) =>
  fc.uniqueArray(fc.integer({ min: 0, max: 3000 }), { maxLength: 300 }).map((mins) =>
    mins.sort((a, b) => a - b).map((m): Bar => ({ t: T0 + m * MINUTE_MS, o: m + tag, h: m + tag + 1, l: m + tag - 1, c: m + tag, v: tag })),
  );

describe('bar merge', () => {
  test('merges equal a keyed model under skip and replace; reads agree before and after commit and reopen', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(barsArb(0), fc.boolean()), { minLength: 1, maxLength: 4 }), fc.integer({ min: 0, max: 3 }), async (steps, liveTag) => {
        using dir = tempDir();
        let store = Store.open({ dataDir: dir.path });
        const model = new Map<number, Bar>();
        // Some live history first, appended the way the bar builder does.
        const live = Array.from({ length: 50 }, (_, i): Bar => ({ t: T0 + (1000 + i * 7) * MINUTE_MS, o: 1, h: 2, l: 0, c: 1, v: 100 + liveTag }));
        store.appendHistory(1, '1m', live);
        for (const b of live) model.set(b.t, b);
        for (const [i, [raw, replace]] of steps.entries()) {
          const bars = raw.map((b) => ({ ...b, o: b.o + i, h: b.h + i, c: b.c + i }));
          let added = 0;
          let replaced = 0;
          let unchanged = 0;
          let kept = 0;
          for (const b of bars) {
            const old = model.get(b.t);
            if (!old) {
              added++;
              model.set(b.t, b);
            } else if (JSON.stringify(old) === JSON.stringify(b)) unchanged++;
            else if (replace) {
              replaced++;
              model.set(b.t, b);
            } else kept++;
          }
          const counts = store.mergeBars(1, '1m', pack(bars), bars.length, replace ? 'replace' : 'skip');
          expect(counts).toEqual({ added, replaced, unchanged, kept });
        }
        const expected = [...model.values()].sort((a, b) => a.t - b.t);
        const check = (s: Store) => {
          expect(unpack(s.barsInRange(1, '1m', T0 - MINUTE_MS, T0 + 4000 * MINUTE_MS).data)).toEqual(expected);
          expect(s.lastCompletedBarT(1, '1m')).toBe(expected.at(-1)!.t);
          const spans = s.barChunkSpans(1, '1m', T0, T0 + 4000 * MINUTE_MS);
          const viaSpans = spans.flatMap((sp) => unpack(s.barChunkRecords(1, '1m', sp.start, sp.from, sp.to)));
          expect(viaSpans).toEqual(expected);
        };
        check(store);
        await store.flush();
        check(store);
        await store.close();
        store = Store.open({ dataDir: dir.path });
        check(store);
        // A live bar after the merged history still appends.
        const next: Bar = { t: expected.at(-1)!.t + MINUTE_MS, o: 5, h: 5, l: 5, c: 5, v: 1 };
        expect(store.appendBar(1, '1m', next)).toBe(true);
        expect(unpack(store.barsInRange(1, '1m', next.t, next.t + 1).data)).toEqual([next]);
        await store.close();
      }),
      { numRuns: 25 },
    );
  });

  test('merging the same bars again changes nothing and keeps the revision', () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    store.appendHistory(1, '1m', [{ t: T0 + 100 * MINUTE_MS, o: 1, h: 1, l: 1, c: 1, v: 1 }]);
    const bars = Array.from({ length: 10 }, (_, i): Bar => ({ t: T0 + i * MINUTE_MS, o: 2, h: 3, l: 1, c: 2, v: null }));
    expect(store.mergeBars(1, '1m', pack(bars), 10, 'skip')).toEqual({ added: 10, replaced: 0, unchanged: 0, kept: 0 });
    const revision = store.barsRevision(1, '1m');
    expect(revision).toBeGreaterThan(0);
    expect(store.mergeBars(1, '1m', pack(bars), 10, 'replace')).toEqual({ added: 0, replaced: 0, unchanged: 10, kept: 0 });
    expect(store.barsRevision(1, '1m')).toBe(revision);
    // Appending after the last stored bar is no rewrite either.
    store.mergeBars(1, '1m', pack([{ t: T0 + 200 * MINUTE_MS, o: 1, h: 1, l: 1, c: 1, v: null }]), 1, 'skip');
    expect(store.barsRevision(1, '1m')).toBe(revision);
    void store.close();
  });
});
