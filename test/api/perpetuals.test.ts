// Perpetual futures over real HTTP and WebSocket (issue 8): every /perpetuals route with its shape
// and `source_count`, the range parameter rules, errors, the Perpetuals plan (the symbol list
// open to any key), the perpetuals channels, and 503 when no source is live. The server clock
// runs from Wed 2026-03-04 15:30 UTC with five days of history, so the weekend before is covered.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { createBunRouteHandler } from 'elysia/adapter/bun/compose';
import { createApp } from '../../src/api/app.ts';
import type { ApiDeps } from '../../src/api/deps.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { COMPOSITE_RULES } from '../../src/ingest/consolidators/perpetual-composite.ts';
import { Pipeline } from '../../src/ingest/pipeline.ts';
import { Store } from '../../src/store/index.ts';
import { until } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';
import { CompositeQuoteSchema, CompositeSnapshotSchema, CompositeTradeSchema, MarkSchema } from '../../src/domain/perpetuals-schemas.ts';
import { PlainSymbolsSchema, PrevBarSchema, RangeSchema } from '../../src/domain/schemas.ts';
import { PERPETUALS } from '../../src/ingest/reference/catalog.ts';
import { VENUES_PER_CLASS } from '../../src/ingest/simulator/simulator.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';

const MAIN = resolve(import.meta.dir, '../../src/main.ts');
const VENUES = VENUES_PER_CLASS.perpetuals;

async function createKey(dataDir: string, plan: string): Promise<string> {
  const proc = Bun.spawn([process.execPath, MAIN, 'keys', 'create', '--json', '--plan', plan, '--data-dir', dataDir], { stdout: 'pipe', stderr: 'pipe' });
  const [out, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
  expect(code).toBe(0);
  return (JSON.parse(out) as { key: string }).key;
}

/** Waits until the running server knows a key made by the CLI. */
async function untilKnown(server: TestServer, key: string): Promise<void> {
  await until(async () => (await server.get('/perpetuals/symbols', { key })).status !== 401, 'the new key to work');
}

/**
 * A composite's latest value once a source counts. The simulator's venues quote per step of a
 * timer, so on a loaded machine they quote less often in real time and every source of a
 * composite can be stale (over 10 s old) for a moment: the value is awaited, not assumed.
 */
async function counted(path: string): Promise<any> {
  let last: { status: number; body: any } | undefined;
  await until(async () => {
    last = await server.json(path);
    return last.status === 200 && last.body.source_count >= 1;
  }, `${path} with a counted source`);
  return last!.body;
}

let server: TestServer;
let dataDir: string;
let freeKey: string;
let perpetualsKey: string;
let starterKey: string;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mds-perp-'));
  server = await startServer({ dataDir, args: ['--history-days', '5'] });
  [freeKey, perpetualsKey, starterKey] = await Promise.all([createKey(dataDir, 'free'), createKey(dataDir, 'perpetuals'), createKey(dataDir, 'starter')]);
  for (const key of [freeKey, perpetualsKey, starterKey]) await untilKnown(server, key);
  // A server with five days of history and three CLI runs: longer than the default hook timeout on a busy machine.
}, 120_000);
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

const ROUTES = ['/perpetuals/quote/BTCUSDT', '/perpetuals/mark/BTCUSDT', '/perpetuals/snapshot/BTCUSDT', '/perpetuals/trade/last/BTCUSDT', '/perpetuals/agg/BTCUSDT/prev', '/perpetuals/agg/BTCUSDT/1/hour/2026-03-03/2026-03-04'];

