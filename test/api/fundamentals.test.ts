// Fundamentals over real HTTP: what the simulator serves on a fresh start (every rule visible,
// consistent with its prices), the single, batch and paged routes with their limits and errors,
// the signed cursor, the add-on and market entitlements, and an import into a running server
// cross-checked against its live prices.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FUNDAMENTALS_MARKETS, FundamentalsBatchSchema, FundamentalsItemSchema, FundamentalsPageSchema } from '../../src/domain/fundamentals.ts';
import { STOCKS } from '../../src/ingest/reference/stocks.ts';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { runMds, until } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp-dir.ts';

type Item = Record<string, any> & { symbol: string };

let server: TestServer;
let dataDir: string;
let items: Map<string, Item>;

async function pageAll(market: string, limit = 1000, key?: string): Promise<{ pages: number; items: Item[] }> {
  const all: Item[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const res = await server.get(`/fundamentals/stocks?market=${market}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`, key ? { key } : {});
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(Value.Check(FundamentalsPageSchema, body)).toBe(true);
    pages++;
    all.push(...body.items);
    cursor = body.next_cursor;
  } while (cursor);
  return { pages, items: all };
}

async function errorOf(path: string, key?: string): Promise<[number, string]> {
  const res = await server.get(path, key === undefined ? {} : { key });
  return [res.status, ((await res.json()) as { error: string }).error];
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mds-fund-'));
  server = await startServer({ dataDir });
  items = new Map();
  for (const market of FUNDAMENTALS_MARKETS) for (const item of (await pageAll(market)).items) items.set(item.symbol, item);
});
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('simulator fundamentals on a fresh start', () => {
  test('every US, DE, ES and FR stock of the catalog is covered; other markets are not', () => {
    const covered = STOCKS.filter((s) => (FUNDAMENTALS_MARKETS as readonly string[]).includes(s.market!)).map((s) => s.symbol).sort();
    expect([...items.keys()].sort()).toEqual(covered);
  });

  test('every item matches the schema, has its identity fields and no nulls', () => {
    for (const item of items.values()) {
      expect(Value.Check(FundamentalsItemSchema, item)).toBe(true);
      expect(item.symbol).toBe(`${item.market}:${item.base_symbol}`);
      expect(Object.values(item)).not.toContain(null);
    }
  });

  test('served figures keep the guarantees: ratios consistent with the counts, estimates never beside the figure', () => {
    for (const item of items.values()) {
      if ('float_ratio' in item) expect(item.float_ratio).toBe(item.free_float / item.shares_total);
      else expect('free_float' in item && 'shares_total' in item && item.free_float <= item.shares_total).toBe(false);
      if ('short_float_ratio' in item) expect(item.short_float_ratio).toBe(item.short_interest / item.free_float);
      expect('shares_total' in item && 'shares_listed_est' in item).toBe(false);
      expect('free_float' in item && 'free_float_est' in item).toBe(false);
      if ('country_code' in item) expect(item.country_code).toMatch(/^[A-Z]{2}$/);
    }
  });

  test('market caps agree with the live prices the service quotes', async () => {
    for (const symbol of ['US:AAPL', 'DE:SAP', 'FR:MC', 'ES:ITX', 'US:ASML']) {
      const trade = (await server.json(`/stocks/trade/last/${symbol}`)).body;
      const item = items.get(symbol)!;
      const ratio = (item.shares_total * trade.price) / item.market_cap;
      expect(ratio).toBeGreaterThan(0.95);
      expect(ratio).toBeLessThan(1.05);
    }
  });

  test('each rule shows on some listing', () => {
    const pick = (symbol: string, ...fields: string[]) => fields.map((f) => f in items.get(symbol)!);
    // receipt reporting ordinary shares: count withheld, estimate instead; float on its own, no ratio
    expect(pick('US:TSM', 'shares_total', 'shares_listed_est', 'free_float', 'float_ratio', 'market_cap')).toEqual([false, true, true, false, true]);
    // receipt with an ordinary-base float, one with a float on neither base: free_float_est
    expect(pick('US:BABA', 'free_float', 'free_float_est', 'shares_listed_est')).toEqual([false, true, true]);
    expect(pick('US:TM', 'free_float', 'free_float_est')).toEqual([false, true]);
    const tm = items.get('US:TM')!;
    expect(tm.free_float_est).toBe(Math.round(tm.shares_listed_est * (1 - tm.insider_ownership)));
    // receipt without a reported float: neither float field
    expect(pick('DE:AHLA', 'free_float', 'free_float_est', 'shares_listed_est')).toEqual([false, false, true]);
    // receipt whose count agrees: served as is; with a float 8% over: estimate from insiders
    expect(pick('US:ASML', 'shares_total', 'free_float', 'float_ratio')).toEqual([true, true, true]);
    expect(pick('US:NVO', 'shares_total', 'free_float', 'free_float_est')).toEqual([true, false, true]);
    // ordinary listing with a count from before a split: count and cap withheld, no substitute
    expect(pick('US:NFLX', 'shares_total', 'market_cap', 'shares_listed_est', 'free_float')).toEqual([false, false, false, false]);
    // float exactly 5% over: rebuilt as count less insider holdings
    const brk = items.get('US:BRK.B')!;
    expect(brk.free_float).toBe(brk.shares_total - Math.round(brk.shares_total * brk.insider_ownership));
    // float far over, and over without insider ownership: left out
    expect(pick('DE:VOW3', 'shares_total', 'free_float', 'float_ratio')).toEqual([true, false, false]);
    expect(pick('ES:ACS', 'shares_total', 'free_float', 'insider_ownership')).toEqual([true, false, false]);
    // restatement without short interest: yesterday's set and as_of kept
    expect(items.get('US:INTC')!.as_of).toBe('2026-03-03');
    expect(items.get('US:AAPL')!.as_of).toBe('2026-03-04');
    // country: derived, differs from the market prefix, left out when it names no country
    expect(items.get('US:TSM')!.country_code).toBe('TW');
    expect(items.get('FR:AIR')!.country_code).toBe('NL');
    expect(pick('DE:AIR', 'country', 'country_code')).toEqual([true, false]);
    // figures the issuer does not report are left out
    expect(pick('US:PLTR', 'beta', 'employees', 'institutional_ownership', 'company')).toEqual([false, false, false, true]);
  });
});

