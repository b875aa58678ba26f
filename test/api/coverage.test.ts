// GET /coverage/{class}/{symbol} in process (app.handle) over a seeded store and a manual clock:
// the ranges and totals of known bars and live stretches, the cut at the bar in progress, the
// route's 400s, and the same key, plan, market and quota rules as the bar routes.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import type { Bar } from '../../src/domain/bar.ts';
import { CoverageSchema } from '../../src/domain/coverage-schema.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { HOUR_MS, MINUTE_MS, type Timeframe } from '../../src/domain/timeframes.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const DEV_KEY = 'coverage-dev-key';
const WED = Date.UTC(2026, 2, 4);
const TUE = Date.UTC(2026, 2, 3);
const MON = Date.UTC(2026, 2, 2);
/** Wednesday 15:30 UTC: 10:30 in New York. */
const NOW = WED + 15 * HOUR_MS + 30 * MINUTE_MS;

const bar = (t: number): Bar => ({ t, o: 1, h: 1, l: 1, c: 1, v: 1 });

let dir: TempDir;
let store: Store;
let clock: ManualClock;
let inProgress: Bar | null = null;
let app: ReturnType<typeof createApp>;
const keys: Record<'free' | 'starterUs' | 'perpetuals', string> = { free: '', starterUs: '', perpetuals: '' };

beforeAll(async () => {
  dir = tempDir();
  store = Store.open({ dataDir: dir.path });
  seedRegistry(store, CATALOG);
  clock = new ManualClock(NOW);
  const btc = store.registry.resolve('crypto', 'BTCUSD')!.id;
  const aapl = store.registry.resolve('stocks', 'US:AAPL')!.id;
  // BTCUSD minutes 00:00-01:39 and 03:21-09:59 of Wednesday; a feed live 02:30-02:50.
  const minutes: Bar[] = [];
  for (let i = 0; i < 600; i++) if (i < 100 || i > 200) minutes.push(bar(WED + i * MINUTE_MS));
  store.appendHistory(btc, '1m', minutes);
  store.recordLive('venue', WED + 150 * MINUTE_MS, [btc, aapl]);
  store.recordLive('venue', WED + 170 * MINUTE_MS, [btc, aapl]);
  store.recordDown('venue');
  // US:AAPL hourly: Tuesday's first two hours have bars and a feed is live from 16:00 to the close.
  store.appendHistory(aapl, '1h', [bar(TUE + 14.5 * HOUR_MS), bar(TUE + 15.5 * HOUR_MS)]);
  store.recordLive('venue', TUE + 16 * HOUR_MS, [btc, aapl]);
  store.recordLive('venue', TUE + 21 * HOUR_MS, [btc, aapl]);
  store.recordDown('venue');
  await store.flush();
  keys.free = store.accounts.create({ name: 'free', plan: 'free', markets: ['US'], addons: [] }, NOW).secret;
  keys.starterUs = store.accounts.create({ name: 'starter', plan: 'starter', markets: ['US'], addons: [] }, NOW).secret;
  keys.perpetuals = store.accounts.create({ name: 'perps', plan: 'perpetuals', markets: [], addons: [] }, NOW).secret;
  const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: DEV_KEY, devPerMinute: 1_000_000 });
  const bars = { barInProgress: (symId: number, tf: Timeframe) => (symId === btc && tf === '1m' ? inProgress : null) };
  app = createApp({ store, bars, clock, auth, feed: 'none', version: '1.0.0' }, () => {});
});

afterAll(async () => {
  await store.close();
  dir[Symbol.dispose]();
});

async function get(path: string, key: string | null = DEV_KEY): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await app.handle(new Request(`http://localhost${path}`, { headers: key === null ? {} : { 'x-api-key': key } }));
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const range = (from: number, to: number, kind: string, count: number) => ({ from, to, kind, count });

