// When the store cannot be read, market-data routes answer their class's 503 (spec: Errors) and
// the failure is logged; nothing crashes.
import { describe, expect, test } from 'bun:test';
import { createApp } from '../../src/api/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

describe('store failures', () => {
  test.each([
    ['/stocks/quote/US:AAPL', 'market data temporarily unavailable'],
    ['/etfs/trade/last/US500ETF', 'market data temporarily unavailable'],
    ['/v1/etfs/trade/last/US500ETF', 'market data temporarily unavailable'],
    ['/commodities/quote/XAUUSD', 'service temporarily unavailable'],
    ['/crypto/agg/BTCUSD/1/day/2026-01-01/2026-01-31', 'market data temporarily unavailable'],
  ])('%s → 503 %p', async (path, message) => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    seedRegistry(store, CATALOG);
    const failing = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'latest' || prop === 'barsInRange' || prop === 'barChunkSpans') return () => { throw new Error('disk read failed'); };
        return Reflect.get(target, prop, receiver);
      },
    });
    const logs: string[] = [];
    const clock = new ManualClock(Date.UTC(2026, 2, 4));
    const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: 'k'.repeat(10), devPerMinute: 100 });
    const app = createApp({ store: failing, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, (line) => logs.push(line));
    const res = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-api-key': 'k'.repeat(10) } }));
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toBe(message);
    expect(res.headers.get('x-ratelimit-limit')).toBe('100');
    expect(logs.some((l) => l.includes('disk read failed'))).toBe(true);
    await store.close();
  });
});
