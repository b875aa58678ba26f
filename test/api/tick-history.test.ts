// GET /{class}/trades/{symbol} and /{class}/quotes/{symbol} in process (app.handle) over a store
// seeded with more ticks than its ring keeps: windows in every time format, both sorts, cursor
// paging, the 422 of a window before the oldest retained tick (and of a cursor the ring has passed),
// honest empty windows, and the 400s.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { QuoteHistorySchema, TradeHistorySchema } from '../../src/domain/tick-history.ts';
import { ErrorSchema } from '../../src/domain/schemas.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const DEV_KEY = 'tick-history-dev-key';
const RING = 128;
/** Wednesday 2026-03-04 10:00 UTC; trade n (from 1) is at T0 + n s, quote n at T0 + n s + 500 ms. */
const T0 = Date.UTC(2026, 2, 4, 10);
const tradeAt = (n: number) => T0 + n * 1000;
const quoteAt = (n: number) => T0 + n * 1000 + 500;
const iso = (ms: number) => new Date(ms).toISOString();

let dir: TempDir;
let store: Store;
let app: ReturnType<typeof createApp>;
let btc = 0;
let traded = 0;

/** Appends trades up to number `n` (price 100 + n/100, size n, every tenth size unknown). */
function tradeUpTo(n: number): void {
  for (; traded < n; ) {
    traded++;
    store.appendTrade(btc, tradeAt(traded), 100 + traded / 100, traded % 10 === 0 ? null : traded);
  }
}

beforeAll(async () => {
  dir = tempDir();
  store = Store.open({ dataDir: dir.path, ringCapacity: RING });
  seedRegistry(store, CATALOG);
  btc = store.registry.resolve('crypto', 'BTCUSD')!.id;
  const aapl = store.registry.resolve('stocks', 'US:AAPL')!.id;
  tradeUpTo(300);
  for (let n = 1; n <= 40; n++) store.appendQuote(aapl, quoteAt(n), 200 + n, 200.5 + n, n % 2 === 0 ? null : n, 7);
  store.setFreshness(aapl, false, T0, 1);
  await store.flush();
  const clock = new ManualClock(tradeAt(400));
  const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: DEV_KEY, devPerMinute: 1_000_000 });
  app = createApp({ store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, () => {});
});

afterAll(async () => {
  await store.close();
  dir[Symbol.dispose]();
});

async function get(path: string, key: string | null = DEV_KEY): Promise<{ status: number; body: any }> {
  const res = await app.handle(new Request(`http://localhost${path}`, { headers: key === null ? {} : { 'x-api-key': key } }));
  return { status: res.status, body: await res.json() };
}

/** The native trade of number n as stored. */
const trade = (n: number) => ({ timestamp: tradeAt(n), price: 100 + n / 100, size: n % 10 === 0 ? null : n, seq: n });
const numbers = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);

/** Every page of a request, following next_cursor. */
async function allPages(path: string): Promise<any[]> {
  const out: any[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const { status, body } = await get(`${path}${cursor === null ? '' : `&cursor=${cursor}`}`);
    expect(status).toBe(200);
    expect(body.results_count).toBe(body.results.length);
    out.push(...body.results);
    cursor = body.next_cursor;
    if (cursor === null) return out;
  }
  throw new Error('paging did not end');
}

