// The simulator's economic calendar on a manual clock: recurring releases on their usual days and
// local times (DST included), actuals that arrive when the clock passes the release (the same id
// updated, never duplicated), determinism per seed, and imported events left alone.
import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../../src/clock.ts';
import { SimulatedCalendar, simulatedEvents } from '../../src/ingest/simulator/economic-calendar.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const MARCH_4 = Date.parse('2026-03-04T15:30:00Z');

describe('simulatedEvents', () => {
  const events = simulatedEvents(7, '2026-01-01', '2026-12-31', Date.parse('2026-06-15T00:00:00Z'));
  const of = (key: string) => events.filter((e) => e.id.startsWith(`${key}-`));

  test('payrolls on the first Friday of each month at 08:30 New York, across the DST change', () => {
    const nfp = of('US-NFP');
    expect(nfp.length).toBe(12);
    expect(nfp.slice(0, 4).map((e) => new Date(e.scheduledAtMs).toISOString())).toEqual(['2026-01-02T13:30:00.000Z', '2026-02-06T13:30:00.000Z', '2026-03-06T13:30:00.000Z', '2026-04-03T12:30:00.000Z']);
    expect(nfp[0]).toMatchObject({ country: 'US', event: 'Nonfarm Payrolls', category: 'employment', importance: 'high', unit: 'K' });
  });

  test('central banks meet eight times a year; GDP is quarterly; CPI and PMI monthly, for every covered country', () => {
    expect([of('US-FED').length, of('EU-ECB').length, of('GB-BOE').length]).toEqual([8, 8, 8]);
    for (const cc of ['US', 'DE', 'FR', 'IT', 'ES', 'GB']) {
      expect(of(`${cc}-GDP`).length).toBe(4);
      expect(of(`${cc}-CPI`).length).toBe(12);
      expect(of(`${cc}-${cc === 'US' ? 'ISM' : 'PMI'}`).length).toBe(12);
    }
    expect(of('EU-ECB')[0]).toMatchObject({ category: 'central bank', unit: '%' });
  });

  test('released events carry their actual, later ones only a forecast; previous is the prior release', () => {
    for (const e of events) {
      expect(e.actual === null).toBe(e.scheduledAtMs > Date.parse('2026-06-15T00:00:00Z'));
      expect(e.forecast).not.toBeNull();
    }
    const cpi = of('GB-CPI');
    for (let i = 1; i < cpi.length; i++) if (cpi[i - 1]!.actual !== null) expect(cpi[i]!.previous).toBe(cpi[i - 1]!.actual);
    const fed = of('US-FED');
    for (const e of fed) expect(Math.round(e.forecast! * 4)).toBe(e.forecast! * 4);
  });

  test('ordered by time, ids unique, the same for the same seed', () => {
    const times = events.map((e) => e.scheduledAtMs);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    expect(simulatedEvents(7, '2026-01-01', '2026-12-31', Date.parse('2026-06-15T00:00:00Z'))).toEqual(events);
    expect(simulatedEvents(8, '2026-01-01', '2026-12-31', Date.parse('2026-06-15T00:00:00Z'))).not.toEqual(events);
  });
});

describe('SimulatedCalendar', () => {
  test('the actual arrives as an update of the same event when the clock passes the release', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    const clock = new ManualClock(MARCH_4);
    const sim = new SimulatedCalendar(store, clock, 7);
    expect(sim.publish()).toBeGreaterThan(60);
    expect(sim.publish()).toBe(0);
    const before = store.calendar.get('US-NFP-2026-03-06')!;
    expect(before.actual).toBeNull();
    clock.set(Date.parse('2026-03-06T13:30:00Z'));
    expect(sim.publish()).toBeGreaterThanOrEqual(2); // the BoE on the 5th, payrolls, and the window moving on
    const after = store.calendar.get('US-NFP-2026-03-06')!;
    expect(after).toEqual({ ...before, actual: simulatedEvents(7, '2026-03-06', '2026-03-06', Date.parse('2026-03-07T00:00:00Z'))[0]!.actual });
    const window = store.calendar.page(Date.UTC(2026, 2, 6), Date.UTC(2026, 2, 7), null, 100, () => true);
    expect(window.items.filter((e) => e.id === 'US-NFP-2026-03-06').length).toBe(1);
    await store.close();
  });

  test('an imported event is never overwritten by the simulator', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    const clock = new ManualClock(MARCH_4);
    const sim = new SimulatedCalendar(store, clock, 7);
    sim.publish();
    const imported = { ...store.calendar.get('US-NFP-2026-03-06')!, forecast: 99, origin: 'import' as const };
    store.calendar.upsert([imported]);
    clock.set(Date.parse('2026-03-06T14:00:00Z'));
    sim.publish();
    expect(store.calendar.get('US-NFP-2026-03-06')).toEqual(imported);
    await store.close();
  });
});
