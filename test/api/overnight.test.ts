// The US overnight session over real HTTP and WebSocket (issue 8): every /overnight route with its
// per-class shape plus the session fields, bars inside the overnight session only, the range
// parameter rules, symbol errors, the access rule (stocks, market US and the overnight add-on) on
// every route, the overnight channels, and outside the session the last overnight values with
// the session they came from, never the regular session's.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { OvernightPrevBarSchema, OvernightQuoteSchema, OvernightSnapshotSchema, OvernightSymbolsSchema, OvernightTradeSchema } from '../../src/domain/overnight-schemas.ts';
import { RangeSchema } from '../../src/domain/schemas.ts';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { ALL_INSTRUMENTS, OVERNIGHT_LINES } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';
import { sessionAt } from '../../src/market/index.ts';
import { runMds, until } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';

const ms = (iso: string) => Date.parse(iso);
const HOUR = 3600_000;
/** Wednesday March 4, 2026, 22:20 New York (EST): inside the night into Thursday March 5. */
const WEDNESDAY_NIGHT = '2026-03-05T03:20:00Z';
const TONIGHT = { session_start: ms('2026-03-05T01:00:00Z'), session_end: ms('2026-03-05T09:00:00Z') };
/** The night into Wednesday March 4 (the last session before the test servers' default clock). */
const LAST_NIGHT = { session_start: ms('2026-03-04T01:00:00Z'), session_end: ms('2026-03-04T09:00:00Z') };

const ROUTES = [
  '/overnight/symbols',
  '/overnight/quote/US:AAPL',
  '/overnight/trade/last/US:AAPL',
  '/overnight/snapshot/US500ETF',
  '/overnight/agg/US:NVDA/prev',
  '/overnight/agg/US:NVDA/prev?interval=1h',
  '/overnight/agg/US100ETF/1/hour/2026-03-03/2026-03-05',
];

async function errorOf(server: TestServer, path: string, key?: string): Promise<[number, string]> {
  const res = await server.get(path, key === undefined ? {} : { key });
  return [res.status, ((await res.json()) as { error: string }).error];
}

let server: TestServer;
let dataDir: string;
const keys = { withAddon: '', noAddon: '', noUs: '', free: '', perpetuals: '' };
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mds-overnight-'));
  server = await startServer({ dataDir, args: ['--history-days', '5', '--clock-start', WEDNESDAY_NIGHT] });
  const create = async (...args: string[]) => {
    const r = await runMds('keys', 'create', '--json', '--data-dir', dataDir, ...args);
    expect(r.code).toBe(0);
    return JSON.parse(r.out).key as string;
  };
  [keys.withAddon, keys.noAddon, keys.noUs, keys.free, keys.perpetuals] = await Promise.all([
    create('--plan', 'starter', '--addons', 'overnight'),
    create('--plan', 'pro', '--markets', 'all', '--addons', 'fundamentals,bonds'),
    create('--plan', 'starter', '--markets', 'DE,FR', '--addons', 'overnight'),
    create('--plan', 'free'),
    create('--plan', 'perpetuals'),
  ]);
  for (const key of Object.values(keys)) await until(async () => (await server.get('/crypto/symbols', { key })).status === 200, 'the new key');
}, 180_000);
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('/overnight/symbols', () => {
  test('lists the overnight lines, US stocks and ETFs, sorted by symbol, as {symbols: [{symbol, name, type}]}', async () => {
    const { status, body } = await server.json('/overnight/symbols');
    expect(status).toBe(200);
    expect(Value.Check(OvernightSymbolsSchema, body)).toBe(true);
    const symbols = body.symbols.map((s: { symbol: string }) => s.symbol);
    expect(symbols).toEqual([...OVERNIGHT_LINES.map((s) => s.symbol)].sort());
    expect(body.symbols).toContainEqual({ symbol: 'US:AAPL', name: 'Apple Inc.', type: 'stock' });
    expect(body.symbols).toContainEqual({ symbol: 'US500ETF', name: 'US 500 Index ETF', type: 'etf' });
  });
});

