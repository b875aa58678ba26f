// The vendors' tick history routes in process (app.handle) over a seeded store: the Massive
// timestamp filters in each form, next_url on the host the client used, the Alpaca windows and
// page tokens, and each dialect's refusals (400, 404, 422) in its own error body.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const DEV_KEY = 'tick-dialects-dev-key';
const RING = 128;
/** Trade n of AAPL at T0 + n s (200 of them: the ring keeps 73..200); BTCUSD trade n at T0 + n s + 250 ms. */
const T0 = Date.UTC(2026, 2, 4, 15);
const aaplAt = (n: number) => T0 + n * 1000;
const btcAt = (n: number) => T0 + n * 1000 + 250;
const ns = (ms: number) => BigInt(ms) * 1_000_000n;

let dir: TempDir;
let store: Store;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  dir = tempDir();
  store = Store.open({ dataDir: dir.path, ringCapacity: RING });
  seedRegistry(store, CATALOG);
  const aapl = store.registry.resolve('stocks', 'US:AAPL')!.id;
  const btc = store.registry.resolve('crypto', 'BTCUSD')!.id;
  for (let n = 1; n <= 200; n++) store.appendTrade(aapl, aaplAt(n), 100 + n, n % 7 === 0 ? null : n);
  for (let n = 1; n <= 20; n++) store.appendTrade(btc, btcAt(n), 50_000 + n, 0.5);
  await store.flush();
  const clock = new ManualClock(T0 + 3_600_000);
  const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: DEV_KEY, devPerMinute: 1_000_000 });
  app = createApp({ store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, () => {});
});

afterAll(async () => {
  await store.close();
  dir[Symbol.dispose]();
});

async function get(path: string, origin = 'http://localhost'): Promise<{ status: number; body: any }> {
  const res = await app.handle(new Request(`${origin}${path}`, { headers: { 'x-api-key': DEV_KEY, 'apca-api-key-id': DEV_KEY } }));
  return { status: res.status, body: await res.json() };
}

const seqs = (body: { results: { sequence_number: number }[] }) => body.results.map((r) => r.sequence_number);
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

describe('Massive /v3/trades filters and paging', () => {
  test.each([
    ['timestamp.gte and .lte in nanoseconds (both included)', `timestamp.gte=${ns(aaplAt(100))}&timestamp.lte=${ns(aaplAt(103))}`, range(100, 103)],
    ['.gt and .lt exclude their instants', `timestamp.gt=${ns(aaplAt(100))}&timestamp.lt=${ns(aaplAt(103))}`, [101, 102]],
    ['a nanosecond value inside a millisecond: .gte starts after it', `timestamp.gte=${ns(aaplAt(100)) + 1n}&timestamp.lte=${ns(aaplAt(102))}`, [101, 102]],
    ['Unix ms and RFC 3339 instants', `timestamp.gte=${aaplAt(150)}&timestamp.lt=${new Date(aaplAt(152)).toISOString()}`, [150, 151]],
    ['timestamp names one instant', `timestamp=${ns(aaplAt(120))}`, [120]],
    ['a date as .lte is its whole day', `timestamp.gte=${ns(aaplAt(195))}&timestamp.lte=2026-03-04`, range(195, 200)],
  ])('%s', async (_, query, expected) => {
    const { status, body } = await get(`/compat/massive/v3/trades/AAPL?order=asc&${query}`);
    expect(status).toBe(200);
    expect(seqs(body)).toEqual(expected);
  });

  test('the trade shape: ns times, size 0 where unknown, the seq as id and sequence_number', async () => {
    const { body } = await get(`/compat/massive/v3/trades/AAPL?timestamp=${ns(aaplAt(140))}`);
    const t = ns(aaplAt(140)).toString();
    expect(JSON.stringify(body.results[0])).toBe(`{"conditions":[],"exchange":0,"id":"140","participant_timestamp":${t},"price":240,"sequence_number":140,"sip_timestamp":${t},"size":0,"decimal_size":"0"}`);
  });

  test('next_url points at the host the client used and repeats the filters; following it ends the window', async () => {
    const first = await get(`/compat/massive/v3/trades/AAPL?timestamp.gte=${ns(aaplAt(180))}&limit=8&order=asc`, 'https://mds.example.org:8443');
    const next = new URL(first.body.next_url);
    expect(next.origin).toBe('https://mds.example.org:8443');
    expect(next.pathname).toBe('/compat/massive/v3/trades/AAPL');
    expect(Object.fromEntries(next.searchParams)).toMatchObject({ 'timestamp.gte': String(ns(aaplAt(180))), limit: '8', order: 'asc' });
    const got = [...seqs(first.body)];
    for (let url: string | undefined = first.body.next_url; url !== undefined; ) {
      const page = await get(new URL(url).pathname + new URL(url).search);
      got.push(...seqs(page.body));
      url = page.body.next_url;
    }
    expect(got).toEqual(range(180, 200));
  });

  test('refusals in the vendor body: 422 before the retention, 400 for bad filters or a reused cursor; unknown tickers are empty', async () => {
    const before = await get(`/compat/massive/v3/trades/AAPL?timestamp.gte=${ns(aaplAt(10))}`);
    expect(before.status).toBe(422);
    expect(before.body).toMatchObject({ status: 'ERROR', request_id: expect.any(String) });
    expect(before.body.error).toContain(`the oldest retained trade of US:AAPL is at ${new Date(aaplAt(73)).toISOString()}`);
    expect((await get('/compat/massive/v3/trades/AAPL?timestamp=soon')).body.error).toBe('invalid timestamp "soon": expected a date YYYY-MM-DD, a nanosecond timestamp or an RFC 3339 instant');
    expect((await get('/compat/massive/v3/trades/AAPL?sort=price')).body.error).toBe('invalid sort "price": allowed value is timestamp');
    expect((await get(`/compat/massive/v3/trades/AAPL?timestamp.gt=${ns(aaplAt(150))}&timestamp.lt=${ns(aaplAt(150))}`)).status).toBe(400);
    const page = await get('/compat/massive/v3/trades/AAPL?limit=5');
    const cursor = new URL(page.body.next_url).searchParams.get('cursor');
    expect((await get(`/compat/massive/v3/trades/AAPL?limit=5&order=asc&cursor=${cursor}`)).status).toBe(400);
    expect(await get('/compat/massive/v3/quotes/O:SPY251219C00650000')).toMatchObject({ status: 200, body: { status: 'OK', results: [] } });
  });
});