describe('/perpetuals/symbols', () => {
  test('lists every perpetual, sorted, as {symbols: [{symbol, name}]}', async () => {
    const { status, body } = await server.json('/perpetuals/symbols');
    expect(status).toBe(200);
    expect(Value.Check(PlainSymbolsSchema, body)).toBe(true);
    const symbols = body.symbols.map((s: { symbol: string }) => s.symbol);
    expect(symbols).toEqual(PERPETUALS.map((s) => s.symbol).sort());
    expect(symbols).toEqual(expect.arrayContaining(['XAUUSDT', 'BTCUSDT', 'US500USDT', 'EURUSDT', 'AAPLUSDT', 'US500ETFUSDT']));
  });

  test('is open to any key: free, starter and perpetuals keys all get it', async () => {
    for (const key of [freeKey, starterKey, perpetualsKey]) expect((await server.get('/perpetuals/symbols', { key })).status).toBe(200);
  });

  test('is not in the legacy /symbols list', async () => {
    const { body } = await server.json('/symbols');
    expect(body.symbols.some((s: { symbol: string }) => s.symbol.endsWith('USDT'))).toBe(false);
  });
});

describe('latest values', () => {
  test('quote: the Quote fields plus source_count; symbols are trimmed and uppercased', async () => {
    const body = await counted('/perpetuals/quote/%20xauusdt%20');
    expect(Object.keys(body)).toEqual(['symbol', 'bid', 'ask', 'bid_size', 'ask_size', 'timestamp', 'source_count']);
    expect(Value.Check(CompositeQuoteSchema, body)).toBe(true);
    expect(body.symbol).toBe('XAUUSDT');
    expect(body.bid).toBeLessThan(body.ask);
    expect(body.source_count).toBeGreaterThanOrEqual(1);
    expect(body.source_count).toBeLessThanOrEqual(VENUES);
  });

  test('mark: the composite mid with source_count', async () => {
    const quote = await counted('/perpetuals/quote/US500USDT');
    const body = await counted('/perpetuals/mark/US500USDT');
    expect(Object.keys(body)).toEqual(['symbol', 'mark', 'timestamp', 'source_count']);
    expect(Value.Check(MarkSchema, body)).toBe(true);
    expect(Math.abs(body.mark - (quote.bid + quote.ask) / 2) / body.mark).toBeLessThan(0.01);
  });

  test('snapshot: the Snapshot fields plus source_count, prev_close from the daily bars', async () => {
    const body = await counted('/perpetuals/snapshot/BTCUSDT');
    expect(Object.keys(body)).toEqual(['symbol', 'bid', 'ask', 'bid_size', 'ask_size', 'last_price', 'last_timestamp', 'prev_close', 'change', 'change_percent', 'source_count']);
    expect(Value.Check(CompositeSnapshotSchema, body)).toBe(true);
    expect(body.prev_close).toBeGreaterThan(0);
    expect(body.source_count).toBeGreaterThanOrEqual(1);
  });

  test('last trade: a trade from a counted source, or the mark, with source_count', async () => {
    const body = await counted('/perpetuals/trade/last/ETHUSDT');
    expect(Value.Check(CompositeTradeSchema, body)).toBe(true);
    expect(body.source_count).toBeGreaterThanOrEqual(1);
  });

  test('the mark route compiles to a synchronous handler, like the other hot routes', () => {
    const app = createApp({ clock: { nowMs: () => 0 }, store: {}, auth: {} } as unknown as ApiDeps);
    app.compile();
    const routes = (app as unknown as { router: { history: { path: string; method: string; composed: unknown }[] } }).router.history;
    const route = routes.find((r) => r.path === '/perpetuals/mark/:symbol' && r.method === 'GET');
    expect(route).toBeDefined();
    expect(String(createBunRouteHandler(app, route as never)).startsWith('async')).toBe(false);
  });

  test('only perpetuals have a mark route', async () => {
    expect((await server.get('/crypto/mark/BTCUSD')).status).toBe(404);
  });
});