describe('trades of a window', () => {
  test('without a window: every retained trade, newest first, with the retention stated', async () => {
    const { status, body } = await get('/crypto/trades/BTCUSD');
    expect(status).toBe(200);
    expect(Value.Check(TradeHistorySchema, body)).toBe(true);
    expect(body.results).toEqual(numbers(300 - RING + 1, 300).reverse().map(trade));
    expect({ symbol: body.symbol, count: body.results_count, next: body.next_cursor, from: body.retained_from, ring: body.retention_ticks, stale: body.stale }).toEqual({
      symbol: 'BTCUSD',
      count: RING,
      next: null,
      from: tradeAt(300 - RING + 1),
      ring: RING,
      stale: true,
    });
  });

  test('from and to as dates, Unix ms and ISO instants bound the window (to included)', async () => {
    const asc = (q: string) => get(`/crypto/trades/btcusd?sort=asc&${q}`);
    expect((await asc(`from=${tradeAt(200)}&to=${tradeAt(210)}`)).body.results).toEqual(numbers(200, 210).map(trade));
    expect((await asc(`from=${iso(tradeAt(250))}&to=${encodeURIComponent(iso(tradeAt(252)).replace('Z', '+00:00'))}`)).body.results).toEqual(numbers(250, 252).map(trade));
    // A date `to` takes the whole day; `from` is an instant inside the retention.
    expect((await asc(`from=${tradeAt(290)}&to=2026-03-04`)).body.results).toEqual(numbers(290, 300).map(trade));
  });

  test('a window inside the retention with no trades is an honest empty page', async () => {
    const { status, body } = await get(`/crypto/trades/BTCUSD?from=${tradeAt(400)}&to=2026-03-05`);
    expect(status).toBe(200);
    expect(body).toMatchObject({ results_count: 0, results: [], next_cursor: null, retained_from: tradeAt(300 - RING + 1) });
  });

  test('a window starting before the oldest retained trade is a 422 naming it and the ring size', async () => {
    for (const from of ['2026-03-04', String(tradeAt(100)), iso(tradeAt(300 - RING))]) {
      const { status, body } = await get(`/crypto/trades/BTCUSD?from=${from}&to=${tradeAt(300)}`);
      expect(status).toBe(422);
      expect(Value.Check(ErrorSchema, body)).toBe(true);
      expect(body.error).toContain(`the oldest retained trade of BTCUSD is at ${iso(tradeAt(300 - RING + 1))} (${tradeAt(300 - RING + 1)})`);
      expect(body.error).toContain(`the ring keeps the last ${RING} trades per symbol`);
    }
    // Ending before it too.
    const { status, body } = await get(`/crypto/trades/BTCUSD?to=${tradeAt(100)}`);
    expect(status).toBe(422);
    expect(body.error).toStartWith(`window ends at ${iso(tradeAt(100))}, before the retained trades`);
  });
});

describe('paging', () => {
  test('cursor pages join to the whole window, asc and desc, with nothing repeated or skipped', async () => {
    const window = `from=${tradeAt(180)}&to=${tradeAt(290)}`;
    expect(await allPages(`/crypto/trades/BTCUSD?${window}&sort=asc&limit=25`)).toEqual(numbers(180, 290).map(trade));
    expect(await allPages(`/crypto/trades/BTCUSD?${window}&limit=40`)).toEqual(numbers(180, 290).reverse().map(trade));
    // A page that ends exactly at the window's end says so: no cursor to an empty page.
    const exact = await get(`/crypto/trades/BTCUSD?${window}&limit=111`);
    expect({ count: exact.body.results_count, next: exact.body.next_cursor }).toEqual({ count: 111, next: null });
  });

  test('a cursor used with another window, sort or symbol is a 400; a forged one too', async () => {
    const first = await get(`/crypto/trades/BTCUSD?from=${tradeAt(200)}&limit=5`);
    const cursor = first.body.next_cursor as string;
    expect(cursor).toBeString();
    for (const q of [`from=${tradeAt(201)}&cursor=${cursor}`, `from=${tradeAt(200)}&sort=asc&cursor=${cursor}`]) {
      const { status, body } = await get(`/crypto/trades/BTCUSD?${q}`);
      expect(status).toBe(400);
      expect(body.error).toContain('invalid cursor: it pages another symbol, window or sort');
    }
    expect((await get(`/crypto/trades/ETHUSD?from=${tradeAt(200)}&cursor=${cursor}`)).status).toBe(400);
    expect((await get(`/crypto/quotes/BTCUSD?from=${tradeAt(200)}&cursor=${cursor}`)).status).toBe(400);
    const forged = await get('/crypto/trades/BTCUSD?cursor=bm9wZQ');
    expect({ status: forged.status, error: forged.body.error }).toEqual({ status: 400, error: 'invalid cursor "bm9wZQ": pass the next_cursor of the previous page unchanged' });
  });

  test('paging forward past ticks the ring has since dropped is a 422, not a page with a hole', async () => {
    const first = await get('/crypto/trades/BTCUSD?sort=asc&limit=10');
    expect(first.body.results[0]).toEqual(trade(traded - RING + 1));
    tradeUpTo(traded + 2 * RING);
    const next = await get(`/crypto/trades/BTCUSD?sort=asc&limit=10&cursor=${first.body.next_cursor}`);
    expect(next.status).toBe(422);
    expect(next.body.error).toStartWith('the trades after this cursor have left the ring while paging');
  });
});