describe('GET /fundamentals/stocks/{symbol}', () => {
  test('serves the stored item; the symbol is trimmed and uppercased', async () => {
    const res = await server.get('/fundamentals/stocks/%20us:aapl%20');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
    expect(res.headers.get('x-ratelimit-remaining')).toBeTruthy();
    expect(await res.json()).toEqual(items.get('US:AAPL')!);
  });

  test('a plain ticker is a 400 that asks for MARKET:BASE', async () => {
    const [status, error] = await errorOf('/fundamentals/stocks/AAPL');
    expect(status).toBe(400);
    expect(error).toContain('MARKET:BASE');
  });

  test('404 for an unknown symbol and for a market without coverage', async () => {
    expect(await errorOf('/fundamentals/stocks/US:NOPE')).toEqual([404, 'unknown symbol']);
    expect(await errorOf('/fundamentals/stocks/GB:HSBA')).toEqual([404, 'no fundamentals for this market: fundamentals cover the stock markets US, DE, ES and FR']);
  });
});

describe('GET /fundamentals/stocks?symbols=', () => {
  test('items in request order, duplicates once, symbols without coverage in missing', async () => {
    const { status, body } = await server.json('/fundamentals/stocks?symbols=US:AAPL,%20de:sap,US:NOPE,GB:HSBA,US:AAPL');
    expect(status).toBe(200);
    expect(Value.Check(FundamentalsBatchSchema, body)).toBe(true);
    expect(body).toEqual({ count: 2, items: [items.get('US:AAPL'), items.get('DE:SAP')], missing: ['US:NOPE', 'GB:HSBA'] });
  });

  test('market, cursor and limit are ignored when symbols is present', async () => {
    const { status, body } = await server.json('/fundamentals/stocks?symbols=FR:MC&market=XX&cursor=forged&limit=0');
    expect(status).toBe(200);
    expect(body.items.map((i: Item) => i.symbol)).toEqual(['FR:MC']);
  });

  test('100 symbols are allowed; 101 is a 400 that states the limit', async () => {
    const symbols = (n: number) => Array.from({ length: n }, (_, i) => `US:Q${i}`).join(',');
    const ok = await server.json(`/fundamentals/stocks?symbols=${symbols(100)}`);
    expect(ok.status).toBe(200);
    expect(ok.body.missing.length).toBe(100);
    expect(await errorOf(`/fundamentals/stocks?symbols=${symbols(101)}`)).toEqual([400, 'too many symbols: at most 100 per request, got 101']);
  });

  test('an empty list is a 400; a malformed symbol is listed in rejected with the reason and the rest is served', async () => {
    expect((await errorOf('/fundamentals/stocks?symbols=,,'))[0]).toBe(400);
    const { status, body } = await server.json('/fundamentals/stocks?symbols=US:AAPL,AAPL,US:NOPE');
    expect(status).toBe(200);
    expect(body.items.map((i: { symbol: string }) => i.symbol)).toEqual(['US:AAPL']);
    expect(body.missing).toEqual(['US:NOPE']);
    expect(body.rejected).toEqual([{ symbol: 'AAPL', reason: 'invalid stocks symbol "AAPL": expected MARKET:BASE, a two-letter market prefix and a ticker such as US:AAPL' }]);
    expect('rejected' in (await server.json('/fundamentals/stocks?symbols=US:AAPL')).body).toBe(false);
  });
});

