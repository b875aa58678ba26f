// The range and prev routes' `adjustment` parameter over the real app and store on a temp dir,
// with US:AAPL's daily bars of August-September 2020 (invented prices) and its real actions of
// 2020: any page of an adjusted range equals the reference model applied to the same raw page;
// the adjusted fields, the ETag with its version, 304, and a new action changing both.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { createApp } from '../../src/api/app.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import type { Bar } from '../../src/domain/bar.ts';
import type { Dividend, Split } from '../../src/domain/corporate-actions.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { PrevBarSchema, RangeSchema } from '../../src/domain/schemas.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { referenceAdjust, type RefAdjustment } from '../support/adjustment-reference.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const KEY = 'adjusted-bars-key';
const DAY = 86_400_000;
const FIRST = Date.UTC(2020, 6, 1);

let dir: TempDir;
let store: Store;
let app: ReturnType<typeof createApp>;
/** The daily bar in progress the app sees (the pipeline changes it in place). */
let live: Bar | null = null;
let symId = 0;
const daily: Bar[] = [];
const SPLIT: Split = { symbol: 'US:AAPL', date: '2020-08-31', from: 1, to: 4 };
const DIVIDEND: Dividend = { symbol: 'US:AAPL', exDate: '2020-08-07', cash: 0.82, payDate: '2020-08-13', recordDate: '2020-08-10', declarationDate: '2020-07-30', frequency: 4, dividendType: 'CD' };

beforeAll(() => {
  dir = tempDir();
  store = Store.open({ dataDir: dir.path });
  seedRegistry(store, CATALOG);
  symId = store.registry.resolve('stocks', 'US:AAPL')!.id;
  // Weekdays of July to mid-September 2020: ~450 before the split, ~120 after.
  for (let t = FIRST, i = 0; t < Date.UTC(2020, 8, 15); t += DAY, i++) {
    const wd = new Date(t).getUTCDay();
    if (wd === 0 || wd === 6) continue;
    const base = t < Date.UTC(2020, 7, 31) ? 380 + i * 1.7 : 125 + (i % 7);
    const o = Math.round(base * 100) / 100;
    const c = Math.round((base + ((i * 37) % 11) - 5) * 100) / 100;
    daily.push({ t, o, h: Math.max(o, c) + 2.5, l: Math.min(o, c) - 1.75, c, v: 30_000_000 + i * 1_234_567 });
  }
  expect(store.appendHistory(symId, '1d', daily)).toBe(daily.length);
  store.corporateActions.put([SPLIT], [DIVIDEND]);
  const clock = new ManualClock(Date.UTC(2020, 8, 15, 15, 0));
  const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: KEY, devPerMinute: 1_000_000 });
  app = createApp({ store, bars: { barInProgress: (id: number, tf: string) => (id === symId && tf === '1d' ? live : null) }, clock, auth, feed: 'none', version: '1.0.0' }, () => {});
});

afterAll(async () => {
  await store.close();
  dir[Symbol.dispose]();
});

// `any`: the bodies are checked against the schemas where their shape matters.
type Json = any;
interface Answer extends Response {
  json(): Promise<Json>;
}

async function get(path: string, headers: Record<string, string> = {}): Promise<Answer> {
  return app.handle(new Request(`http://localhost${path}`, { headers: { 'x-api-key': KEY, ...headers } }));
}

const RANGE = '/stocks/agg/US:AAPL/1/day/2020-07-01/2020-09-14';
const byDate = (bars: Bar[]) => Object.fromEntries(bars.map((b) => [new Date(b.t).toISOString().slice(0, 10), b]));