describe('paging backward without from', () => {
  test('a later page whose older ticks left the ring meanwhile is a 422, not a shorter history', async () => {
    const first = await get('/crypto/trades/BTCUSD?limit=10');
    expect(first.body.results[0]).toEqual(trade(traded));
    // Five new trades push the five oldest out of the ring, which the next page would have reached.
    tradeUpTo(traded + 5);
    const second = await get(`/crypto/trades/BTCUSD?limit=10&cursor=${first.body.next_cursor}`);
    expect(second.status).toBe(422);
    expect(second.body.error).toStartWith('older trades of this window have left the ring while paging');
  });

  test('while the ring keeps them, the pages join to every trade held when paging began', async () => {
    const held = (await get('/crypto/trades/BTCUSD?limit=5000')).body.results;
    expect(await allPages('/crypto/trades/BTCUSD?limit=30')).toEqual(held);
  });
});

describe('quotes', () => {
  test('quotes carry bid, ask and sizes (null where unknown), and the line freshness', async () => {
    const { status, body } = await get(`/stocks/quotes/US:AAPL?sort=asc&limit=3&from=${quoteAt(1)}`);
    expect(status).toBe(200);
    expect(Value.Check(QuoteHistorySchema, body)).toBe(true);
    expect(body.results).toEqual([1, 2, 3].map((n) => ({ timestamp: quoteAt(n), bid: 200 + n, ask: 200.5 + n, bid_size: n % 2 === 0 ? null : n, ask_size: 7, seq: n })));
    expect({ stale: body.stale, from: body.retained_from, next: typeof body.next_cursor }).toEqual({ stale: false, from: quoteAt(1), next: 'string' });
  });

  test('a line with no ticks answers an empty page without a window, and a 422 with one', async () => {
    const empty = await get('/forex/trades/EURUSD');
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ symbol: 'EURUSD', results: [], retained_from: null, next_cursor: null });
    const windowed = await get('/forex/trades/EURUSD?from=2026-03-04');
    expect(windowed.status).toBe(422);
    expect(windowed.body.error).toContain('no trades of EURUSD are retained');
  });
});

describe('bad requests', () => {
  test.each([
    ['limit=0', 'invalid limit "0": expected an integer from 1 to 5000'],
    ['limit=5001', 'invalid limit "5001": expected an integer from 1 to 5000'],
    ['sort=up', 'invalid sort "up": allowed values are asc, desc'],
    ['from=yesterday', 'invalid from "yesterday": expected a date YYYY-MM-DD, Unix ms or an ISO 8601 instant with a zone (2026-03-04T15:30:00Z)'],
    ['from=2026-03-04T10:00:00', 'invalid from "2026-03-04T10:00:00": expected a date YYYY-MM-DD, Unix ms or an ISO 8601 instant with a zone (2026-03-04T15:30:00Z)'],
    ['from=2026-03-05&to=2026-03-04', 'invalid window: to (2026-03-04) must be on or after from (2026-03-05)'],
  ])('%s → 400', async (query, message) => {
    const { status, body } = await get(`/crypto/trades/BTCUSD?${query}`);
    expect({ status, error: body.error }).toEqual({ status: 400, error: message });
  });

  test('the class rules apply: unknown symbol 404, no key 401, a plain stock ticker 400', async () => {
    expect((await get('/crypto/trades/NOPEUSD')).status).toBe(404);
    expect((await get('/crypto/trades/BTCUSD', null)).status).toBe(401);
    expect((await get('/stocks/quotes/AAPL')).status).toBe(400);
  });
});
