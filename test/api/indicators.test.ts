// The indicator routes in process (app.handle) over a seeded store and a manual clock: values equal
// the reference implementation (test/support/indicator-reference.ts) over the range route's bars and
// the documented warm-up, on random bar series with gaps; a hand-checked SMA; paging and sort as on
// the range route; the bar in progress; short histories; the 400s; and the Massive dialect's shape.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Value } from '@sinclair/typebox/value';
import fc from 'fast-check';
import { createApp } from '../../src/api/app.ts';
import { MassiveIndicatorSchema, MassiveMacdSchema } from '../../src/api/compat/massive/indicator-schemas.ts';
import { Authenticator } from '../../src/auth/authenticator.ts';
import { ManualClock } from '../../src/clock.ts';
import type { Bar } from '../../src/domain/bar.ts';
import { IndicatorSchema } from '../../src/domain/indicators/schema.ts';
import { BUILT_IN_PLANS } from '../../src/domain/plans.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS, type Timeframe } from '../../src/domain/timeframes.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { near, refEma, refMacd, refRsi, refSma, type Maybe } from '../support/indicator-reference.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

const DEV_KEY = 'indicators-dev-key';
/** Wednesday 2026-03-04 15:30 UTC. */
const NOW = Date.UTC(2026, 2, 4, 15, 30);
const HOUR_NOW = NOW - (NOW % HOUR_MS);
/** Random hourly series (with gaps) end an hour before the bar in progress. */
const RANDOM_SYMBOLS = ['SOLUSD', 'XRPUSD', 'BNBUSD', 'ADAUSD', 'DOGEUSD', 'AVAXUSD'] as const;

let dir: TempDir;
let store: Store;
let clock: ManualClock;
let app: ReturnType<typeof createApp>;
/** A key whose plan has perpetual futures only. */
let perpetualsKey = '';
/** Every symbol's bars as the range route has them (the bar in progress last), by `symbol:tf`. */
const seeded = new Map<string, Bar[]>();
const live = new Map<string, Bar>();

/** A random walk: each bar opens at the last close; some slots have no bar (gaps). */
const seriesArb = fc.record({
  start: fc.double({ min: 1, max: 50_000, noNaN: true }),
  steps: fc.array(fc.record({ r: fc.double({ min: -0.05, max: 0.05, noNaN: true }), up: fc.double({ min: 0, max: 0.02, noNaN: true }), down: fc.double({ min: 0, max: 0.02, noNaN: true }), gap: fc.boolean() }), { minLength: 300, maxLength: 900 }),
});

function walk(series: { start: number; steps: { r: number; up: number; down: number; gap: boolean }[] }, lastT: number, stepMs: number): Bar[] {
  const bars: Bar[] = [];
  let close = series.start;
  const n = series.steps.length;
  series.steps.forEach((s, i) => {
    const o = close;
    const c = o * (1 + s.r);
    close = c;
    // One slot in about eight is a gap: no bar, as when nothing traded.
    if (s.gap && i % 4 === 0) return;
    bars.push({ t: lastT - (n - 1 - i) * stepMs, o, h: Math.max(o, c) * (1 + s.up), l: Math.min(o, c) * (1 - s.down), c, v: 1 + i });
  });
  return bars;
}

function seed(symbol: string, tf: Timeframe, bars: Bar[], inProgress?: Bar): void {
  const id = store.registry.resolve('crypto', symbol)?.id ?? store.registry.resolve('stocks', symbol)!.id;
  store.appendHistory(id, tf, bars);
  seeded.set(`${symbol}:${tf}`, inProgress ? [...bars, inProgress] : bars);
  if (inProgress) live.set(`${id}:${tf}`, inProgress);
}

