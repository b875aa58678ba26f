// GET /account in process (app.handle) over a temp store and a manual clock: the key's plan, its
// quota and per-minute windows counted exactly as the gate counts them (this call included, equal
// to the X-RateLimit-* headers), the development key unmetered, and the gate's 401 and 429.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { AccountSchema } from '../../src/domain/account-schema.ts';
import { BUILT_IN_PLANS, type Plan } from '../../src/domain/plans.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/domain/timeframes.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import type { NewKey } from '../../src/store/accounts.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const DEV_KEY = 'account-dev-key';
const DEV_PER_MINUTE = 1_000_000;
/** Wednesday 2026-03-04 15:30:00 UTC, on a minute boundary. */
const NOW = Date.UTC(2026, 2, 4) + 15 * HOUR_MS + 30 * MINUTE_MS;
/** A plan used up in two calls a day, to reach the quota's 429 quickly. */
const TINY: Plan = { name: 'tiny', description: 'two calls a day', classes: ['crypto'], quota: 2, quota_window_days: 1, per_minute: null, stream_connections: 1, stream_subscriptions: 5, addons: [] };

let dir: TempDir;
let store: Store;
let clock: ManualClock;
let auth: Authenticator;
let app: ReturnType<typeof createApp>;

beforeAll(() => {
  dir = tempDir();
  store = Store.open({ dataDir: dir.path });
  seedRegistry(store, CATALOG);
  clock = new ManualClock(NOW);
  auth = new Authenticator({ store, clock, plans: [...BUILT_IN_PLANS, TINY], devKey: DEV_KEY, devPerMinute: DEV_PER_MINUTE });
  app = createApp({ store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, () => {});
});

afterAll(async () => {
  await store.close();
  dir[Symbol.dispose]();
});

/** A key created now on the test store. */
function newKey(fields: Partial<NewKey> & Pick<NewKey, 'plan'>): { id: string; secret: string } {
  const { record, secret } = store.accounts.create({ name: fields.plan, markets: ['*'], addons: [], ...fields }, clock.nowMs());
  return { id: record.id, secret };
}

async function get(path: string, key: string | null, on = app): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await on.handle(new Request(`http://localhost${path}`, { headers: key === null ? {} : { 'x-api-key': key } }));
  return { status: res.status, body: await res.json(), headers: res.headers };
}

/** The X-RateLimit-* headers as numbers. */
function rate(headers: Headers): { limit: number; remaining: number; reset: number } {
  return { limit: Number(headers.get('x-ratelimit-limit')), remaining: Number(headers.get('x-ratelimit-remaining')), reset: Number(headers.get('x-ratelimit-reset')) };
}