describe('GET /fundamentals/stocks (paged)', () => {
  test('ordered by symbol; market defaults to US; next_cursor omitted on the last page', async () => {
    const us = [...items.values()].filter((i) => i.market === 'US').map((i) => i.symbol);
    const first = await server.json('/fundamentals/stocks?limit=10');
    expect(first.body.market).toBe('US');
    expect(first.body.count).toBe(10);
    expect(first.body.items.map((i: Item) => i.symbol)).toEqual([...us].sort().slice(0, 10));
    const { pages, items: all } = await pageAll('US', 10);
    expect(pages).toBe(Math.ceil(us.length / 10));
    expect(all.map((i) => i.symbol)).toEqual([...us].sort());
    const last = await server.json(`/fundamentals/stocks?limit=${us.length}`);
    expect(last.body.count).toBe(us.length);
    expect('next_cursor' in last.body).toBe(false);
  });

  test('the default page size is 500', async () => {
    const { body } = await server.json('/fundamentals/stocks?market=de');
    expect(body.market).toBe('DE');
    expect(body.count).toBe([...items.values()].filter((i) => i.market === 'DE').length);
  });

  test.each([['0'], ['1001'], ['abc'], ['-5'], ['1.5']])('limit=%s is a 400 that states the range', async (limit) => {
    expect(await errorOf(`/fundamentals/stocks?limit=${limit}`)).toEqual([400, `invalid limit "${limit}": an integer from 1 to 1000 (default 500)`]);
  });

  test('a market outside US, DE, ES, FR is a 400', async () => {
    expect(await errorOf('/fundamentals/stocks?market=GB')).toEqual([400, 'invalid market "GB": fundamentals cover the markets US, DE, ES, FR']);
  });

  test('a forged, altered or foreign-market cursor is a 400', async () => {
    const { body } = await server.json('/fundamentals/stocks?market=US&limit=5');
    const cursor: string = body.next_cursor;
    const [payload, mac] = cursor.split('.');
    const forged = `${Buffer.from('US:AAPL').toString('base64url')}.${mac}`;
    for (const bad of ['junk', `${payload}.AAAAAAAAAAAAAAAA`, forged, `${payload}`, `${cursor}x`]) {
      const [status, error] = await errorOf(`/fundamentals/stocks?market=US&cursor=${encodeURIComponent(bad)}`);
      expect(status).toBe(400);
      expect(error).toStartWith('invalid cursor');
    }
    expect((await errorOf(`/fundamentals/stocks?market=DE&cursor=${cursor}`))[1]).toBe('invalid cursor: it continues market US, not DE; pass the same market on every page');
  });
});

describe('access', () => {
  let withAddon: string;
  let withoutAddon: string;
  let free: string;
  beforeAll(async () => {
    const create = async (...args: string[]) => {
      const r = await runMds('keys', 'create', '--json', '--data-dir', dataDir, ...args);
      expect(r.code).toBe(0);
      return JSON.parse(r.out).key as string;
    };
    withAddon = await create('--plan', 'pro', '--markets', 'US', '--addons', 'fundamentals');
    withoutAddon = await create('--plan', 'pro', '--markets', 'all', '--addons', 'bonds');
    free = await create('--plan', 'free');
    for (const key of [withAddon, withoutAddon, free]) await until(async () => (await server.get('/crypto/symbols', { key })).status === 200, 'the new key');
  });

  test('without the fundamentals add-on every route is a 403 naming the add-on', async () => {
    for (const key of [withoutAddon, free]) {
      for (const path of ['/fundamentals/stocks/US:AAPL', '/fundamentals/stocks?symbols=US:AAPL', '/fundamentals/stocks?market=US']) {
        expect(await errorOf(path, key)).toEqual([403, 'the fundamentals add-on is not enabled for this account']);
      }
    }
  });

  test('with the add-on: its enabled markets are served, others are a 403', async () => {
    expect((await server.get('/fundamentals/stocks/US:AAPL', { key: withAddon })).status).toBe(200);
    expect((await pageAll('US', 1000, withAddon)).items.length).toBeGreaterThan(40);
    const denied: [number, string] = [403, 'market DE is not enabled for this account'];
    expect(await errorOf('/fundamentals/stocks/DE:SAP', withAddon)).toEqual(denied);
    // The batch serves what the key may see and lists the rest in rejected with the reason.
    const res = await server.get('/fundamentals/stocks?symbols=US:AAPL,DE:SAP', { key: withAddon });
    expect(res.status).toBe(200);
    const batch = (await res.json()) as { count: number; missing: string[]; rejected: unknown };
    expect([batch.count, batch.missing, batch.rejected]).toEqual([1, [], [{ symbol: 'DE:SAP', reason: denied[1] }]]);
    expect(await errorOf('/fundamentals/stocks?market=DE', withAddon)).toEqual(denied);
  });

  test('no key is a 401, as on every route', async () => {
    expect((await server.get('/fundamentals/stocks/US:AAPL', { key: null })).status).toBe(401);
  });
});