describe('bars', () => {
  test('prev: the previous UTC daily bar; v is null (composites carry no volume)', async () => {
    const { status, body } = await server.json('/perpetuals/agg/BTCUSDT/prev');
    expect(status).toBe(200);
    expect(Value.Check(PrevBarSchema, body)).toBe(true);
    expect(body.result).toMatchObject({ t: Date.parse('2026-03-03T00:00:00Z'), v: null });
  });

  test('prev with interval: the latest settled bar with interval, bar_start, bar_end, as_of', async () => {
    const { status, body } = await server.json('/perpetuals/agg/XAUUSDT/prev?interval=1h');
    expect(status).toBe(200);
    expect(Value.Check(PrevBarSchema, body)).toBe(true);
    expect(body).toMatchObject({ symbol: 'XAUUSDT', interval: '1h', bar_start: Date.parse('2026-03-04T14:00:00Z'), bar_end: Date.parse('2026-03-04T15:00:00Z') });
  });

  test('range: priced around the clock, weekends included', async () => {
    const { status, body } = await server.json('/perpetuals/agg/US500USDT/1/hour/2026-03-01/2026-03-01?sort=asc');
    expect(status).toBe(200);
    expect(Value.Check(RangeSchema, body)).toBe(true);
    expect(body.total_count).toBe(24); // a Sunday: the index itself is closed
    expect(body.results[0]).toMatchObject({ t: Date.parse('2026-03-01T00:00:00Z'), v: null });
  });

  test('range: paged with limit, offset and next_offset like the per-class route', async () => {
    const first = await server.json('/perpetuals/agg/BTCUSDT/15/minute/2026-03-02/2026-03-03?limit=100&sort=asc');
    expect(first.body).toMatchObject({ symbol: 'BTCUSDT', results_count: 100, total_count: 192, next_offset: 100 });
    const last = await server.json('/perpetuals/agg/BTCUSDT/15/minute/2026-03-02/2026-03-03?limit=100&offset=100&sort=asc');
    expect(last.body).toMatchObject({ results_count: 92, next_offset: null });
    expect(last.body.results[0].t).toBe(first.body.results[99].t + 15 * 60_000);
  });

  test.each([
    ['/perpetuals/agg/BTCUSDT/1/week/2026-03-01/2026-03-02', 'timespan'],
    ['/perpetuals/agg/BTCUSDT/4/minute/2026-03-01/2026-03-02', 'multiplier'],
    ['/perpetuals/agg/BTCUSDT/1/minute/2026-01-01/2026-03-04', '31'],
    ['/perpetuals/agg/BTCUSDT/1/hour/2026-03-04/2026-03-01', 'from'],
    ['/perpetuals/agg/BTCUSDT/1/hour/2026-03-01/2026-03-02?limit=5001', 'limit'],
    ['/perpetuals/agg/BTCUSDT/1/hour/2026-03-01/2026-03-02?sort=up', 'sort'],
    ['/perpetuals/agg/BTCUSDT/prev?interval=2m', 'interval'],
  ])('%s is a 400 naming %s', async (path, word) => {
    const { status, body } = await server.json(path);
    expect(status).toBe(400);
    expect(body.error).toContain(word);
  });
});

