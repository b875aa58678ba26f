// The bond-yield store against a plain reference: history windows are inclusive at both ends in
// either order and page by offset and limit; the latest observation on or before a date; writes
// replace the same symbol and date and count what they did.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import type { BondObservation } from '../../src/domain/bonds.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const DAY_MS = 86_400_000;
const dateOf = (day: number) => new Date(Date.UTC(2026, 0, 1) + day * DAY_MS).toISOString().slice(0, 10);

describe('BondStore', () => {
  test('history matches a filtered, sorted, paged reference; neighbours never leak in', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    // Every third day for US:1Y; US:10Y and US:1M around it must never appear in its windows.
    const days = Array.from({ length: 60 }, (_, i) => i * 3);
    const obs = (symbol: string): BondObservation[] => days.map((d) => ({ symbol, date: dateOf(d), yieldPct: d / 100, source: 's' }));
    store.bonds.put([...obs('US:1M'), ...obs('US:1Y'), ...obs('US:10Y')]);
    fc.assert(
      fc.property(fc.integer({ min: -5, max: 185 }), fc.integer({ min: 0, max: 60 }), fc.integer({ min: 0, max: 70 }), fc.integer({ min: 1, max: 80 }), fc.boolean(), (from, span, offset, limit, asc) => {
        const [f, t] = [dateOf(from), dateOf(from + span)];
        const inWindow = days.map(dateOf).filter((d) => d >= f && d <= t);
        const sorted = asc ? inWindow : [...inWindow].reverse();
        const page = store.bonds.history('US:1Y', f, t, { offset, limit, sort: asc ? 'asc' : 'desc' });
        expect(page.total).toBe(inWindow.length);
        expect(page.points.map((p) => p.date)).toEqual(sorted.slice(offset, offset + limit));
      }),
      { numRuns: 300 },
    );
    expect(store.bonds.latest('US:1Y')!.date).toBe(dateOf(177));
    expect(store.bonds.latestOnOrBefore('US:1Y', dateOf(4))!.date).toBe(dateOf(3));
    expect(store.bonds.latestOnOrBefore('US:1Y', dateOf(3))!.date).toBe(dateOf(3));
    expect(store.bonds.latestOnOrBefore('US:1Y', dateOf(-1))).toBeUndefined();
    expect(store.bonds.latest('US:2Y')).toBeUndefined();
    await store.close();
  });

  test('a write replaces the same symbol and date, and says what it added, replaced and left unchanged', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    const o = (date: string, yieldPct: number, source = 'Treasury'): BondObservation => ({ symbol: 'US:2Y', date, yieldPct, source });
    expect(store.bonds.put([o('2026-02-26', 4.1), o('2026-02-27', 4.2)])).toEqual({ added: 2, replaced: 0, unchanged: 0 });
    expect(store.bonds.put([o('2026-02-26', 4.1), o('2026-02-27', 4.25), o('2026-03-02', 4.3), o('2026-03-02', 4.31)])).toEqual({ added: 1, replaced: 1, unchanged: 1 });
    expect(store.bonds.put([o('2026-02-26', 4.1, 'revised source')])).toEqual({ added: 0, replaced: 1, unchanged: 0 });
    expect(store.bonds.history('US:2Y', '2026-01-01', '2026-12-31', { offset: 0, limit: 10, sort: 'asc' }).points).toEqual([
      { date: '2026-02-26', yieldPct: 4.1, source: 'revised source' },
      { date: '2026-02-27', yieldPct: 4.25, source: 'Treasury' },
      { date: '2026-03-02', yieldPct: 4.31, source: 'Treasury' },
    ]);
    await store.close();
  });
});