beforeAll(async () => {
  dir = tempDir();
  store = Store.open({ dataDir: dir.path });
  seedRegistry(store, CATALOG);
  clock = new ManualClock(NOW);
  fc.sample(seriesArb, { seed: 20260304, numRuns: RANDOM_SYMBOLS.length }).forEach((series, i) => seed(RANDOM_SYMBOLS[i]!, '1h', walk(series, HOUR_NOW - HOUR_MS, HOUR_MS)));
  // BTCUSD: hourly bars and a bar in progress this hour.
  const [btc] = fc.sample(seriesArb, { seed: 7, numRuns: 1 });
  const btcBars = walk(btc!, HOUR_NOW - HOUR_MS, HOUR_MS);
  seed('BTCUSD', '1h', btcBars, { t: HOUR_NOW, o: btcBars.at(-1)!.c, h: 99_999, l: 1, c: 50_000, v: 3 });
  // ETHUSD: seven daily closes 10..16 from Monday 2026-02-23, for the hand-checked SMA.
  const MON = Date.UTC(2026, 1, 23);
  seed('ETHUSD', '1d', [10, 11, 12, 13, 14, 15, 16].map((c, i) => ({ t: MON + i * DAY_MS, o: c, h: c, l: c, c, v: null })));
  // LTCUSD: twenty 1-minute bars only: shorter than most warm-ups.
  seed('LTCUSD', '1m', Array.from({ length: 20 }, (_, i) => ({ t: NOW - (40 - i) * MINUTE_MS, o: 90 + i, h: 91 + i, l: 89 + i, c: 90 + i + (i % 3), v: 1 })));
  // US:AAPL daily bars for the Massive dialect.
  const [aapl] = fc.sample(seriesArb, { seed: 11, numRuns: 1 });
  seed('US:AAPL', '1d', walk(aapl!, Date.UTC(2026, 2, 3), DAY_MS));
  await store.flush();
  perpetualsKey = store.accounts.create({ name: 'perps', plan: 'perpetuals', markets: [], addons: [] }, NOW).secret;
  const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: DEV_KEY, devPerMinute: 1_000_000 });
  const bars = { barInProgress: (symId: number, tf: Timeframe) => live.get(`${symId}:${tf}`) ?? null };
  app = createApp({ store, bars, clock, auth, feed: 'none', version: '1.0.0' }, () => {});
});

afterAll(async () => {
  await store.close();
  dir[Symbol.dispose]();
});

async function get(path: string, key: string | null = DEV_KEY): Promise<{ status: number; body: any }> {
  const res = await app.handle(new Request(`http://localhost${path}`, { headers: key === null ? {} : { 'x-api-key': key } }));
  return { status: res.status, body: await res.json() };
}

type Spec = { kind: 'sma' | 'ema' | 'rsi'; window: number } | { kind: 'macd'; s: number; l: number; g: number };
type Series = 'close' | 'open' | 'high' | 'low';
interface Expected {
  t: number;
  value: number;
  signal?: number;
  histogram?: number;
}

/** The documented warm-up: SMA window − 1 bars; EMA and RSI 10 windows; MACD 10 × (long + signal). */
const warmupOf = (spec: Spec) => (spec.kind === 'sma' ? spec.window - 1 : spec.kind === 'macd' ? 10 * (spec.l + spec.g) : 10 * spec.window);

/** The reference's values over the bars of [fromMs, toMs), computed from the warm-up bars before it on. */
function expected(bars: Bar[], spec: Spec, series: Series, fromMs: number, toMs: number): { values: Expected[]; skipped: number; warmup: number } {
  let first = bars.findIndex((b) => b.t >= fromMs);
  if (first < 0) first = bars.length;
  const end = bars.findIndex((b) => b.t >= toMs);
  const stop = end < 0 ? bars.length : end;
  const start = Math.max(0, first - warmupOf(spec));
  const used = bars.slice(start, stop);
  const prices = used.map((b) => b[series === 'close' ? 'c' : series === 'open' ? 'o' : series === 'high' ? 'h' : 'l']);
  const values: Expected[] = [];
  if (spec.kind === 'macd') {
    refMacd(prices, spec.s, spec.l, spec.g).forEach((m, i) => {
      if (i >= first - start && m.value !== null) values.push({ t: used[i]!.t, value: m.value, signal: m.signal!, histogram: m.histogram! });
    });
  } else {
    const ref: Maybe[] = spec.kind === 'sma' ? refSma(prices, spec.window) : spec.kind === 'ema' ? refEma(prices, spec.window) : refRsi(prices, spec.window);
    ref.forEach((v, i) => {
      if (i >= first - start && v !== null) values.push({ t: used[i]!.t, value: v });
    });
  }
  return { values, skipped: stop - first - values.length, warmup: first - start };
}