describe('coverage ranges', () => {
  test('crypto 1m today: bars, gaps and a quiet stretch, up to the settle lag before now', async () => {
    clock.set(NOW);
    const { status, body } = await get('/coverage/crypto/BTCUSD');
    expect(status).toBe(200);
    expect(Value.Check(CoverageSchema, body)).toBe(true);
    const m = (i: number) => WED + i * MINUTE_MS;
    expect(body).toEqual({
      symbol: 'BTCUSD',
      class: 'crypto',
      timeframe: '1m',
      from: WED,
      to: WED + 24 * HOUR_MS,
      classified_to: NOW - 5000,
      as_of: NOW,
      totals: { slots: 929, bars: 499, quiet: 20, gaps: 410, pending: 0 },
      ranges: [range(m(0), m(100), 'bars', 100), range(m(100), m(150), 'gap', 50), range(m(150), m(170), 'quiet', 20), range(m(170), m(201), 'gap', 31), range(m(201), m(600), 'bars', 399), range(m(600), m(929), 'gap', 329)],
    });
  });

  test('the bar in progress counts once its slot has ended; the slot in progress is never a gap', async () => {
    inProgress = bar(NOW - MINUTE_MS);
    try {
      clock.set(NOW + 6000);
      const { body } = await get('/coverage/crypto/BTCUSD');
      expect(body.ranges.at(-1)).toEqual(range(NOW - MINUTE_MS, NOW, 'bars', 1));
      expect(body.totals.slots).toBe(930);
      // Half a minute on, the minute in progress (15:30) is left out rather than called a gap.
      clock.set(NOW + 30_000);
      const later = (await get('/coverage/crypto/BTCUSD')).body;
      expect({ last: later.ranges.at(-1), slots: later.totals.slots, classifiedTo: later.classified_to }).toEqual({ last: range(NOW - MINUTE_MS, NOW, 'bars', 1), slots: 930, classifiedTo: NOW + 25_000 });
    } finally {
      inProgress = null;
      clock.set(NOW);
    }
  });

  test('US stock hourly: slots from the 09:30 open, ranges end at the close, a quiet afternoon under a live feed', async () => {
    const { status, body } = await get('/coverage/stocks/us:aapl?timeframe=1h&from=2026-03-02&to=2026-03-04');
    expect(status).toBe(200);
    expect(Value.Check(CoverageSchema, body)).toBe(true);
    expect({ symbol: body.symbol, totals: body.totals, ranges: body.ranges }).toEqual({
      symbol: 'US:AAPL',
      totals: { slots: 14, bars: 2, quiet: 5, gaps: 7, pending: 0 },
      ranges: [
        range(MON + 14.5 * HOUR_MS, MON + 21 * HOUR_MS, 'gap', 7),
        range(TUE + 14.5 * HOUR_MS, TUE + 16.5 * HOUR_MS, 'bars', 2),
        range(TUE + 16.5 * HOUR_MS, TUE + 21 * HOUR_MS, 'quiet', 5),
      ],
    });
  });

  test('a weekend has no slots for a US stock; a window in the future classifies nothing', async () => {
    expect((await get('/coverage/stocks/US:AAPL?from=2026-03-07&to=2026-03-08')).body.totals).toEqual({ slots: 0, bars: 0, quiet: 0, gaps: 0, pending: 0 });
    const ahead = await get('/coverage/crypto/BTCUSD?timeframe=1d&from=2026-03-10&to=2026-03-12');
    expect({ status: ahead.status, ranges: ahead.body.ranges, classifiedTo: ahead.body.classified_to }).toEqual({ status: 200, ranges: [], classifiedTo: Date.UTC(2026, 2, 10) });
  });

  test('every timeframe answers within its maximum span', async () => {
    for (const [tf, from] of [['1m', '2026-02-02'], ['5m', '2025-12-05'], ['15m', '2025-09-06'], ['1h', '2025-03-05'], ['4h', '2024-03-05'], ['1d', '2013-01-01']]) {
      const { status, body } = await get(`/coverage/crypto/BTCUSD?timeframe=${tf}&from=${from}&to=2026-03-04`);
      expect({ tf, status, valid: Value.Check(CoverageSchema, body) }).toEqual({ tf: tf!, status: 200, valid: true });
    }
  });
});

