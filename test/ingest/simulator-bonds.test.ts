// The simulator's bond yields on a manual clock: plausible curves (usually upward-sloping,
// inverted for spells, smooth from day to day), deterministic per seed, one observation per
// business day of each country once its session has closed, and never over a stored value.
import { describe, expect, test } from 'bun:test';
import { BOND_COUNTRIES, BOND_SYMBOLS, BOND_TENORS } from '../../src/domain/bonds.ts';
import { ManualClock } from '../../src/clock.ts';
import { BondCurveModel } from '../../src/ingest/simulator/bonds-model.ts';
import { SIM_BONDS_SOURCE, SimulatedBonds } from '../../src/ingest/simulator/bonds.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const DAY_MS = 86_400_000;

function dates(from: string, days: number): string[] {
  const start = Date.parse(`${from}T00:00:00Z`);
  return Array.from({ length: days }, (_, i) => new Date(start + i * DAY_MS).toISOString().slice(0, 10));
}

describe('curve model', () => {
  const days = dates('2000-01-01', 26 * 365);

  test('the same seed gives the same curves, asked in any order; another seed gives others', () => {
    const a = new BondCurveModel(7);
    const forwards = ['2020-03-02', '2024-06-14', '2026-03-03'].map((d) => a.curve('US', d));
    const b = new BondCurveModel(7);
    const backwards = ['2026-03-03', '2024-06-14', '2020-03-02'].map((d) => b.curve('US', d)).reverse();
    expect(backwards).toEqual(forwards);
    expect(new BondCurveModel(8).curve('US', '2026-03-03')).not.toEqual(forwards[2]);
  });

  test.each(BOND_COUNTRIES)('%s: yields stay plausible, move by basis points a day, slope up mostly and invert at times', (cc) => {
    const model = new BondCurveModel(7);
    let previous: number[] | null = null;
    let inverted = 0;
    let upward = 0;
    const moves: number[] = [];
    let [low, high, unrounded] = [Infinity, -Infinity, 0];
    for (const date of days) {
      const curve = model.curve(cc, date);
      expect(curve.length).toBe(BOND_TENORS[cc].length);
      for (const y of curve) {
        low = Math.min(low, y);
        high = Math.max(high, y);
        if (Math.round(y * 100) / 100 !== y) unrounded++;
      }
      if (curve[0]! > curve.at(-1)!) inverted++;
      else upward++;
      if (previous) for (let i = 0; i < curve.length; i++) moves.push(Math.abs(curve[i]! - previous[i]!));
      previous = curve;
    }
    expect(low).toBeGreaterThanOrEqual(-1.5);
    expect(high).toBeLessThanOrEqual(12);
    expect(unrounded).toBe(0);
    expect(upward).toBeGreaterThan(inverted);
    expect(inverted).toBeGreaterThan(0);
    moves.sort((x, y) => x - y);
    // A typical day moves a few basis points; even the largest moves stay well under half a point.
    expect(moves[Math.floor(moves.length / 2)]!).toBeLessThan(0.06);
    expect(moves.at(-1)!).toBeLessThan(0.5);
  });

  test('euro-area curves move together: Italy and Spain above Germany at 10 years', () => {
    const model = new BondCurveModel(7);
    let italyAbove = 0;
    const sample = days.filter((_, i) => i % 30 === 0);
    for (const date of sample) {
      const de = model.curve('DE', date)[5]!;
      if (model.curve('IT', date)[5]! > de) italyAbove++;
    }
    expect(italyAbove / sample.length).toBeGreaterThan(0.9);
  });
});