function expectValues(actual: Expected[], want: Expected[]): void {
  expect(actual.map((v) => v.t)).toEqual(want.map((v) => v.t));
  actual.forEach((a, i) => {
    const w = want[i]!;
    for (const field of ['value', 'signal', 'histogram'] as const) {
      if (w[field] === undefined) expect(a[field]).toBeUndefined();
      else if (!near(a[field]!, w[field]!)) throw new Error(`t ${a.t} ${field}: ${a[field]} vs reference ${w[field]}`);
    }
  });
}

const query = (spec: Spec) => (spec.kind === 'macd' ? `short_window=${spec.s}&long_window=${spec.l}&signal_window=${spec.g}` : `window=${spec.window}`);
const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);

describe('values against the reference implementation', () => {
  test('random hourly series with gaps: every indicator, window, series type and window of dates', async () => {
    const spec: fc.Arbitrary<Spec> = fc.oneof(
      fc.record({ kind: fc.constantFrom('sma' as const, 'ema' as const, 'rsi' as const), window: fc.integer({ min: 1, max: 60 }) }),
      fc.tuple(fc.integer({ min: 2, max: 15 }), fc.integer({ min: 1, max: 20 }), fc.integer({ min: 1, max: 12 })).map(([s, d, g]) => ({ kind: 'macd' as const, s, l: s + d, g })),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...RANDOM_SYMBOLS), spec, fc.constantFrom<Series>('close', 'open', 'high', 'low'), fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), async (symbol, sp, series, fromBack, len) => {
        const fromDay = Date.UTC(2026, 2, 4) - fromBack * DAY_MS;
        const toDay = Math.min(Date.UTC(2026, 2, 4), fromDay + len * DAY_MS);
        const { status, body } = await get(`/crypto/indicators/${sp.kind}/${symbol}?timespan=hour&${query(sp)}&series_type=${series}&from=${isoDate(fromDay)}&to=${isoDate(toDay)}&limit=5000&sort=asc`);
        expect(status).toBe(200);
        expect(Value.Check(IndicatorSchema, body)).toBe(true);
        const want = expected(seeded.get(`${symbol}:1h`)!, sp, series, fromDay, toDay + DAY_MS);
        expectValues(body.results, want.values);
        expect([body.total_count, body.skipped_count, body.warmup_count]).toEqual([want.values.length, want.skipped, want.warmup]);
      }),
      { numRuns: 60, seed: 42 },
    );
  });

  test("the window's bars are the range route's: each value sits at a bar of /agg, in its order", async () => {
    const range = await get('/crypto/agg/SOLUSD/1/hour/2026-02-25/2026-03-04?limit=5000&sort=asc');
    const sma = await get('/crypto/indicators/sma/SOLUSD?timespan=hour&window=1&from=2026-02-25&to=2026-03-04&limit=5000&sort=asc');
    // A window of one bar is the series itself.
    expect(sma.body.results).toEqual(range.body.results.map((b: Bar) => ({ t: b.t, value: b.c })));
    expect(sma.body.skipped_count).toBe(0);
  });
});

describe('hand-checked', () => {
  test('SMA(5) of daily closes 10..16: 12, 13, 14 from the fifth bar', async () => {
    const { status, body } = await get('/crypto/indicators/sma/ETHUSD?window=5&from=2026-02-23&to=2026-03-01&sort=asc');
    expect(status).toBe(200);
    expect(body).toEqual({
      symbol: 'ETHUSD',
      indicator: 'sma',
      multiplier: 1,
      timespan: 'day',
      series_type: 'close',
      window: 5,
      warmup_count: 0,
      skipped_count: 4,
      results_count: 3,
      total_count: 3,
      results: [
        { t: Date.UTC(2026, 1, 27), value: 12 },
        { t: Date.UTC(2026, 1, 28), value: 13 },
        { t: Date.UTC(2026, 2, 1), value: 14 },
      ],
      next_offset: null,
    });
  });

  test('a later from reads the four bars before it: the first requested bar has its value', async () => {
    const { body } = await get('/crypto/indicators/sma/ETHUSD?window=5&from=2026-02-28&to=2026-03-01');
    expect(body.warmup_count).toBe(4);
    expect(body.skipped_count).toBe(0);
    expect(body.results).toEqual([
      { t: Date.UTC(2026, 2, 1), value: 14 },
      { t: Date.UTC(2026, 1, 28), value: 13 },
    ]);
  });

  test('a history shorter than the window gives no value, and says how many bars it skipped', async () => {
    const { status, body } = await get('/crypto/indicators/rsi/LTCUSD?timespan=minute&window=30&from=2026-03-04&to=2026-03-04');
    expect(status).toBe(200);
    expect([body.total_count, body.results, body.skipped_count, body.warmup_count]).toEqual([0, [], 20, 0]);
  });
});