describe('coverage parameters', () => {
  test.each([
    ['/coverage/crypto/BTCUSD?timeframe=2m', 'invalid timeframe "2m": allowed values are 1m, 5m, 15m, 1h, 4h, 1d'],
    ['/coverage/crypto/BTCUSD?from=yesterday', 'invalid from date "yesterday": expected a calendar date YYYY-MM-DD from 1970 on'],
    ['/coverage/crypto/BTCUSD?from=2026-03-04&to=2026-03-03', 'invalid window: to (2026-03-03) must be on or after from (2026-03-04)'],
    ['/coverage/crypto/BTCUSD?from=2026-02-01&to=2026-03-04', 'window of 32 days exceeds the maximum span of 31 days for 1 minute bars'],
    ['/coverage/crypto/BTCUSD?timeframe=4h&from=2024-01-01&to=2026-03-04', 'window of 794 days exceeds the maximum span of 730 days for 4 hour bars'],
  ])('%s is a 400: %s', async (path, message) => {
    const { status, body } = await get(path);
    expect({ status, error: body.error }).toEqual({ status: 400, error: message });
  });

  test('symbols follow the class rules: a plain stock ticker is a 400, an unknown symbol a 404, an unknown class has no route', async () => {
    const plain = await get('/coverage/stocks/AAPL');
    expect(plain.status).toBe(400);
    expect(plain.body.error).toContain('MARKET:BASE');
    expect((await get('/coverage/crypto/NOPEUSD')).body).toMatchObject({ status: 404, error: 'unknown symbol' });
    expect((await get('/coverage/bonds/US:10Y')).status).toBe(404);
  });
});

describe('coverage access: the bar routes rules', () => {
  test('no key is a 401; a free key reads its classes and counts a call against its quota like /agg', async () => {
    expect((await get('/coverage/crypto/BTCUSD', null)).status).toBe(401);
    const first = await get('/coverage/crypto/BTCUSD', keys.free);
    const second = await get('/crypto/agg/BTCUSD/1/minute/2026-03-04/2026-03-04?limit=1', keys.free);
    const third = await get('/coverage/stocks/US:AAPL', keys.free);
    expect([first.status, second.status, third.status]).toEqual([200, 200, 200]);
    const remaining = [first, second, third].map((r) => Number(r.headers.get('x-ratelimit-remaining')));
    expect(remaining).toEqual([remaining[0]!, remaining[0]! - 1, remaining[0]! - 2]);
    expect(first.headers.get('x-ratelimit-limit')).toBe('3000');
  });

  test('a class outside the plan is a 403 naming it, as on the class routes', async () => {
    const refused = await get('/coverage/indices/US500', keys.free);
    expect({ status: refused.status, error: refused.body.error }).toEqual({ status: 403, error: 'asset class indices is not included in the free plan' });
    expect((await get('/indices/agg/US500/prev', keys.free)).body.error).toBe(refused.body.error);
    expect((await get('/coverage/stocks/US:AAPL', keys.perpetuals)).status).toBe(403);
    expect((await get('/coverage/perpetuals/BTCUSDT', keys.free)).status).toBe(403);
  });

  test('a stock market not enabled on the account, or not in the plan, is a 403', async () => {
    const notEnabled = await get('/coverage/stocks/DE:SAP', keys.starterUs);
    expect({ status: notEnabled.status, error: notEnabled.body.error }).toEqual({ status: 403, error: 'market DE is not enabled for this account' });
    const notInPlan = await get('/coverage/stocks/DE:SAP', keys.free);
    expect({ status: notInPlan.status, error: notInPlan.body.error }).toEqual({ status: 403, error: 'market DE is not included in the free plan' });
    expect((await get('/coverage/stocks/DE:SAP?timeframe=1h')).status).toBe(200);
  });

  test('the overnight session needs its add-on, as on its own routes', async () => {
    const refused = await get('/coverage/overnight/US:AAPL', keys.starterUs);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toContain('overnight add-on');
  });
});