describe('mds import into a running server', () => {
  test('records are cross-checked against the live price at import time', async () => {
    const price = async (symbol: string) => (await server.json(`/stocks/trade/last/${symbol}`)).body.price as number;
    const [tsm, nflx, aapl] = [await price('US:TSM'), await price('US:NFLX'), await price('US:AAPL')];
    const header = 'symbol,as_of,depositary_receipt,market_cap,shares_total,free_float,short_interest,insider_ownership,adv_10d,adv_90d,days_to_cover,institutional_ownership,beta';
    const rest = '1000000,0.01,200000,210000,5,0.5,1.1';
    const file = join(dataDir, 'live.csv');
    writeFileSync(
      file,
      [
        header,
        // a receipt reporting 5 ordinary shares per receipt: the estimate is cap over live price
        `US:TSM,2026-03-05,true,${Math.round(5_000_000_000 * tsm)},25000000000,4800000000,${rest}`,
        // an ordinary listing whose count and cap agree at the live price: served again
        `US:NFLX,2026-03-05,false,${Math.round(4_250_000_000 * nflx)},4250000000,4000000000,${rest}`,
        // a restatement whose count contradicts the live price: the previous set stays
        `US:AAPL,2026-03-05,false,${Math.round(14_900_000_000 * aapl)},1490000000,1400000000,${rest}`,
      ].join('\n'),
    );
    const r = await runMds('import', 'fundamentals', file, '--data-dir', dataDir);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain('cross-check price: 3 live');
    expect(r.out).toContain('kept previous set of US:AAPL: the 2026-03-05 record leaves market_cap, share count, free float unavailable');
    const t = (await server.json('/fundamentals/stocks/US:TSM')).body;
    expect(t.as_of).toBe('2026-03-05');
    expect('shares_total' in t).toBe(false);
    expect(t.shares_listed_est / 5_000_000_000).toBeGreaterThan(0.97);
    expect(t.shares_listed_est / 5_000_000_000).toBeLessThan(1.03);
    expect(t.free_float).toBe(4_800_000_000);
    const n = (await server.json('/fundamentals/stocks/US:NFLX')).body;
    expect(n).toMatchObject({ shares_total: 4_250_000_000, free_float: 4_000_000_000, float_ratio: 4_000_000_000 / 4_250_000_000, as_of: '2026-03-05' });
    expect((await server.json('/fundamentals/stocks/US:AAPL')).body).toEqual(items.get('US:AAPL')!);
  });
});

describe('store failures', () => {
  test.each(['/fundamentals/stocks/US:AAPL', '/fundamentals/stocks?symbols=US:AAPL', '/fundamentals/stocks?market=US'])('%s → 503, logged', async (path) => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    seedRegistry(store, CATALOG);
    const failing = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'fundamentals') return { get: fail, json: fail, page: fail, cursorKey: () => new Uint8Array(32) };
        return Reflect.get(target, prop, receiver);
      },
    });
    const logs: string[] = [];
    const clock = new ManualClock(Date.UTC(2026, 2, 4));
    const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: 'k'.repeat(10), devPerMinute: 100 });
    const app = createApp({ store: failing, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, (line) => logs.push(line));
    const res = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-api-key': 'k'.repeat(10) } }));
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: string }).error).toBe('market data temporarily unavailable');
    expect(logs.some((l) => l.includes('disk read failed'))).toBe(true);
    await store.close();
  });
});

function fail(): never {
  throw new Error('disk read failed');
}