describe('adjusted range', () => {
  test('raw by default, byte for byte as adjustment=raw, without adjustment fields', async () => {
    const plain = await (await get(`${RANGE}?sort=asc`)).text();
    expect(await (await get(`${RANGE}?sort=asc&adjustment=raw`)).text()).toBe(plain);
    const body = JSON.parse(plain);
    expect(body.adjustment).toBeUndefined();
    expect(byDate(body.results)['2020-08-28']).toEqual(byDate(daily)['2020-08-28']!);
  });

  test('split: pre-split prices ÷ 4 and volume × 4; all: bars before the ex-date lowered as well', async () => {
    const res = await get(`${RANGE}?sort=asc&adjustment=split`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Value.Check(RangeSchema, body)).toBe(true);
    expect(Object.keys(body)).toEqual(['symbol', 'results_count', 'total_count', 'results', 'next_offset', 'adjustment', 'adjustment_version']);
    expect(body.adjustment).toBe('split');
    const raw = byDate(daily);
    const split = byDate(body.results);
    expect(split['2020-08-28']).toEqual({ ...raw['2020-08-28']!, o: raw['2020-08-28']!.o / 4, h: raw['2020-08-28']!.h / 4, l: raw['2020-08-28']!.l / 4, c: raw['2020-08-28']!.c / 4, v: raw['2020-08-28']!.v! * 4 });
    expect(split['2020-08-31']).toEqual(raw['2020-08-31']!);
    const all = byDate((await (await get(`${RANGE}?sort=asc&adjustment=all`)).json()).results);
    const f = 1 - 0.82 / raw['2020-08-06']!.c;
    expect(all['2020-08-06']!.c).toBeCloseTo((raw['2020-08-06']!.c / 4) * f, 5);
    expect(all['2020-08-07']!.c).toBe(raw['2020-08-07']!.c / 4);
  });

  test('any page of any adjustment equals the reference model over the same raw page', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom<RefAdjustment>('split', 'dividend', 'all'), fc.integer({ min: 1, max: 80 }), fc.integer({ min: 0, max: 60 }), fc.constantFrom('asc', 'desc'), async (adjustment, limit, offset, sort) => {
        const q = `limit=${limit}&offset=${offset}&sort=${sort}`;
        const raw = await (await get(`${RANGE}?${q}`)).json();
        const adjusted = await (await get(`${RANGE}?${q}&adjustment=${adjustment}`)).json();
        expect({ ...adjusted, results: undefined, adjustment: undefined, adjustment_version: undefined }).toEqual({ ...raw, results: undefined });
        const expected = referenceAdjust(raw.results, daily, [SPLIT], [DIVIDEND], adjustment);
        adjusted.results.forEach((b: Bar, i: number) => {
          const e = expected[i]!;
          expect(b.t).toBe(e.t);
          for (const k of ['o', 'h', 'l', 'c'] as const) expect(Math.abs(b[k]! - e[k]!)).toBeLessThanOrEqual(5.000001e-7);
          expect(Math.abs(b.v! - e.v!)).toBeLessThanOrEqual(1e-9 * e.v!);
        });
      }),
      { numRuns: 60 },
    );
  });

  test('a bad value is a 400 that names the allowed values', async () => {
    const res = await get(`${RANGE}?adjustment=splits`);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe('invalid adjustment "splits": allowed values are raw, split, dividend, all');
    const prev = await get('/stocks/agg/US:AAPL/prev?adjustment=true');
    expect(prev.status).toBe(400);
  });

  test('the ETag starts with the version; 304 for a held tag; a new action changes version and tag', async () => {
    const first = await get(`${RANGE}?adjustment=all`);
    const etag = first.headers.get('etag')!;
    const { adjustment_version: version } = await first.json();
    expect(etag.startsWith(`"${version}-`)).toBe(true);
    const again = await get(`${RANGE}?adjustment=all`, { 'if-none-match': etag });
    expect(again.status).toBe(304);
    const splitTag = (await get(`${RANGE}?adjustment=split`)).headers.get('etag');
    // A dividend after the split: the dividend-adjusted answers change, the split-adjusted one does not.
    store.corporateActions.put([], [{ ...DIVIDEND, exDate: '2020-09-08', cash: 0.205 }]);
    const after = await get(`${RANGE}?adjustment=all`, { 'if-none-match': etag });
    expect(after.status).toBe(200);
    const body = await after.json();
    expect(body.adjustment_version).not.toBe(version);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(after.headers.get('etag')!.startsWith(`"${body.adjustment_version}-`)).toBe(true);
    expect((await get(`${RANGE}?adjustment=split`)).headers.get('etag')).toBe(splitTag);
  });
});

describe('adjusted range with a bar in progress', () => {
  test('a moving bar in progress is in every answer as it is now; the completed bars stay the same', async () => {
    const path = '/stocks/agg/US:AAPL/1/day/2020-08-20/2020-09-15?adjustment=split&sort=asc';
    const before = await (await get(path)).json();
    live = { t: Date.UTC(2020, 8, 15), o: 120, h: 121, l: 119, c: 120.5, v: 1000 };
    const first = await (await get(path)).json();
    expect(first.results.at(-1)).toEqual(live);
    expect(first.results.slice(0, -1)).toEqual(before.results);
    live.c = 120.75;
    live.h = 121.5;
    live.v = 2500;
    const second = await get(path);
    const body = await second.json();
    expect(body.results.at(-1)).toEqual({ ...live });
    expect(body.results.slice(0, -1)).toEqual(before.results);
    const desc = await (await get(path.replace('sort=asc', 'sort=desc'))).json();
    expect(desc.results[0]).toEqual({ ...live });
    expect(desc.results.slice(1)).toEqual([...before.results].reverse());
    live = null;
  });
});