describe('errors', () => {
  test.each(['quote', 'mark', 'snapshot', 'trade/last', 'agg'])('%s: characters no symbol has are a 400 saying what is expected; a name without USDT or an unknown one a 404', async (route) => {
    const suffix = route === 'agg' ? '/prev' : '';
    const bad = await server.json(`/perpetuals/${route}/BTC$USDT${suffix}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('USDT');
    expect(await server.json(`/perpetuals/${route}/BTCUSD${suffix}`)).toMatchObject({ status: 404, body: { error: 'unknown symbol' } });
    const unknown = await server.json(`/perpetuals/${route}/DOGEUSDT${suffix}`);
    expect(unknown).toMatchObject({ status: 404, body: { error: 'unknown symbol' } });
  });
});

describe('the Perpetuals plan', () => {
  test.each(ROUTES)('%s: a free key gets 403 naming what is missing; a starter key too; a perpetuals key 200', async (path) => {
    for (const [key, plan] of [[freeKey, 'free'], [starterKey, 'starter']] as const) {
      const res = await server.get(path, { key });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe(`asset class perpetuals is not included in the ${plan} plan`);
      expect(res.headers.get('x-ratelimit-remaining')).not.toBeNull();
    }
    // 200 once a source counts (a latest value with every source stale is a 503, see counted).
    await until(async () => (await server.get(path, { key: perpetualsKey })).status === 200, `${path} with the perpetuals key`);
  });

  test('the perpetuals plan does not open the other classes beyond crypto', async () => {
    expect((await server.get('/crypto/quote/BTCUSD', { key: perpetualsKey })).status).toBe(200);
    expect((await server.get('/forex/quote/EURUSD', { key: perpetualsKey })).status).toBe(403);
  });
});

describe('stream', () => {
  const wsUrl = (key: string) => `${server.base.replace('http', 'ws')}/?apiKey=${key}`;

  test('perpetuals.quotes: composite quotes with source_count', async () => {
    await using c = await connect(wsUrl(perpetualsKey));
    const ready = await c.next((m) => m.type === 'ready');
    expect(ready.channels).toEqual(expect.arrayContaining(['perpetuals.quotes', 'perpetuals.trades']));
    c.send({ action: 'subscribe', channels: ['perpetuals.quotes'], symbols: ['btcusdt'], id: 1 });
    expect(await c.next((m) => m.type === 'subscribed')).toEqual({ type: 'subscribed', id: 1, replayed: 0, subscriptions: [{ channel: 'perpetuals.quotes', symbol: 'BTCUSDT' }] });
    const q = await c.next((m) => m.type === 'quote');
    expect(Object.keys(q)).toEqual(['type', 'channel', 'asset', 'symbol', 'bid', 'ask', 'bid_size', 'ask_size', 'ts', 'timestamp', 'source_count', 'seq']);
    expect(q).toMatchObject({ channel: 'perpetuals.quotes', asset: 'perpetuals', symbol: 'BTCUSDT' });
    expect(q.bid).toBeLessThan(q.ask);
    expect(q.source_count).toBeGreaterThanOrEqual(1);
    expect(q.source_count).toBeLessThanOrEqual(VENUES);
  });

  test('perpetuals.trades: trades from counted sources with source_count, in msgpack too', async () => {
    await using c = await connect(`${wsUrl(perpetualsKey)}&format=msgpack`);
    await c.next((m) => m.type === 'ready');
    c.send({ action: 'subscribe', channels: ['perpetuals.trades'], symbols: ['*'] });
    await c.next((m) => m.type === 'subscribed');
    const t = await c.next((m) => m.type === 'trade', 30_000);
    expect(Object.keys(t).filter((k) => k !== '__binary')).toEqual(['type', 'channel', 'asset', 'symbol', 'price', 'size', 'ts', 'timestamp', 'source_count', 'seq']);
    expect(t.symbol).toEndWith('USDT');
    expect(t.source_count).toBeGreaterThanOrEqual(1);
  });

  test('a replay request starts the composite channel live (the ticks ring keeps no source count)', async () => {
    await using c = await connect(wsUrl(perpetualsKey));
    await c.next((m) => m.type === 'ready');
    c.send({ action: 'subscribe', channels: ['perpetuals.quotes'], symbols: ['XAUUSDT'], since: 0 });
    expect((await c.next((m) => m.type === 'subscribed')).replayed).toBe(0);
    expect((await c.next((m) => m.type === 'quote')).source_count).toBeGreaterThanOrEqual(1);
  });

  test('a free key is refused the perpetuals channels with a forbidden frame', async () => {
    await using c = await connect(wsUrl(freeKey));
    await c.next((m) => m.type === 'ready');
    c.send({ action: 'subscribe', channels: ['perpetuals.quotes'], symbols: ['BTCUSDT'] });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'forbidden', message: 'asset class perpetuals is not included in the free plan' });
  });
});

describe('restart', () => {
  test('after a restart the composites quote again at once, later than before, over the stored bars', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-perp-restart-'));
    try {
      let before: { timestamp: number };
      let prevBefore: unknown;
      {
        await using first = await startServer({ dataDir: dir });
        before = (await first.json('/perpetuals/quote/BTCUSDT')).body;
        prevBefore = (await first.json('/perpetuals/agg/BTCUSDT/prev')).body;
      }
      // Ten minutes later: the gap is filled from the stored bars, the venues quote at once.
      await using second = await startServer({ dataDir: dir, args: ['--clock-start', '2026-03-04T15:40:00Z'] });
      const after = await second.json('/perpetuals/quote/BTCUSDT');
      expect(after.status).toBe(200);
      expect(after.body.timestamp).toBeGreaterThan(before.timestamp);
      expect((await second.json('/perpetuals/agg/BTCUSDT/prev')).body).toEqual(prevBefore);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('no live source', () => {
  test('without a feed: quote, mark and last trade are 503 (no stale value), snapshot 404, the list still 200', async () => {
    await using own = await startServer({ args: ['--feed', 'none'] });
    for (const route of ['quote', 'mark', 'trade/last']) {
      const { status, body } = await own.json(`/perpetuals/${route}/BTCUSDT`);
      expect({ route, status, error: body.error }).toEqual({ route, status: 503, error: 'market data temporarily unavailable: no live source for this composite' });
    }
    expect((await own.json('/perpetuals/snapshot/BTCUSDT')).status).toBe(404);
    expect((await own.json('/perpetuals/symbols')).status).toBe(200);
  });
});

describe('sources gone stale while trades exist', () => {
  test('last trade answers the same 503 as quote and mark, and again once a source counts', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    store.registry.upsert([{ symbol: 'BTCUSDT', assetClass: 'perpetuals', name: 'Bitcoin perpetual (USDT)', market: null, baseSymbol: null, aliases: [], listed: true, decimals: 2 }]);
    const id = store.registry.bySymbolName('BTCUSDT')!.id;
    const start = Date.parse('2026-03-07T12:00:00Z');
    const clock = new ManualClock(start);
    const composites = new Pipeline(store, clock);
    const bars = composites.bars;
    const key = 'k'.repeat(10);
    const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: key, devPerMinute: 1000 });
    const app = createApp({ store, bars, composites, clock, auth, feed: 'sim', version: '1.0.0' });
    const get = async (route: string) => {
      const res = await app.handle(new Request(`http://localhost/perpetuals/${route}/BTCUSDT`, { headers: { 'x-api-key': key } }));
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    composites.onVenueQuote(id, { venue: 0, tsMs: start, bid: 100, ask: 101, bidSize: 1, askSize: 1 });
    composites.onVenueQuote(id, { venue: 1, tsMs: start, bid: 100.2, ask: 101.2, bidSize: 1, askSize: 1 });
    composites.onVenueTrade(id, { venue: 0, tsMs: start + 1, price: 100.5, size: 2 });
    clock.set(start + 2);
    const printed = { symbol: 'BTCUSDT', price: 100.5, size: 2, timestamp: start + 1, source_count: 2 };
    expect(await get('trade/last')).toEqual({ status: 200, body: printed });
    // Both sources fall silent beyond the stale limit: no source counts, the trade is not served.
    clock.set(start + COMPOSITE_RULES.staleMs + 1);
    const unavailable = { status: 503, error: 'market data temporarily unavailable: no live source for this composite' };
    for (const route of ['quote', 'mark', 'trade/last']) expect({ route, ...(await get(route)).body }).toMatchObject({ route, ...unavailable });
    // The snapshot serves no price either (every price is a composite of live sources): with no
    // previous close in this store, every value is null, so it is the spec's all-null 404.
    expect(await get('snapshot')).toMatchObject({ status: 404, body: { error: 'no snapshot available' } });
    // A source quotes again: the last trade is served again, with the sources that counted when it printed.
    composites.onVenueQuote(id, { venue: 1, tsMs: start + COMPOSITE_RULES.staleMs + 2, bid: 100.2, ask: 101.2, bidSize: 1, askSize: 1 });
    clock.set(start + COMPOSITE_RULES.staleMs + 3);
    expect(await get('trade/last')).toEqual({ status: 200, body: printed });
    expect((await get('quote')).body).toMatchObject({ source_count: 1 });
    await store.close();
  });
});