describe('in the session (Wednesday night, 22:20 New York)', () => {
  test('quote: the per-class Quote plus the session in progress; a series of its own, not the regular session', async () => {
    const { status, body } = await server.json('/overnight/quote/%20us:aapl%20');
    expect(status).toBe(200);
    expect(Value.Check(OvernightQuoteSchema, body)).toBe(true);
    expect(Object.keys(body)).toEqual(['symbol', 'bid', 'ask', 'bid_size', 'ask_size', 'timestamp', 'stale', 'session_start', 'session_end', 'session_open']);
    expect(body).toMatchObject({ symbol: 'US:AAPL', ...TONIGHT, session_open: true });
    expect(body.timestamp).toBeGreaterThanOrEqual(TONIGHT.session_start);
    expect(body.bid).toBeLessThan(body.ask);
    // The regular-session line last quoted at Wednesday's 16:00 close.
    const stock = (await server.json('/stocks/quote/US:AAPL')).body;
    expect(stock.timestamp).toBeLessThan(ms('2026-03-04T21:00:01Z'));
  });

  test('quotes move while the session runs', async () => {
    const first = (await server.json('/overnight/quote/US:MSFT')).body.timestamp;
    await until(async () => (await server.json('/overnight/quote/US:MSFT')).body.timestamp > first, 'a new overnight quote', 30_000);
  });

  test('last trade and snapshot carry the session too', async () => {
    const trade = await server.json('/overnight/trade/last/US:TSLA');
    expect(trade.status).toBe(200);
    expect(Value.Check(OvernightTradeSchema, trade.body)).toBe(true);
    expect(trade.body).toMatchObject({ symbol: 'US:TSLA', ...TONIGHT, session_open: true });
    const snap = await server.json('/overnight/snapshot/US500ETF');
    expect(snap.status).toBe(200);
    expect(Value.Check(OvernightSnapshotSchema, snap.body)).toBe(true);
    expect(snap.body).toMatchObject({ symbol: 'US500ETF', ...TONIGHT, session_open: true });
    expect(snap.body.prev_close).toBeGreaterThan(0);
  });

  test('prev: the last UTC daily bar is the last whole session; with an interval, the last settled bar of tonight', async () => {
    const daily = await server.json('/overnight/agg/US:NVDA/prev');
    expect(daily.status).toBe(200);
    expect(Value.Check(OvernightPrevBarSchema, daily.body)).toBe(true);
    expect(daily.body).toMatchObject({ symbol: 'US:NVDA', ...LAST_NIGHT, session_open: false });
    expect(daily.body.result.t).toBe(ms('2026-03-04T00:00:00Z'));
    expect(daily.body.result.v).toBeGreaterThan(0);
    const hourly = await server.json('/overnight/agg/US:NVDA/prev?interval=1h');
    expect(hourly.status).toBe(200);
    expect(Value.Check(OvernightPrevBarSchema, hourly.body)).toBe(true);
    expect(hourly.body).toMatchObject({ interval: '1h', bar_start: ms('2026-03-05T02:00:00Z'), bar_end: ms('2026-03-05T03:00:00Z'), ...TONIGHT, session_open: true });
  });

  test('range: bars only inside overnight sessions, hourly from 20:00 New York, 4-hourly at 20:00 and 00:00, daily per session', async () => {
    const hourly = await server.json('/overnight/agg/US:AAPL/1/hour/2026-03-01/2026-03-05?sort=asc&limit=5000');
    expect(hourly.status).toBe(200);
    expect(Value.Check(RangeSchema, hourly.body)).toBe(true);
    const times: number[] = hourly.body.results.map((b: { t: number }) => b.t);
    expect(times.length).toBe(8 * 3 + 3); // Monday to Wednesday mornings' sessions and tonight's first three hours (one in progress)
    for (const t of times) {
      const session = sessionAt('OVERNIGHT', t);
      expect(session).not.toBeNull();
      expect((t - session!.openMs) % HOUR).toBe(0);
      expect(sessionAt('US', t)).toBeNull();
    }
    const fourHourly = await server.json('/overnight/agg/US:AAPL/4/hour/2026-03-02/2026-03-04?sort=asc');
    expect(fourHourly.body.results.map((b: { t: number }) => new Date(b.t).toISOString().slice(11, 16))).toEqual(['01:00', '05:00', '01:00', '05:00', '01:00', '05:00']);
    const daily = await server.json('/overnight/agg/US:AAPL/1/day/2026-02-27/2026-03-05?sort=asc');
    expect(daily.body.results.map((b: { t: number }) => new Date(b.t).toISOString().slice(0, 10))).toEqual(['2026-03-02', '2026-03-03', '2026-03-04', '2026-03-05']);
  });

  test('range parameter rules and paging are the per-class ones', async () => {
    for (const tail of ['2/hour/2026-03-03/2026-03-04', '1/week/2026-03-03/2026-03-04', '1/minute/2026-01-01/2026-03-04', '1/hour/2026-03-04/2026-03-03', '1/hour/2026-03-03/2026-03-04?limit=0', '1/hour/2026-03-03/2026-03-04?sort=up']) {
      const [status, message] = await errorOf(server, `/overnight/agg/US:AAPL/${tail}`);
      expect(status).toBe(400);
      expect(await errorOf(server, `/stocks/agg/US:AAPL/${tail}`)).toEqual([400, message]);
    }
    const page = await server.json('/overnight/agg/US:AAPL/1/hour/2026-03-03/2026-03-04?limit=2&offset=1');
    expect(page.body).toMatchObject({ symbol: 'US:AAPL', results_count: 2, total_count: 16, next_offset: 3 });
  });

  test('symbol errors: characters no symbol has are a 400; a non-US stock or a symbol without an overnight line a 404', async () => {
    const expected = 'expected a US stock as US:TICKER (such as US:AAPL) or a US ETF product code (such as US500ETF)';
    expect(await errorOf(server, '/overnight/snapshot/US:AA$PL')).toEqual([400, `invalid symbol "US:AA$PL": symbols are at most 32 characters of A-Z, 0-9, '.', ':', '-'; ${expected}`]);
    for (const path of ['/overnight/quote/DE:SAP', '/overnight/trade/last/US:', '/overnight/quote/US:INTC', '/overnight/quote/AAPL', '/overnight/agg/USBOND/prev', '/overnight/agg/BTCUSD/1/hour/2026-03-03/2026-03-04']) {
      expect(await errorOf(server, path)).toEqual([404, 'unknown symbol']);
    }
  });
});

