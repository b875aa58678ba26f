// GET /health: ready (200) with its checks over real HTTP, with and without a feed; not ready
// (503, the same shape, the reason) when the feed falls silent or the store cannot be read, on an
// app driven by a manual clock.
import { describe, expect, test } from 'bun:test';
import { createApp } from '../../src/api/app.ts';
import { FEED_STALE_MS } from '../../src/api/health.ts';
import { ManualClock } from '../../src/clock.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { startServer } from '../support/server.ts';
import { tempDir } from '../support/temp-dir.ts';

const FIELDS = ['status', 'version', 'feed', 'symbols', 'uptime_s', 'checks', 'last_tick_age_ms', 'reason', 'feeds', 'disk'];

describe('/health over HTTP', () => {
  test('with --feed none: ready without any tick, no key needed, the feed check off', async () => {
    await using server = await startServer({ args: ['--feed', 'none'] });
    const res = await server.get('/health', { key: null });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(Object.keys(body)).toEqual(FIELDS);
    expect(body).toMatchObject({ status: 'ok', version: '1.0.0', feed: 'none', checks: { store: 'ok', feed: 'off' }, last_tick_age_ms: null, reason: null });
    expect(body.symbols).toBeGreaterThan(200);
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(res.headers.get('x-ratelimit-remaining')).toMatch(/^\d+$/);
  });

  test('with the simulator: ready, the feed ticking', async () => {
    await using server = await startServer();
    const res = await server.get('/health', { key: null });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ status: 'ok', feed: 'sim', checks: { store: 'ok', feed: 'ok' }, reason: null });
    expect(body.last_tick_age_ms).toBeLessThan(FEED_STALE_MS);
    // The simulator is one feed, listed with its own report.
    expect(body.feeds).toHaveLength(1);
    expect(body.feeds[0]).toMatchObject({ id: 'sim', state: 'live', reconnects: 0, parse_errors: 0, instruments: 265, reason: null });
    expect(body.feeds[0].last_message_age_ms).toBeLessThan(FEED_STALE_MS);
  });
});

describe('/health readiness', () => {
  function appWith(opts: { failingStore?: boolean; lastTickMs?: () => number | null; minFreeBytes?: number; log?: (line: string) => void }) {
    const dir = tempDir();
    const store = Store.open({ dataDir: dir.path, minFreeBytes: opts.minFreeBytes, log: opts.log });
    seedRegistry(store, CATALOG);
    const served = opts.failingStore
      ? new Proxy(store, {
          get(target, prop, receiver) {
            if (prop === 'getMeta') return () => { throw new Error('disk read failed'); };
            return Reflect.get(target, prop, receiver);
          },
        })
      : store;
    const clock = new ManualClock(Date.UTC(2026, 2, 4, 15, 30));
    const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: 'k'.repeat(10), devPerMinute: 100 });
    const feedActivity = opts.lastTickMs ? { lastTickMs: opts.lastTickMs } : undefined;
    const app = createApp({ store: served, bars: { barInProgress: () => null }, clock, auth, feed: feedActivity ? 'sim' : 'none', feedActivity, version: '1.0.0' }, () => {});
    const health = async () => {
      const res = await app.handle(new Request('http://localhost/health'));
      return { status: res.status, body: (await res.json()) as any };
    };
    return {
      clock,
      health,
      [Symbol.asyncDispose]: async () => {
        await store.close();
        dir[Symbol.dispose]();
      },
    };
  }

  test('a feed silent for longer than the limit is a 503 with the same shape and the reason', async () => {
    let lastTick: number | null = null;
    await using t = appWith({ lastTickMs: () => lastTick });
    // Before the first tick, the age counts from the start.
    expect((await t.health()).status).toBe(200);
    lastTick = t.clock.nowMs();
    t.clock.advance(FEED_STALE_MS);
    expect((await t.health()).body).toMatchObject({ status: 'ok', last_tick_age_ms: FEED_STALE_MS });
    t.clock.advance(15_000);
    const { status, body } = await t.health();
    expect(status).toBe(503);
    expect(Object.keys(body)).toEqual(FIELDS);
    expect(body).toMatchObject({ status: 'unavailable', checks: { store: 'ok', feed: 'stale' }, last_tick_age_ms: 45_000, reason: 'the sim feed has not ticked for 45 s' });
    lastTick = t.clock.nowMs();
    expect((await t.health()).status).toBe(200);
  });

  test('a store that cannot be read is a 503 naming it', async () => {
    await using t = appWith({ failingStore: true });
    const { status, body } = await t.health();
    expect(status).toBe(503);
    expect(Object.keys(body)).toEqual(FIELDS);
    expect(body).toMatchObject({ status: 'unavailable', checks: { store: 'failed', feed: 'off' }, reason: 'the store cannot be read: disk read failed' });
  });

  test('free disk space under --min-free-disk is degraded: still a 200, the reason, logged once', async () => {
    const logs: string[] = [];
    // More than any disk has: the data dir's free space is always under it.
    await using t = appWith({ minFreeBytes: 2 ** 60, log: (line) => logs.push(line) });
    const { status, body } = await t.health();
    expect(status).toBe(200);
    expect(Object.keys(body)).toEqual(FIELDS);
    expect(body).toMatchObject({ status: 'degraded', checks: { store: 'ok', feed: 'off' } });
    expect(body.reason).toMatch(/^free disk space [\d.]+ [GMK]i?B is under --min-free-disk 1073741824\.0 GiB$/);
    expect(body.disk).toEqual({ space: 'low', free_bytes: body.disk.free_bytes, min_free_bytes: 2 ** 60, writes: 'ok', write_error: null, failing_since_ms: null, unwritten_ticks: 0, dropped_ticks: 0 });
    expect(body.disk.free_bytes).toBeGreaterThan(0);
    await t.health();
    expect(logs.filter((line) => line.startsWith('warning: free disk space'))).toHaveLength(1);
  });

  test('with room on the disk the disk part reports ok', async () => {
    await using t = appWith({ minFreeBytes: 1 });
    const { status, body } = await t.health();
    expect(status).toBe(200);
    expect(body).toMatchObject({ status: 'ok', reason: null, disk: { space: 'ok', min_free_bytes: 1, writes: 'ok', write_error: null, dropped_ticks: 0 } });
  });
});