describe('adjusted prev', () => {
  test('the previous bar with the adjustment fields after the spec fields, its tag with the version', async () => {
    const raw = await (await get('/stocks/agg/US:AAPL/prev')).json();
    expect(raw.adjustment).toBeUndefined();
    const res = await get('/stocks/agg/US:AAPL/prev?adjustment=split');
    const body = await res.json();
    expect(Value.Check(PrevBarSchema, body)).toBe(true);
    expect(body.adjustment).toBe('split');
    expect(body.result).toEqual(raw.result);
    expect(res.headers.get('etag')!.startsWith(`"${body.adjustment_version}-`)).toBe(true);
    // The daily bar before the second dividend's ex-date is lowered by it.
    const lastBefore = await (await get('/stocks/agg/US:AAPL/prev?interval=1d&adjustment=dividend')).json();
    expect(lastBefore.result.t).toBe(daily.at(-1)!.t);
  });
});

describe('vendor reference routes: filters and paging', () => {
  test('Massive splits: ticker, date range, reverse_split, order, and next_url pages covering every match once', async () => {
    store.corporateActions.put(
      [
        { symbol: 'US:MSFT', date: '2003-02-18', from: 1, to: 2 },
        { symbol: 'US:NVDA', date: '2021-07-20', from: 1, to: 4 },
        { symbol: 'US:NVDA', date: '2024-06-10', from: 1, to: 10 },
        { symbol: 'US:GE', date: '2021-08-02', from: 8, to: 1 },
      ],
      [],
    );
    const json = async (path: string) => (await get(`/compat/massive${path}`)).json();
    expect((await json('/v3/reference/splits?ticker=NVDA')).results.map((r: Json) => r.execution_date)).toEqual(['2024-06-10', '2021-07-20']);
    expect((await json('/v3/reference/splits?reverse_split=true')).results.map((r: Json) => [r.ticker, r.split_from, r.split_to])).toEqual([['GE', 8, 1]]);
    expect((await json('/v3/reference/splits?execution_date.gte=2021-01-01&execution_date.lt=2024-01-01&order=asc')).results.map((r: Json) => r.ticker)).toEqual(['NVDA', 'GE']);
    const seen: string[] = [];
    let path: string | null = '/compat/massive/v3/reference/splits?order=asc&limit=2';
    while (path !== null) {
      const body: Json = await (await get(path)).json();
      expect(body.results.length).toBeLessThanOrEqual(2);
      seen.push(...body.results.map((r: Json) => `${r.ticker} ${r.execution_date}`));
      path = body.next_url ? body.next_url.replace('http://localhost', '') : null;
    }
    expect(seen).toEqual(['US:MSFT 2003-02-18', 'AAPL 2020-08-31', 'NVDA 2021-07-20', 'GE 2021-08-02', 'NVDA 2024-06-10'].map((s) => s.replace('US:', '')));
    const bad = await get('/compat/massive/v3/reference/splits?execution_date.gte=2021-13-01');
    expect(bad.status).toBe(400);
  });

  test('Alpaca corporate actions: grouped by type, start and end on the ex-date, page_token paging', async () => {
    const body: Json = await (await get('/compat/alpaca/v1/corporate-actions?symbols=NVDA,GE,AAPL&start=2020-01-01&end=2022-12-31')).json();
    expect(body.corporate_actions.forward_splits.map((s: Json) => [s.symbol, s.old_rate, s.new_rate, s.ex_date])).toEqual([['AAPL', 1, 4, '2020-08-31'], ['NVDA', 1, 4, '2021-07-20']]);
    expect(body.corporate_actions.reverse_splits.map((s: Json) => s.symbol)).toEqual(['GE']);
    expect(body.corporate_actions.cash_dividends.map((d: Json) => [d.ex_date, d.rate])).toEqual([['2020-08-07', 0.82], ['2020-09-08', 0.205]]);
    const first: Json = await (await get('/compat/alpaca/v1/corporate-actions?symbols=AAPL&start=2020-01-01&end=2020-12-31&limit=2')).json();
    expect(first.next_page_token).not.toBeNull();
    const second: Json = await (await get(`/compat/alpaca/v1/corporate-actions?symbols=AAPL&start=2020-01-01&end=2020-12-31&limit=2&page_token=${first.next_page_token}`)).json();
    expect(second.next_page_token).toBeNull();
    expect([...first.corporate_actions.cash_dividends, ...(second.corporate_actions.cash_dividends ?? [])].length + (first.corporate_actions.forward_splits?.length ?? 0) + (second.corporate_actions.forward_splits?.length ?? 0)).toBe(3);
    expect((await get('/compat/alpaca/v1/corporate-actions?types=merger')).status).toBe(400);
  });
});