describe('access: US stocks plus the overnight add-on', () => {
  const prefix = 'the US overnight session needs stocks with market US and the overnight add-on: ';
  test.each([
    ['noAddon', 'the overnight add-on is not enabled for this account'],
    ['free', 'the overnight add-on is not enabled for this account'],
    ['noUs', 'market US is not enabled for this account'],
    ['perpetuals', 'asset class stocks is not included in the perpetuals plan'],
  ] as const)('a %s key gets a 403 naming what is missing on every route, with the rate-limit headers', async (who, missing) => {
    for (const path of ROUTES) {
      const res = await server.get(path, { key: keys[who] });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: string }).error).toBe(prefix + missing);
      expect(res.headers.get('x-ratelimit-remaining')).toBeTruthy();
    }
  });

  test('a key with US stocks and the add-on gets every route', async () => {
    for (const path of ROUTES) expect((await server.get(path, { key: keys.withAddon })).status).toBe(200);
  });
});

describe('stream', () => {
  const wsUrl = (key: string) => `${server.base.replace('http', 'ws')}/?apiKey=${key}`;

  test('overnight.quotes and overnight.trades carry the overnight lines', async () => {
    await using c = await connect(wsUrl(keys.withAddon));
    const ready = await c.next((m) => m.type === 'ready');
    expect(ready.channels).toEqual(expect.arrayContaining(['overnight.quotes', 'overnight.trades']));
    c.send({ action: 'subscribe', channels: ['overnight.quotes', 'overnight.trades'], symbols: ['us:aapl'], id: 1 });
    expect(await c.next((m) => m.type === 'subscribed')).toMatchObject({ id: 1, subscriptions: [{ channel: 'overnight.quotes', symbol: 'US:AAPL' }, { channel: 'overnight.trades', symbol: 'US:AAPL' }] });
    const q = await c.next((m) => m.type === 'quote', 30_000);
    expect(q).toMatchObject({ channel: 'overnight.quotes', asset: 'overnight', symbol: 'US:AAPL' });
    expect(q.ts).toBeGreaterThanOrEqual(TONIGHT.session_start);
    const t = await c.next((m) => m.type === 'trade', 30_000);
    expect(t).toMatchObject({ channel: 'overnight.trades', asset: 'overnight', symbol: 'US:AAPL' });
  });

  test('a key without the add-on is refused the overnight channels with a forbidden frame', async () => {
    await using c = await connect(wsUrl(keys.noAddon));
    await c.next((m) => m.type === 'ready');
    c.send({ action: 'subscribe', channels: ['overnight.quotes'], symbols: ['US:AAPL'] });
    expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'forbidden', message: 'the US overnight session needs stocks with market US and the overnight add-on: the overnight add-on is not enabled for this account' });
  });
});