describe('paging, sort and the bar in progress', () => {
  test('pages of limit/offset cover the values once in both orders; next_offset ends with null', async () => {
    const base = '/crypto/indicators/ema/XRPUSD?timespan=hour&window=10&from=2026-02-20&to=2026-03-04';
    const all = (await get(`${base}&limit=5000&sort=asc`)).body;
    for (const sort of ['asc', 'desc']) {
      const seen: Expected[] = [];
      let offset: number | null = 0;
      while (offset !== null) {
        const { body }: { body: any } = await get(`${base}&limit=37&offset=${offset}&sort=${sort}`);
        expect(body.total_count).toBe(all.total_count);
        seen.push(...body.results);
        offset = body.next_offset;
      }
      expect(seen).toEqual(sort === 'asc' ? all.results : [...all.results].reverse());
    }
  });

  test('the default order is newest first, and the last value is at the bar in progress', async () => {
    const { body } = await get('/crypto/indicators/sma/BTCUSD?timespan=hour&window=3&from=2026-03-04&to=2026-03-04&limit=2');
    const bars = seeded.get('BTCUSD:1h')!;
    const [a, b, c] = bars.slice(-3);
    expect(body.results[0]).toEqual({ t: HOUR_NOW, value: (a!.c + b!.c + c!.c) / 3 });
    expect(body.results[1].t).toBeLessThan(HOUR_NOW);
    expect(body.next_offset).toBe(2);
  });
});

describe('errors', () => {
  test.each([
    ['/crypto/indicators/wma/BTCUSD', 400, 'unknown indicator "wma": allowed values are sma, ema, rsi, macd'],
    ['/crypto/indicators/rsi/BTCUSD?window=0', 400, 'invalid window "0": expected an integer from 1 to 500'],
    ['/crypto/indicators/macd/BTCUSD?window=9', 400, 'invalid parameter window for macd: use short_window, long_window and signal_window'],
    ['/crypto/indicators/sma/BTCUSD?series_type=median', 400, 'invalid series_type "median": allowed values are close, open, high, low'],
    ['/crypto/indicators/sma/BTCUSD?timespan=week', 400, 'invalid timespan "week": allowed values are minute, hour, day'],
    ['/crypto/indicators/sma/NOPEUSD', 404, 'unknown symbol'],
  ] as const)('%s → %i', async (path, status, message) => {
    const res = await get(path);
    expect(res.status).toBe(status);
    expect(res.body.error).toBe(message);
  });

  test("without a key: 401; a class the key's plan lacks: 403, natively and in the dialect", async () => {
    expect((await get('/crypto/indicators/sma/BTCUSD', null)).status).toBe(401);
    expect((await get('/stocks/indicators/sma/US:AAPL', perpetualsKey)).status).toBe(403);
    const vendor = await get('/compat/massive/v1/indicators/sma/AAPL', perpetualsKey);
    expect(vendor.status).toBe(403);
    expect(vendor.body.status).toBe('NOT_AUTHORIZED');
  });
});

