// Bond yields over real HTTP: what the simulator serves on a fresh start (latest observation,
// curves on the latest date or a given one, history windows paged like ranges), the symbol rules
// and errors, the bonds add-on, and `mds import bonds` of the sample Treasury file into running
// servers (values then served, bad rows skipped by line, re-import replaces without duplicates).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import { BOND_SYMBOLS, BOND_TENORS } from '../../src/domain/bonds.ts';
import { BondCurveSchema, BondHistorySchema, BondYieldSchema } from '../../src/domain/bonds-schemas.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { runMds, until } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp-dir.ts';

const FIXTURE = join(import.meta.dir, '../fixtures/us-treasury-par-yield-curve-2026-02.csv');
const TREASURY = 'US Treasury daily par yield curve';

let server: TestServer;
let dataDir: string;

async function errorOf(srv: TestServer, path: string, key?: string): Promise<[number, string]> {
  const res = await srv.get(path, key === undefined ? {} : { key });
  return [res.status, ((await res.json()) as { error: string }).error];
}

async function historyAll(srv: TestServer, symbol: string, from: string, to: string, extra = ''): Promise<any[]> {
  const all: any[] = [];
  let offset: number | null = 0;
  while (offset !== null) {
    const { status, body }: { status: number; body: any } = await srv.json(`/bonds/history/${symbol}?from=${from}&to=${to}&offset=${offset}${extra}`);
    expect(status).toBe(200);
    expect(Value.Check(BondHistorySchema, body)).toBe(true);
    all.push(...body.results);
    offset = body.next_offset;
  }
  return all;
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'mds-bonds-'));
  server = await startServer({ dataDir });
});
afterAll(async () => {
  await server.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe('GET /bonds/yield/{symbol}', () => {
  test('every covered symbol has its latest observation: the last closed business day, with date and source', async () => {
    for (const symbol of BOND_SYMBOLS) {
      const { status, body } = await server.json(`/bonds/yield/${symbol}`);
      expect(status).toBe(200);
      expect(Value.Check(BondYieldSchema, body)).toBe(true);
      const [country, tenor] = symbol.split(':');
      // The test clock is Wednesday 4 March 2026, 15:30 UTC: no market has closed that day yet.
      expect(body).toMatchObject({ symbol, country, tenor, date: '2026-03-03', timestamp: Date.UTC(2026, 2, 3), source: 'mds simulator' });
    }
  });

  test('trims and uppercases the symbol, as the per-class routes do; same headers', async () => {
    const canonical = await server.json('/bonds/yield/US:10Y');
    for (const raw of ['us:10y', '%20Us%3A10Y%20']) {
      const res = await server.get(`/bonds/yield/${raw}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toStartWith('application/json');
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
      expect(res.headers.get('x-ratelimit-remaining')).toBeTruthy();
      expect(await res.json()).toEqual(canonical.body);
    }
    expect(canonical.body.maturity_months).toBe(120);
  });

  test('a malformed symbol is a 400 stating the format; an uncovered country or tenor a 404', async () => {
    const [status, message] = await errorOf(server, '/bonds/yield/US10Y');
    expect(status).toBe(400);
    expect(message).toBe('invalid bonds symbol "US10Y": expected COUNTRY:TENOR, a two-letter country code and a tenor in months or years such as US:10Y or US:3M');
    expect(await errorOf(server, '/bonds/yield/JP:10Y')).toEqual([404, 'no bond yields for this country: bond yields cover US, DE, FR, IT, ES and GB']);
    expect(await errorOf(server, '/bonds/yield/DE:3M')).toEqual([404, 'unknown symbol: DE yields are published for 1Y, 2Y, 3Y, 5Y, 7Y, 10Y, 15Y, 20Y, 30Y']);
  });

  test('there is no list route (spec)', async () => {
    for (const path of ['/bonds', '/bonds/symbols', '/bonds/yield']) expect((await server.get(path)).status).toBe(404);
  });
});

describe('GET /bonds/curve/{country}', () => {
  test("the latest date's curve: every tenor, shortest first, each record as the yield route serves it", async () => {
    for (const country of ['us', 'DE', 'FR', 'IT', 'ES', 'GB'] as const) {
      const { status, body } = await server.json(`/bonds/curve/${country}`);
      expect(status).toBe(200);
      expect(Value.Check(BondCurveSchema, body)).toBe(true);
      const cc = country.toUpperCase() as keyof typeof BOND_TENORS;
      expect(body.country).toBe(cc);
      expect(body.date).toBe('2026-03-03');
      expect(body.count).toBe(BOND_TENORS[cc].length);
      expect(body.results.map((r: any) => r.tenor)).toEqual([...BOND_TENORS[cc]]);
      for (const r of body.results) expect(r).toEqual((await server.json(`/bonds/yield/${r.symbol}`)).body);
    }
  });

  test('?date= gives that business day; a weekend names the date before it that has a curve', async () => {
    const { status, body } = await server.json('/bonds/curve/US?date=2026-02-27');
    expect(status).toBe(200);
    expect(body.date).toBe('2026-02-27');
    expect(body.results.every((r: any) => r.date === '2026-02-27')).toBe(true);
    expect(await errorOf(server, '/bonds/curve/US?date=2026-03-01')).toEqual([404, 'no curve available for US on 2026-03-01: the latest observation date before it is 2026-02-27']);
    expect(await errorOf(server, '/bonds/curve/GB?date=1999-01-04')).toEqual([404, 'no curve available for GB on 1999-01-04: there is no observation on or before it']);
    expect(await errorOf(server, '/bonds/curve/US?date=2026-02-30')).toEqual([400, 'invalid date "2026-02-30": expected a calendar date YYYY-MM-DD from 1970 on']);
  });

  test('UK is accepted for GB on every route (the spec names the UK); answers use GB', async () => {
    for (const [uk, gb] of [['/bonds/curve/uk', '/bonds/curve/GB'], ['/bonds/yield/UK:10Y', '/bonds/yield/GB:10Y'], ['/bonds/history/uk:30y?from=2026-02-01&to=2026-03-01', '/bonds/history/GB:30Y?from=2026-02-01&to=2026-03-01']]) {
      const [a, b] = [await server.json(uk!), await server.json(gb!)];
      expect(a.status).toBe(200);
      expect(a.body).toEqual(b.body);
    }
  });

  test('country rules: 400 unless two letters, 404 unless covered', async () => {
    expect((await errorOf(server, '/bonds/curve/USA'))[0]).toBe(400);
    expect(await errorOf(server, '/bonds/curve/jp')).toEqual([404, 'no bond yields for this country: bond yields cover US, DE, FR, IT, ES and GB']);
  });
});

describe('GET /bonds/history/{symbol}', () => {
  test('daily observations from and to inclusive, newest first by default, matching the curves of those dates', async () => {
    const { status, body } = await server.json('/bonds/history/us:10y?from=2026-02-23&to=2026-03-02');
    expect(status).toBe(200);
    expect(Value.Check(BondHistorySchema, body)).toBe(true);
    expect(body).toMatchObject({ symbol: 'US:10Y', country: 'US', tenor: '10Y', from: '2026-02-23', to: '2026-03-02', results_count: 6, total_count: 6, next_offset: null });
    expect(body.results.map((r: any) => r.date)).toEqual(['2026-03-02', '2026-02-27', '2026-02-26', '2026-02-25', '2026-02-24', '2026-02-23']);
    const curve = (await server.json('/bonds/curve/US?date=2026-02-25')).body;
    const fromCurve = curve.results.find((r: any) => r.tenor === '10Y');
    expect(body.results[3]).toEqual({ date: fromCurve.date, timestamp: fromCurve.timestamp, yield: fromCurve.yield, source: fromCurve.source });
  });

  test('pages like the range route: limit, offset, next_offset, sort', async () => {
    const all = await historyAll(server, 'DE:2Y', '2025-06-01', '2026-03-04', '&limit=40&sort=asc');
    const whole = (await server.json('/bonds/history/DE:2Y?from=2025-06-01&to=2026-03-04&limit=5000&sort=asc')).body;
    expect(whole.total_count).toBeGreaterThan(180);
    expect(all).toEqual(whole.results);
    const dates = all.map((r) => r.date);
    expect(dates).toEqual([...dates].sort());
    expect(new Set(dates).size).toBe(dates.length);
    const page = (await server.json('/bonds/history/DE:2Y?from=2025-06-01&to=2026-03-04&limit=40&offset=40')).body;
    expect(page).toMatchObject({ results_count: 40, total_count: whole.total_count, next_offset: 80 });
    expect(page.results).toEqual(whole.results.slice().reverse().slice(40, 80));
    const past = (await server.json(`/bonds/history/DE:2Y?from=2025-06-01&to=2026-03-04&offset=${whole.total_count}`)).body;
    expect(past).toMatchObject({ results_count: 0, results: [], next_offset: null });
  });

  test('a window with no observations is empty, not an error', async () => {
    const { status, body } = await server.json('/bonds/history/IT:30Y?from=1999-01-01&to=1999-12-31');
    expect(status).toBe(200);
    expect(body).toMatchObject({ results_count: 0, total_count: 0, results: [], next_offset: null });
  });

  test('parameter errors are 400s that say what is allowed', async () => {
    expect(await errorOf(server, '/bonds/history/US:10Y?from=2026-02-01')).toEqual([400, 'missing to: expected a calendar date YYYY-MM-DD']);
    expect(await errorOf(server, '/bonds/history/US:10Y?from=2026-02-02&to=2026-02-01')).toEqual([400, 'invalid window: to (2026-02-01) must be on or after from (2026-02-02)']);
    expect(await errorOf(server, '/bonds/history/US:10Y?from=2026-02-01&to=2026-02-02&limit=5001')).toEqual([400, 'invalid limit "5001": expected an integer from 1 to 5000']);
    expect(await errorOf(server, '/bonds/history/US:10Y?from=2026-02-01&to=2026-02-02&sort=new')).toEqual([400, 'invalid sort "new": allowed values are asc, desc']);
    expect(await errorOf(server, '/bonds/history/US:15Y?from=2026-02-01&to=2026-02-02')).toEqual([404, 'unknown symbol: US yields are published for 1M, 2M, 3M, 4M, 6M, 1Y, 2Y, 3Y, 5Y, 7Y, 10Y, 20Y, 30Y']);
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
    withAddon = await create('--plan', 'starter', '--addons', 'bonds');
    withoutAddon = await create('--plan', 'pro', '--markets', 'all', '--addons', 'fundamentals,overnight');
    free = await create('--plan', 'free');
    for (const key of [withAddon, withoutAddon, free]) await until(async () => (await server.get('/crypto/symbols', { key })).status === 200, 'the new key');
  });

  const paths = ['/bonds/yield/US:10Y', '/bonds/curve/DE', '/bonds/curve/DE?date=2026-03-02', '/bonds/history/GB:30Y?from=2026-02-01&to=2026-03-01'];

  test('without the bonds add-on every route is a 403 naming the add-on, with the rate-limit headers', async () => {
    for (const key of [withoutAddon, free]) {
      for (const path of paths) {
        const res = await server.get(path, { key });
        expect(res.status).toBe(403);
        expect(((await res.json()) as { error: string }).error).toBe('the bonds add-on is not enabled for this account');
        expect(res.headers.get('x-ratelimit-remaining')).toBeTruthy();
      }
    }
  });

  test('with the add-on every route answers', async () => {
    for (const path of paths) expect((await server.get(path, { key: withAddon })).status).toBe(200);
  });

  test('no key is a 401, as on every route', async () => {
    expect((await server.get('/bonds/yield/US:10Y', { key: null })).status).toBe(401);
  });
});

describe('mds import bonds into a running server', () => {
  test('the sample Treasury file replaces the simulated days it covers; the routes serve its values', async () => {
    const r = await runMds('import', 'bonds', FIXTURE, '--data-dir', dataDir);
    expect(r.code).toBe(0);
    expect(r.err).toBe('note: ignored columns that are not covered tenors: 1.5 Month\n');
    expect(r.out).toContain('19 rows, 0 skipped as bad (one transaction)');
    // The simulator had published the same business days: every value is replaced, none added.
    expect(r.out).toContain('247 observations of 13 symbols from 2026-02-02 to 2026-02-27: 0 new, 247 replaced, 0 unchanged');
    const curve = (await server.json('/bonds/curve/US?date=2026-02-27')).body;
    expect(curve.results.map((p: any) => p.yield)).toEqual([4.3, 4.29, 4.26, 4.25, 4.23, 4.17, 4.14, 4.14, 4.21, 4.27, 4.33, 4.44, 4.46]);
    expect(curve.results.every((p: any) => p.source === TREASURY)).toBe(true);
    const history = (await server.json('/bonds/history/US:30Y?from=2026-02-01&to=2026-02-28&sort=asc')).body;
    expect(history.total_count).toBe(19);
    expect(history.results[0]).toEqual({ date: '2026-02-02', timestamp: Date.UTC(2026, 1, 2), yield: history.results[0].yield, source: TREASURY });
    expect(history.results.every((p: any) => p.source === TREASURY)).toBe(true);
    // Later days are the simulator's still.
    expect((await server.json('/bonds/yield/US:30Y')).body).toMatchObject({ date: '2026-03-03', source: 'mds simulator' });
  });

  test('importing the same file again changes nothing and duplicates no day', async () => {
    const before = await historyAll(server, 'US:2Y', '2026-01-01', '2026-03-04');
    const r = await runMds('import', 'bonds', FIXTURE, '--data-dir', dataDir, '--json');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      file: FIXTURE,
      layout: 'treasury',
      rows: 19,
      bad_rows: 0,
      imported: true,
      observations: 247,
      symbols: 13,
      first_date: '2026-02-02',
      last_date: '2026-02-27',
      ignored_columns: ['1.5 Month'],
      added: 0,
      replaced: 0,
      unchanged: 247,
    });
    expect(await historyAll(server, 'US:2Y', '2026-01-01', '2026-03-04')).toEqual(before);
  });
});

describe('mds import bonds on a server without a feed', () => {
  let bare: TestServer;
  let bareDir: string;
  beforeAll(async () => {
    bareDir = mkdtempSync(join(tmpdir(), 'mds-bonds-bare-'));
    bare = await startServer({ dataDir: bareDir, args: ['--feed', 'none'] });
  });
  afterAll(async () => {
    await bare.stop();
    rmSync(bareDir, { recursive: true, force: true });
  });

  test('before any import: 404 no yield, no curve', async () => {
    expect(await errorOf(bare, '/bonds/yield/US:10Y')).toEqual([404, 'no yield available']);
    expect(await errorOf(bare, '/bonds/curve/US')).toEqual([404, 'no curve available']);
    expect((await bare.json('/bonds/history/US:10Y?from=2026-01-01&to=2026-03-01')).body.total_count).toBe(0);
  });

  test('bad rows are reported by line and skipped; the good ones are served at once', async () => {
    const file = join(bareDir, 'mixed.csv');
    writeFileSync(
      file,
      [
        'date,country,tenor,yield,source',
        '2026-02-26,DE,10Y,2.71,Deutsche Bundesbank',
        '2026-02-27,DE,10Y,2.68,Deutsche Bundesbank',
        '2026-02-27,DE,4Y,2.4,Deutsche Bundesbank',
        '2026-02-27,DE,2Y,2.06%,Deutsche Bundesbank',
        '2026-02-27,DE,2Y,2.06,Deutsche Bundesbank',
        '2026-02-27,GB,25Y,5.21,Bank of England',
      ].join('\n') + '\n',
    );
    const r = await runMds('import', 'bonds', file, '--data-dir', bareDir);
    expect(r.code).toBe(0);
    expect(r.err).toBe(['line 4: skipped: DE has no 4Y tenor; its tenors are 1Y, 2Y, 3Y, 5Y, 7Y, 10Y, 15Y, 20Y, 30Y', 'line 5: skipped: yield "2.06%" is not a number', ''].join('\n'));
    expect(r.out).toContain('6 rows, 2 skipped as bad');
    expect((await bare.json('/bonds/yield/de:10y')).body).toEqual({ symbol: 'DE:10Y', country: 'DE', tenor: '10Y', maturity_months: 120, yield: 2.68, date: '2026-02-27', timestamp: Date.UTC(2026, 1, 27), source: 'Deutsche Bundesbank' });
    const curve = (await bare.json('/bonds/curve/DE')).body;
    expect(curve).toMatchObject({ country: 'DE', date: '2026-02-27', count: 2 });
    expect(curve.results.map((p: any) => [p.tenor, p.yield])).toEqual([['2Y', 2.06], ['10Y', 2.68]]);
    expect((await bare.json('/bonds/curve/GB')).body.results.map((p: any) => p.symbol)).toEqual(['GB:25Y']);
  });

  test('progress is shown for large files (or with --progress) and ends with the final row count', async () => {
    const r = await runMds('import', 'bonds', FIXTURE, '--data-dir', bareDir, '--progress');
    expect(r.code).toBe(0);
    expect(r.err).toContain(`progress: 100% of ${FIXTURE} read (19 rows)\n`);
    // A Treasury file of more than 1 MiB: 40 years of rows, one per calendar day.
    const big = join(bareDir, 'big.csv');
    const header = 'Date,"1 Mo","2 Mo","3 Mo","4 Mo","6 Mo","1 Yr","2 Yr","3 Yr","5 Yr","7 Yr","10 Yr","20 Yr","30 Yr"';
    const rows = Array.from({ length: 14_000 }, (_, i) => {
      const d = new Date(Date.UTC(1987, 0, 1) + i * 86_400_000);
      const date = `${String(d.getUTCMonth() + 1).padStart(2, '0')}/${String(d.getUTCDate()).padStart(2, '0')}/${d.getUTCFullYear()}`;
      return `${date},${Array.from({ length: 13 }, (_, j) => (3 + j * 0.1 + (i % 50) / 100).toFixed(4)).join(',')}`;
    });
    writeFileSync(big, [header, ...rows].join('\r\n') + '\r\n');
    const b = await runMds('import', 'bonds', big, '--data-dir', bareDir, '--json');
    expect(b.code).toBe(0);
    expect(b.err.split('\n').filter((line) => line.startsWith('progress: ')).length).toBeGreaterThan(2);
    expect(b.err).toContain(`progress: 100% of ${big} read (14,000 rows)\n`);
    expect(JSON.parse(b.out)).toMatchObject({ rows: 14_000, bad_rows: 0, observations: 14_000 * 13 });
    expect((await bare.json('/bonds/history/US:7Y?from=1987-01-01&to=2025-12-31&limit=1')).body.total_count).toBe(14_000);
  });

  test('--strict writes nothing when a row is bad; a file without a header it knows is refused whole', async () => {
    const file = join(bareDir, 'strict.csv');
    writeFileSync(file, 'date,country,tenor,yield,source\n2026-02-20,FR,10Y,3.3,Banque de France\n2026-02-20,FR,11Y,3.3,Banque de France\n');
    const r = await runMds('import', 'bonds', file, '--data-dir', bareDir, '--strict');
    expect(r.code).toBe(1);
    expect(r.err).toContain('--strict: nothing was imported');
    expect(await errorOf(bare, '/bonds/yield/FR:10Y')).toEqual([404, 'no yield available']);
    const odd = join(bareDir, 'odd.csv');
    writeFileSync(odd, 'when,what\n2026-02-20,3.3\n');
    const o = await runMds('import', 'bonds', odd, '--data-dir', bareDir);
    expect(o.code).toBe(1);
    expect(o.err).toStartWith(`mds: ${odd}: line 1: unrecognized header`);
    expect(o.err).toEndWith('; nothing was imported\n');
  });
});

describe('store failures', () => {
  test.each(['/bonds/yield/US:10Y', '/bonds/curve/US', '/bonds/history/US:10Y?from=2026-01-01&to=2026-02-01'])('%s → 503, logged', async (path) => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    seedRegistry(store, CATALOG);
    const failing = new Proxy(store, {
      get(target, prop, receiver) {
        if (prop === 'bonds') return { latest: fail, on: fail, latestOnOrBefore: fail, history: fail };
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