describe('outside the session', () => {
  test('Wednesday 10:30 New York: the last overnight values with their session, while the regular session trades on', async () => {
    await using day = await startServer();
    const quote = (await day.json('/overnight/quote/US:AAPL')).body;
    expect(Value.Check(OvernightQuoteSchema, quote)).toBe(true);
    expect(quote).toMatchObject({ ...LAST_NIGHT, session_open: false });
    expect(quote.timestamp).toBeGreaterThanOrEqual(LAST_NIGHT.session_start);
    expect(quote.timestamp).toBeLessThan(LAST_NIGHT.session_end);
    const trade = (await day.json('/overnight/trade/last/US:AAPL')).body;
    expect(trade).toMatchObject({ ...LAST_NIGHT, session_open: false });
    expect(trade.timestamp).toBeLessThan(LAST_NIGHT.session_end);
    expect((await day.json('/overnight/snapshot/US:AAPL')).body).toMatchObject({ ...LAST_NIGHT, session_open: false });
    // The last real bar of the session, labelled with its own start.
    expect((await day.json('/overnight/agg/US:AAPL/prev?interval=1h')).body).toMatchObject({ bar_start: ms('2026-03-04T08:00:00Z'), bar_end: ms('2026-03-04T09:00:00Z'), ...LAST_NIGHT });
    // The regular session's line moves; the overnight line stays as the session left it.
    const stockFirst = (await day.json('/stocks/quote/US:AAPL')).body.timestamp;
    expect(stockFirst).toBeGreaterThanOrEqual(ms('2026-03-04T14:30:00Z'));
    await until(async () => (await day.json('/stocks/quote/US:AAPL')).body.timestamp > stockFirst, 'a new regular-session quote', 30_000);
    expect((await day.json('/overnight/quote/US:AAPL')).body).toEqual(quote);
  });

  test('after the 04:00 close and before UTC midnight, prev is the session that just ended, as the snapshot says', async () => {
    // Wednesday 15:00 New York (20:00 UTC): the night into Wednesday closed at 09:00 UTC.
    await using afternoon = await startServer({ args: ['--clock-start', '2026-03-04T20:00:00Z'] });
    const prev = await afternoon.json('/overnight/agg/US:AAPL/prev');
    expect(prev.status).toBe(200);
    expect(prev.body).toMatchObject({ result: { t: ms('2026-03-04T00:00:00Z') }, ...LAST_NIGHT, session_open: false });
    // It can next change when tonight's session (into Thursday) closes at 09:00 UTC, plus the settle lag.
    const maxAge = Number(/max-age=(\d+)/.exec(prev.headers.get('cache-control') ?? '')?.[1]);
    expect(maxAge).toBeGreaterThan(12 * 3600);
    expect(maxAge).toBeLessThanOrEqual(13 * 3600 + 5);
    const daily = (await afternoon.json('/overnight/agg/US:AAPL/prev?interval=1d')).body;
    expect(daily).toMatchObject({ result: prev.body.result, bar_start: ms('2026-03-04T00:00:00Z'), bar_end: LAST_NIGHT.session_end, as_of: LAST_NIGHT.session_end + 5000 });
    // The snapshot's previous close is the close of that same bar, and its last value is from that session.
    const snap = (await afternoon.json('/overnight/snapshot/US:AAPL')).body;
    expect(snap).toMatchObject({ prev_close: prev.body.result.c, ...LAST_NIGHT, session_open: false });
    expect(snap.last_timestamp).toBeLessThan(LAST_NIGHT.session_end);
    expect(snap.last_timestamp).toBeGreaterThanOrEqual(LAST_NIGHT.session_start);
  });

  test('the night before Thanksgiving has no session: the last values are from the night before, and the next opens Thursday night', async () => {
    await using night = await startServer({ args: ['--clock-start', '2026-11-26T03:00:00Z'] });
    const before = { session_start: ms('2026-11-25T01:00:00Z'), session_end: ms('2026-11-25T09:00:00Z') };
    const quote = (await night.json('/overnight/quote/US100ETF')).body;
    expect(quote).toMatchObject({ ...before, session_open: false });
    expect(quote.timestamp).toBeLessThan(before.session_end);
    const status = (await night.json('/markets/OVERNIGHT/status')).body;
    expect(status).toMatchObject({ market: 'OVERNIGHT', is_open: false, status: 'closed', next_open: '2026-11-27T01:00:00Z', next_close: '2026-11-27T09:00:00Z' });
  });
});