describe('Massive dialect', () => {
  const M = '/compat/massive/v1/indicators';

  test('the values are the native values: timestamp and value, newest first, 10 by default', async () => {
    const native = (await get('/stocks/indicators/rsi/US:AAPL?window=14&from=2025-12-01&to=2026-03-04&sort=desc&limit=10')).body;
    const { status, body } = await get(`${M}/rsi/AAPL?window=14&timestamp.gte=2025-12-01&timestamp.lte=2026-03-04`);
    expect(status).toBe(200);
    expect(Value.Check(MassiveIndicatorSchema, body)).toBe(true);
    expect(body.results.values).toEqual(native.results.map((v: Expected) => ({ timestamp: v.t, value: v.value })));
    expect(body.results.underlying.url).toBe(`http://localhost/compat/massive/v2/aggs/ticker/AAPL/range/1/day/${Date.UTC(2025, 11, 1)}/${Date.UTC(2026, 2, 5) - 1}?limit=50000&sort=desc`);
    expect(body.status).toBe('OK');
    expect(typeof body.request_id).toBe('string');
  });

  test('MACD carries value, signal and histogram; next_url continues in order', async () => {
    const native = (await get('/stocks/indicators/macd/US:AAPL?from=2025-06-01&to=2026-03-04&sort=asc&limit=5000')).body;
    const first = (await get(`${M}/macd/AAPL?timestamp.gte=2025-06-01&timestamp.lt=2026-03-05&order=asc&limit=50`)).body;
    expect(Value.Check(MassiveMacdSchema, first)).toBe(true);
    const wanted = native.results.map((v: Expected) => ({ timestamp: v.t, value: v.value, signal: v.signal, histogram: v.histogram }));
    expect(first.results.values).toEqual(wanted.slice(0, 50));
    const next = new URL(first.next_url);
    expect(next.pathname).toBe('/compat/massive/v1/indicators/macd/AAPL');
    const second = (await get(`${next.pathname}${next.search}`)).body;
    expect(second.results.values).toEqual(wanted.slice(50, 100));
  });

  test('timestamp names one bar or one day; expand_underlying adds the bars of the values', async () => {
    const bars = seeded.get('US:AAPL:1d')!;
    const bar = bars.at(-2)!;
    const one = (await get(`${M}/sma/AAPL?window=1&timestamp=${bar.t}&expand_underlying=true`)).body;
    expect(one.results.values).toEqual([{ timestamp: bar.t, value: bar.c }]);
    expect(one.results.underlying.aggregates).toEqual([{ o: bar.o, h: bar.h, l: bar.l, c: bar.c, v: bar.v!, t: bar.t }]);
    const day = (await get(`${M}/sma/AAPL?window=1&timestamp=${isoDate(bar.t)}`)).body;
    expect(day.results.values).toEqual([{ timestamp: bar.t, value: bar.c }]);
  });

  test('crypto tickers, minute bars and a ticker mds lacks (an empty OK, as the vendor answers)', async () => {
    const native = (await get('/crypto/indicators/ema/BTCUSD?timespan=hour&window=5&from=2026-03-04&to=2026-03-04&limit=3')).body;
    const x = (await get(`${M}/ema/X:BTCUSD?timespan=hour&window=5&timestamp.gte=2026-03-04&limit=3`)).body;
    expect(x.results.values).toEqual(native.results.map((v: Expected) => ({ timestamp: v.t, value: v.value })));
    const none = await get(`${M}/sma/NOPEXYZ`);
    expect(none.status).toBe(200);
    expect(none.body.results.values).toEqual([]);
  });

  test.each([
    ['/sma/AAPL?timespan=week', 'unsupported timespan "week": this server computes indicators over minute, hour and day bars'],
    ['/sma/AAPL?timespan=fortnight', 'invalid timespan "fortnight": allowed values are second, minute, hour, day, week, month, quarter, year'],
    ['/ema/AAPL?window=0', 'invalid window "0": expected an integer from 1 to 500'],
    ['/macd/AAPL?short_window=30', 'invalid windows: short_window (30) must be less than long_window (26)'],
    ['/rsi/AAPL?order=up', 'invalid order "up": allowed values are asc, desc'],
    ['/rsi/AAPL?limit=5001', 'invalid limit "5001": expected an integer from 1 to 5000'],
    ['/rsi/AAPL?timestamp.gte=yesterday', 'invalid timestamp.gte "yesterday": expected a date YYYY-MM-DD or Unix milliseconds'],
  ] as const)('%s → 400 in the vendor body', async (path, message) => {
    const { status, body } = await get(`${M}${path}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ status: 'ERROR', error: message });
  });
});