describe('SimulatedBonds', () => {
  // Wednesday 4 March 2026, 15:30 UTC: European sessions still open, New York open.
  const START = Date.parse('2026-03-04T15:30:00Z');

  function open(dir: string) {
    const store = Store.open({ dataDir: dir });
    const clock = new ManualClock(START);
    return { store, clock, sim: new SimulatedBonds(store, clock, 7, 1) };
  }

  test('a first start publishes a year of business days per country, up to the last closed session', async () => {
    using dir = tempDir();
    const { store, sim } = open(dir.path);
    const published = sim.publish();
    for (const symbol of BOND_SYMBOLS) {
      // 4 March is not closed anywhere yet: the latest observation is 3 March.
      expect(store.bonds.latest(symbol)).toMatchObject({ date: '2026-03-03', source: SIM_BONDS_SOURCE });
    }
    const us = store.bonds.history('US:10Y', '2025-01-01', '2026-03-04', { offset: 0, limit: 5000, sort: 'asc' });
    expect(us.points[0]!.date >= '2025-03-03').toBe(true);
    expect(us.total).toBeGreaterThan(245);
    expect(us.total).toBeLessThan(256);
    // Business days only: no weekends, no exchange holidays (Christmas, New Year, Good Friday in Europe).
    for (const p of us.points) expect([0, 6]).not.toContain(new Date(`${p.date}T00:00:00Z`).getUTCDay());
    const usDates = new Set(us.points.map((p) => p.date));
    expect(usDates.has('2025-12-25')).toBe(false);
    expect(usDates.has('2025-07-04')).toBe(false);
    expect(store.bonds.on('DE:10Y', '2025-04-18')).toBeUndefined();
    expect(store.bonds.on('US:10Y', '2025-12-24')).toBeDefined();
    expect(published).toBe(BOND_COUNTRIES.reduce((n, cc) => n + BOND_TENORS[cc].length * store.bonds.history(`${cc}:${BOND_TENORS[cc][0]}`, '2000-01-01', '2026-12-31', { offset: 0, limit: 1, sort: 'asc' }).total, 0));
    await store.close();
  });

  test('as the clock moves, each day is published once its session has closed; nothing twice', async () => {
    using dir = tempDir();
    const { store, clock, sim } = open(dir.path);
    sim.publish();
    expect(sim.publish()).toBe(0);
    // 17:00 UTC: Frankfurt, Paris, Milan, Madrid and London have closed, New York has not.
    clock.set(Date.parse('2026-03-04T17:00:00Z'));
    expect(sim.publish()).toBe(9 + 9 + 9 + 8 + 10);
    expect(store.bonds.latest('DE:10Y')!.date).toBe('2026-03-04');
    expect(store.bonds.latest('US:10Y')!.date).toBe('2026-03-03');
    clock.set(Date.parse('2026-03-04T21:30:00Z'));
    expect(sim.publish()).toBe(13);
    expect(store.bonds.latest('US:10Y')!.date).toBe('2026-03-04');
    // Over a weekend: Friday only.
    clock.set(Date.parse('2026-03-09T12:00:00Z'));
    sim.publish();
    expect(store.bonds.history('US:10Y', '2026-03-05', '2026-03-09', { offset: 0, limit: 10, sort: 'asc' }).points.map((p) => p.date)).toEqual(['2026-03-05', '2026-03-06']);
    await store.close();
  });

  test('the same seed publishes the same values whether made at first start or day by day', async () => {
    using a = tempDir();
    using b = tempDir();
    const first = open(a.path);
    first.clock.set(Date.parse('2026-03-10T23:00:00Z'));
    first.sim.publish();
    const daily = open(b.path);
    daily.sim.publish();
    for (let t = START; t <= Date.parse('2026-03-10T23:00:00Z'); t += 3 * 3600_000) {
      daily.clock.set(t);
      daily.sim.publish();
    }
    for (const symbol of ['US:3M', 'US:30Y', 'IT:10Y', 'GB:25Y']) {
      const window = { offset: 0, limit: 5000, sort: 'asc' as const };
      // From the later of the two first starts' windows on.
      expect(daily.store.bonds.history(symbol, '2025-03-11', '2026-03-10', window)).toEqual(first.store.bonds.history(symbol, '2025-03-11', '2026-03-10', window));
    }
    await first.store.close();
    await daily.store.close();
  });

  test('never replaces a stored observation: an imported figure wins', async () => {
    using dir = tempDir();
    const { store, clock, sim } = open(dir.path);
    sim.publish();
    store.bonds.put([{ symbol: 'US:10Y', date: '2026-03-04', yieldPct: 4.01, source: 'US Treasury daily par yield curve' }]);
    clock.set(Date.parse('2026-03-04T22:00:00Z'));
    sim.publish();
    expect(store.bonds.on('US:10Y', '2026-03-04')).toEqual({ date: '2026-03-04', yieldPct: 4.01, source: 'US Treasury daily par yield curve' });
    expect(store.bonds.on('US:2Y', '2026-03-04')!.source).toBe(SIM_BONDS_SOURCE);
    await store.close();
  });
});