describe('restart', () => {
  test('after a restart in the session the overnight lines answer at once and quote on over their stored bars, gap filled', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mds-overnight-restart-'));
    try {
      let before: { timestamp: number };
      let barsBefore: number;
      {
        await using first = await startServer({ dataDir: dir, args: ['--clock-start', WEDNESDAY_NIGHT] });
        before = (await first.json('/overnight/quote/US:AAPL')).body;
        barsBefore = (await first.json('/overnight/agg/US:AAPL/1/minute/2026-03-05/2026-03-05?limit=5000')).body.total_count;
      }
      // Ten minutes later in the same session.
      await using second = await startServer({ dataDir: dir, args: ['--clock-start', '2026-03-05T03:30:00Z'] });
      const after = await second.json('/overnight/quote/US:AAPL');
      expect(after.status).toBe(200);
      expect(after.body).toMatchObject({ ...TONIGHT, session_open: true });
      expect(after.body.timestamp).toBeGreaterThanOrEqual(before.timestamp);
      // The venues quote again from the restart on.
      await until(async () => (await second.json('/overnight/quote/US:AAPL')).body.timestamp >= ms('2026-03-05T03:30:00Z'), 'a quote after the restart', 30_000);
      const bars = (await second.json('/overnight/agg/US:AAPL/1/minute/2026-03-05/2026-03-05?limit=5000')).body.total_count;
      expect(bars).toBeGreaterThanOrEqual(barsBefore + 9);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('store failures', () => {
  test.each(['/overnight/quote/US:AAPL', '/overnight/snapshot/US500ETF', '/overnight/agg/US:AAPL/1/hour/2026-03-03/2026-03-04'])('%s → 503, logged', async (path) => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    seedRegistry(store, ALL_INSTRUMENTS);
    const failing = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'latest' || prop === 'barsInRange' || prop === 'barChunkSpans') return () => { throw new Error('disk read failed'); };
        return Reflect.get(target, prop, receiver);
      },
    });
    const logs: string[] = [];
    const clock = new ManualClock(ms(WEDNESDAY_NIGHT));
    const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: 'k'.repeat(10), devPerMinute: 100 });
    const app = createApp({ store: failing, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, (line) => logs.push(line));
    const res = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-api-key': 'k'.repeat(10) } }));
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toBe('market data temporarily unavailable');
    expect(logs.some((l) => l.includes('disk read failed'))).toBe(true);
    await store.close();
  });
});