describe('Alpaca historical trades', () => {
  test('start and end bound the window (end included), asc by default; page tokens continue across symbols', async () => {
    const one = await get(`/compat/alpaca/v2/stocks/AAPL/trades?start=${new Date(aaplAt(100)).toISOString()}&end=${new Date(aaplAt(102)).toISOString()}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      trades: [100, 101, 102].map((n) => ({ t: new Date(aaplAt(n)).toISOString().replace('.000Z', 'Z'), x: '', p: 100 + n, s: n, c: [], i: n, z: '' })),
      symbol: 'AAPL',
      next_page_token: null,
    });
    const first = await get(`/compat/alpaca/v2/stocks/trades?symbols=AAPL&start=${new Date(aaplAt(195)).toISOString()}&limit=4`);
    expect(first.body.trades.AAPL.map((t: { i: number }) => t.i)).toEqual([195, 196, 197, 198]);
    const second = await get(`/compat/alpaca/v2/stocks/trades?symbols=AAPL&start=${new Date(aaplAt(195)).toISOString()}&limit=4&page_token=${first.body.next_page_token}`);
    expect(second.body).toEqual({ trades: { AAPL: [199, 200].map((n) => expect.objectContaining({ i: n })) }, next_page_token: null });
  });

  test('crypto trades in the crypto shape; refusals in the vendor body', async () => {
    const { body } = await get('/compat/alpaca/v1beta3/crypto/us/trades?symbols=BTC/USD&limit=2&sort=desc');
    expect(body).toEqual({ trades: { 'BTC/USD': [20, 19].map((n) => ({ t: new Date(btcAt(n)).toISOString(), p: 50_000 + n, s: 0.5, i: n, tks: '' })) }, next_page_token: expect.any(String) });
    const before = await get(`/compat/alpaca/v2/stocks/trades?symbols=BTC,AAPL&start=${new Date(aaplAt(1)).toISOString()}`);
    expect(before.status).toBe(422);
    expect(before.body.code).toBe(42210000);
    expect(before.body.message).toContain('the oldest retained trade of US:AAPL');
    expect(await get('/compat/alpaca/v2/stocks/AA$PL/trades')).toEqual({ status: 400, body: { code: 40010001, message: 'invalid symbol: AA$PL' } });
    expect((await get('/compat/alpaca/v2/stocks/AAPL/trades?page_token=bm9wZQ')).status).toBe(400);
    expect((await get('/compat/alpaca/v1beta3/crypto/eu/quotes?symbols=BTC/USD')).status).toBe(404);
    expect((await get('/compat/alpaca/v2/stocks/quotes')).body).toEqual({ code: 40010001, message: 'invalid symbol: symbols is required' });
  });
});
