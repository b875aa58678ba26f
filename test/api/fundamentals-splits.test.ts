// Fundamentals and splits, in process over a seeded store: an item's share counts are in the shares
// of its as_of and stay so when a split dated after it arrives (served as written, never
// split-adjusted); the splits route gives the factor that restates them, as the docs say.
import { expect, test } from 'bun:test';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { writeFundamentals } from '../../src/ingest/fundamentals-writer.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const KEY = 'fundamentals-splits-key';

test("a split dated after as_of leaves the item's counts as written; split_to ÷ split_from restates them", async () => {
  using dir = tempDir();
  const store = Store.open({ dataDir: dir.path });
  seedRegistry(store, CATALOG);
  const clock = new ManualClock(Date.UTC(2020, 8, 1, 15));
  const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: KEY, devPerMinute: 1000 });
  const app = createApp({ store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' });
  const get = async (path: string) => (await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-api-key': KEY } }))).json() as Promise<any>;
  // US:AAPL on the Friday before its 4-for-1 split, priced in that day's shares ($499).
  writeFundamentals(store, [{ symbol: 'US:AAPL', market: 'US', baseSymbol: 'AAPL', asOf: '2020-08-28', isDepositaryReceipt: false, price: 499.23, marketCap: 2_130_000_000_000, sharesTotal: 4_275_634_000, freeFloat: 4_270_000_000, shortInterest: 25_000_000, adv10d: 40_000_000, adv90d: 38_000_000 }]);
  const before = await get('/fundamentals/stocks/US:AAPL');
  expect(before).toMatchObject({ shares_total: 4_275_634_000, market_cap: 2_130_000_000_000, as_of: '2020-08-28' });
  store.corporateActions.put([{ symbol: 'US:AAPL', date: '2020-08-31', from: 1, to: 4 }], []);
  expect(await get('/fundamentals/stocks/US:AAPL')).toEqual(before);
  const splits = (await get('/stocks/splits/US:AAPL')).results.filter((s: { execution_date: string }) => s.execution_date > before.as_of);
  const factor = splits.reduce((f: number, s: { split_from: number; split_to: number }) => (f * s.split_to) / s.split_from, 1);
  expect(before.shares_total * factor).toBe(17_102_536_000);
  await store.close();
});
