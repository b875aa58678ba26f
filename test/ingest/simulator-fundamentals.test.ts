// The simulator's fundamentals on a manual clock: deterministic for a seed and a date, one
// refresh per day (as_of advances only then), the profile once a month, market caps priced off
// the listing's price.
import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../../src/clock.ts';
import { DAY_MS } from '../../src/domain/timeframes.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { SIM_PROFILES } from '../../src/ingest/simulator/fundamentals-profiles.ts';
import { SimulatedFundamentals, simulatedRecord } from '../../src/ingest/simulator/fundamentals.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const item = (store: Store, symbol: string) => JSON.parse(store.fundamentals.json(symbol)!.toString('utf8'));

describe('SimulatedFundamentals', () => {
  test('daily share structure, monthly profile, as_of only on a real refresh', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    seedRegistry(store, CATALOG);
    const clock = new ManualClock(Date.parse('2026-03-30T12:00:00Z'));
    const feed = new SimulatedFundamentals(store, CATALOG, clock, 3);

    const first = (await feed.refresh())!;
    expect(first.symbolsWritten).toBe(Object.keys(SIM_PROFILES).length);
    expect(first.kept).toEqual([{ symbol: 'US:INTC', asOf: '2026-03-30', missing: ['short_interest'] }]);
    expect(item(store, 'US:AAPL').as_of).toBe('2026-03-30');
    expect(item(store, 'US:INTC').as_of).toBe('2026-03-29');

    // Later the same day: nothing is due.
    clock.advance(3_600_000);
    expect(await feed.refresh()).toBeNull();

    // Next day: a real refresh for every listing; the profile is not due within the month.
    clock.advance(DAY_MS);
    const next = (await feed.refresh())!;
    expect(next.shares.refreshed).toBe(first.symbolsWritten);
    expect(next.profile['not-due']).toBe(first.symbolsWritten);
    expect(item(store, 'US:AAPL').as_of).toBe('2026-03-31');
    expect(item(store, 'US:INTC').as_of).toBe('2026-03-31');

    // A new month: the profile refreshes too.
    clock.advance(DAY_MS);
    expect((await feed.refresh())!.profile.refreshed).toBe(first.symbolsWritten);
    await store.close();
  });

  test('records are deterministic for a seed and a date, and market caps follow the price', () => {
    const spec = CATALOG.find((s) => s.symbol === 'DE:SAP')!;
    const profile = SIM_PROFILES['DE:SAP']!;
    const a = simulatedRecord(spec, profile, 200, '2026-03-02', 1, undefined);
    expect(simulatedRecord(spec, profile, 200, '2026-03-02', 1, undefined)).toEqual(a);
    expect(simulatedRecord(spec, profile, 200, '2026-03-03', 1, undefined)).not.toEqual(a);
    const ratio = (a.sharesTotal! * 200) / a.marketCap!;
    expect(Math.abs(ratio - 1)).toBeLessThan(0.011);
  });

  test('every listing with a profile is a US, DE, ES or FR stock of the catalog', () => {
    const stocks = new Set(CATALOG.filter((s) => s.assetClass === 'stocks' && ['US', 'DE', 'ES', 'FR'].includes(s.market!)).map((s) => s.symbol));
    expect(Object.keys(SIM_PROFILES).sort()).toEqual([...stocks].sort());
  });
});