describe('GET /account', () => {
  test("a free key: its plan, classes and markets, and used counting every call, /account's own included", async () => {
    clock.set(NOW);
    const { id, secret } = newKey({ plan: 'free', markets: ['US'] });
    const first = await get('/account', secret);
    expect(first.status).toBe(200);
    expect(Value.Check(AccountSchema, first.body)).toBe(true);
    expect(first.body).toEqual({
      key_id: id,
      plan: 'free',
      description: 'Crypto, forex and US stocks; 3,000 calls per 30 days; no card',
      classes: ['crypto', 'forex', 'stocks'],
      markets: ['US'],
      addons: [],
      quota: { limit: 3000, used: 1, remaining: 2999, window_days: 30, window_start: NOW, resets_at: NOW + 30 * DAY_MS },
      per_minute: null,
      stream: { max_connections: 2, max_subscriptions: 50 },
      as_of: NOW,
    });
    expect(rate(first.headers)).toEqual({ limit: 3000, remaining: 2999, reset: Math.ceil((NOW + 30 * DAY_MS) / 1000) });

    // Every call with a valid key counts: a 200, a 404, a 403 outside the plan.
    expect((await get('/markets', secret)).status).toBe(200);
    expect((await get('/crypto/quote/NOPEUSD', secret)).status).toBe(404);
    expect((await get('/indices/quote/US500', secret)).status).toBe(403);
    const later = await get(`/account?apiKey=${secret}`, null);
    expect(later.body.quota).toEqual({ limit: 3000, used: 5, remaining: 2995, window_days: 30, window_start: NOW, resets_at: NOW + 30 * DAY_MS });
    expect(rate(later.headers)).toEqual({ limit: 3000, remaining: 2995, reset: Math.ceil(later.body.quota.resets_at / 1000) });
  });

  test('the quota window restarts every window_days from the key creation', async () => {
    clock.set(NOW);
    const { secret } = newKey({ plan: 'free' });
    await get('/account', secret);
    clock.set(NOW + 31 * DAY_MS);
    try {
      const { body, headers } = await get('/account', secret);
      expect(body.quota).toEqual({ limit: 3000, used: 1, remaining: 2999, window_days: 30, window_start: NOW + 30 * DAY_MS, resets_at: NOW + 60 * DAY_MS });
      expect(rate(headers).remaining).toBe(2999);
    } finally {
      clock.set(NOW);
    }
  });

  test('a starter key shows the minute window, which the headers report; it resets at the next UTC minute', async () => {
    clock.set(NOW + 20_000);
    try {
      const { secret } = newKey({ plan: 'starter', markets: ['US', 'DE'], addons: ['fundamentals', 'overnight'] });
      await get('/markets', secret);
      const { body, headers } = await get('/account', secret);
      expect({ markets: body.markets, addons: body.addons, classes: body.classes }).toEqual({
        markets: ['DE', 'US'],
        addons: ['fundamentals', 'overnight'],
        classes: ['crypto', 'forex', 'stocks', 'indices', 'etfs', 'commodities'],
      });
      expect(body.per_minute).toEqual({ limit: 300, used: 2, remaining: 298, resets_at: NOW + MINUTE_MS });
      expect(body.quota).toMatchObject({ limit: 100_000, used: 2, remaining: 99_998 });
      // The minute is closer to running out, so it is the window the headers report.
      expect(rate(headers)).toEqual({ limit: 300, remaining: 298, reset: (NOW + MINUTE_MS) / 1000 });

      clock.set(NOW + MINUTE_MS + 5_000);
      const next = await get('/account', secret);
      expect(next.body.per_minute).toEqual({ limit: 300, used: 1, remaining: 299, resets_at: NOW + 2 * MINUTE_MS });
      expect(next.body.quota).toMatchObject({ used: 3, remaining: 99_997 });
      expect(rate(next.headers)).toEqual({ limit: 300, remaining: 299, reset: (NOW + 2 * MINUTE_MS) / 1000 });
    } finally {
      clock.set(NOW);
    }
  });

  test('the development key is unmetered: quota null, every class, market and add-on', async () => {
    clock.set(NOW);
    const { status, body } = await get('/account', DEV_KEY);
    expect(status).toBe(200);
    expect(Value.Check(AccountSchema, body)).toBe(true);
    expect(body).toEqual({
      key_id: 'dev',
      plan: 'development',
      description: 'the development key: every class, market and add-on',
      classes: ['crypto', 'forex', 'stocks', 'indices', 'etfs', 'commodities', 'perpetuals'],
      markets: 'all',
      addons: ['fundamentals', 'bonds', 'overnight'],
      quota: null,
      per_minute: { limit: DEV_PER_MINUTE, used: 1, remaining: DEV_PER_MINUTE - 1, resets_at: NOW + MINUTE_MS },
      stream: { max_connections: 2000, max_subscriptions: 1000 },
      as_of: NOW,
    });
  });

  test("stream limits are the plan's within the server's stream caps, as the ready frame reports them", async () => {
    const capped = createApp({ store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0', streamCaps: { maxConnectionsPerKey: 100, maxSubscriptions: 1000 } }, () => {});
    const { secret } = newKey({ plan: 'business' });
    expect((await get('/account', secret, capped)).body.stream).toEqual({ max_connections: 100, max_subscriptions: 1000 });
    expect((await get('/account', newKey({ plan: 'free' }).secret, capped)).body.stream).toEqual({ max_connections: 2, max_subscriptions: 50 });
  });

  test('a missing key is the usual 401', async () => {
    const { status, body, headers } = await get('/account', null);
    expect({ status, body }).toEqual({ status: 401, body: { status: 401, error: 'missing API key: send it in the x-api-key header or the apiKey query parameter', request_id: headers.get('x-request-id') } });
  });

  test('a revoked key is a 401', async () => {
    const { id, secret } = newKey({ plan: 'free' });
    store.accounts.update(id, { revokedMs: clock.nowMs() });
    const { status, body } = await get('/account', secret);
    expect({ status, error: body.error }).toEqual({ status: 401, error: 'API key revoked' });
  });

  test('a key whose quota is used up gets 429 on /account as on any route, until its window restarts', async () => {
    clock.set(NOW);
    try {
      const { secret } = newKey({ plan: 'tiny' });
      expect((await get('/crypto/symbols', secret)).status).toBe(200);
      const last = await get('/account', secret);
      expect(last.body.quota).toEqual({ limit: 2, used: 2, remaining: 0, window_days: 1, window_start: NOW, resets_at: NOW + DAY_MS });
      expect(rate(last.headers).remaining).toBe(0);
      const refused = await get('/account', secret);
      expect({ status: refused.status, error: refused.body.error, retryAfter: refused.headers.get('retry-after') }).toEqual({ status: 429, error: 'rate limit exceeded', retryAfter: String(DAY_MS / 1000) });
      // A refused call is not counted: the next window starts from this call alone.
      clock.set(NOW + DAY_MS);
      expect((await get('/account', secret)).body.quota).toMatchObject({ used: 1, remaining: 1, window_start: NOW + DAY_MS });
    } finally {
      clock.set(NOW);
    }
  });
});
