// The simulated perpetual venues: on a fresh start some venues lapse, cross and drift, so the
// composites show the rules (source_count below the venue count) while never publishing a crossed
// or stale value; deterministic for a seed and a clock.
import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../../src/clock.ts';
import { Pipeline } from '../../src/ingest/pipeline.ts';
import { PERPETUALS } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { isSilent, PERPETUAL_VENUES, PerpetualVenues, venueBook } from '../../src/ingest/simulator/perpetual-venues.ts';
import { Rng } from '../../src/ingest/simulator/random.ts';
import { VENUES_PER_CLASS } from '../../src/ingest/simulator/simulator.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const START = Date.parse('2026-03-08T09:00:00Z'); // a Sunday
const BTC = PERPETUALS.find((s) => s.symbol === 'BTCUSDT')!;

interface Published {
  symbol: string;
  tsMs: number;
  bid: number;
  ask: number;
  sourceCount: number;
}

/** Runs the venues for `minutes` of simulated time; returns every published composite quote. */
async function run(seed: number, minutes: number): Promise<Published[]> {
  using dir = tempDir();
  const store = Store.open({ dataDir: dir.path });
  seedRegistry(store, PERPETUALS);
  const clock = new ManualClock(START);
  const composites = new Pipeline(store, clock);
  const published: Published[] = [];
  composites.subscribe({ onQuote: (e, _s, q, n) => published.push({ symbol: e.symbol, tsMs: q.tsMs, bid: q.bid, ask: q.ask, sourceCount: n ?? NaN }), onTrade: () => {} });
  const venues = new PerpetualVenues(store, PERPETUALS, composites, clock, { seed, stepMs: 100 });
  venues.open(START);
  for (let t = START + 100; t <= START + minutes * 60_000; t += 100) {
    clock.set(t);
    venues.step(t);
  }
  await store.close();
  return published;
}

describe('perpetual venues', () => {
  test('the venue table has one behaviour per venue: three steady, one lapsing, one crossing, one drifting', () => {
    expect(PERPETUAL_VENUES).toHaveLength(VENUES_PER_CLASS.perpetuals);
    expect([...PERPETUAL_VENUES].sort()).toEqual(['crossing', 'drifting', 'lapsing', 'steady', 'steady', 'steady']);
  });

  test('the lapsing venue is silent a third of the time; the others never', () => {
    const silent = (b: (typeof PERPETUAL_VENUES)[number]) => Array.from({ length: 900 }, (_, i) => isSilent(b, i * 100)).filter(Boolean).length;
    expect(silent('lapsing')).toBe(300);
    expect(silent('steady') + silent('crossing') + silent('drifting')).toBe(0);
  });

  test('the crossing venue publishes bid above ask part of each minute; a steady venue never', () => {
    const rng = new Rng(1);
    const crossedAt = (b: (typeof PERPETUAL_VENUES)[number]) => Array.from({ length: 600 }, (_, i) => venueBook(b, BTC, BTC.price, 0, i * 100, rng)).filter((k) => k.bid >= k.ask).length;
    expect(crossedAt('crossing')).toBe(100);
    expect(crossedAt('steady')).toBe(0);
  });

  test('the drifting venue swings well beyond the outlier band and back', () => {
    const rng = new Rng(1);
    const offBps = (atMs: number) => {
      const k = venueBook('drifting', BTC, BTC.price, 0, atMs, rng);
      return (((k.bid + k.ask) / 2 - BTC.price) / BTC.price) * 10_000;
    };
    expect(Math.abs(offBps(0))).toBeLessThan(5);
    expect(offBps(75_000)).toBeGreaterThan(100);
    expect(offBps(225_000)).toBeLessThan(-100);
  });

  test('over five minutes from a fresh start: composites at once, source_count below the venue count at times, never crossed', async () => {
    const published = await run(7, 5);
    const symbols = new Set(published.filter((p) => p.tsMs === START).map((p) => p.symbol));
    expect(symbols.size).toBe(PERPETUALS.length);
    const counts = new Set(published.map((p) => p.sourceCount));
    expect(Math.max(...counts)).toBeLessThanOrEqual(VENUES_PER_CLASS.perpetuals);
    expect(Math.min(...counts)).toBeGreaterThanOrEqual(1);
    expect(Math.min(...counts)).toBeLessThanOrEqual(VENUES_PER_CLASS.perpetuals - 2);
    for (const p of published) expect(p.bid).toBeLessThan(p.ask);
  });

  test('a starved process (its steps late) still quotes every venue at about the rate of time passed', async () => {
    /** Steady-venue quotes and trades over five simulated minutes, stepping every `everyMs`. */
    const count = async (everyMs: number) => {
      using dir = tempDir();
      const store = Store.open({ dataDir: dir.path });
      seedRegistry(store, PERPETUALS);
      const clock = new ManualClock(START);
      const ticks = { quotes: 0, trades: 0 };
      const input = { onVenueQuote: (_id: number, q: { venue: number }) => void (PERPETUAL_VENUES[q.venue] === 'steady' && ticks.quotes++), onVenueTrade: () => void ticks.trades++ };
      const venues = new PerpetualVenues(store, PERPETUALS, input, clock, { seed: 5, stepMs: 25 });
      for (let t = START + everyMs; t <= START + 5 * 60_000; t += everyMs) {
        clock.set(t);
        venues.step(t);
      }
      await store.close();
      return ticks;
    };
    const onTime = await count(25);
    // Forty times late: a venue may quote once a step, so it loses only what piles into one step.
    const starved = await count(1000);
    expect(onTime.quotes).toBeGreaterThan(1000);
    expect(starved.quotes).toBeGreaterThan(onTime.quotes * 0.6);
    expect(starved.trades).toBeGreaterThan(onTime.trades * 0.5);
  });

  test('deterministic for a seed', async () => {
    expect(await run(3, 1)).toEqual(await run(3, 1));
  });
});
