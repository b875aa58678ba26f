// The official Massive SDK and the older Polygon.io SDK, unmodified, calling /v1/indicators on a real
// mds: SMA, EMA, RSI and MACD of stocks, crypto, forex and indices equal the native indicator route,
// which equals the reference implementation over the range route's bars. Windows end yesterday,
// so the simulator's bar in progress never moves a value between two reads.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import {
  GetCryptoEMAOrderEnum, GetCryptoEMATimespanEnum, GetForexRSITimespanEnum, GetIndicesMACDTimespanEnum, GetStocksSMASeriesTypeEnum, GetStocksSMATimespanEnum,
  restClient,
} from '@massive.com/client-js';
import { GetStocksRSITimespanEnum as PolygonRsiTimespan, GetCryptoMACDTimespanEnum as PolygonMacdTimespan, restClient as polygonClient } from '@polygon.io/client-js';
import { near, refEma, refMacd, refRsi, refSma } from '../support/indicator-reference.ts';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
let massive: ReturnType<typeof restClient>;
let polygon: ReturnType<typeof polygonClient>;
beforeAll(async () => {
  server = await startServer();
  massive = restClient(server.key, `${server.base}/compat/massive`);
  polygon = polygonClient(server.key, `${server.base}/compat/massive`);
});
afterAll(() => server.stop());

type NativeValue = { t: number; value: number; signal?: number; histogram?: number };

/** The native route's values (oldest first) for `path` with `query`. */
async function nativeValues(path: string, query: string): Promise<NativeValue[]> {
  const { status, body } = await server.json(`${path}?${query}&sort=asc&limit=5000`);
  expect(status).toBe(200);
  return body.results;
}

const asMassive = (values: NativeValue[]) => values.map((v) => (v.signal === undefined ? { timestamp: v.t, value: v.value } : { timestamp: v.t, value: v.value, signal: v.signal, histogram: v.histogram }));

describe('Massive SDK', () => {
  test('getStocksSMA over hourly highs equals the native SMA; the underlying URL names the bars', async () => {
    const native = await nativeValues('/stocks/indicators/sma/US:AAPL', 'timespan=hour&window=4&series_type=high&from=2026-03-02&to=2026-03-03');
    const res = await massive.getStocksSMA({ stockTicker: 'AAPL', timespan: GetStocksSMATimespanEnum.Hour, window: 4, seriesType: GetStocksSMASeriesTypeEnum.High, timestampGte: '2026-03-02', timestampLte: '2026-03-03', limit: 5000 });
    expect(native.length).toBeGreaterThan(0);
    expect(res.status).toBe('OK');
    expect(typeof res.request_id).toBe('string');
    // Newest first by default, as the vendor orders.
    expect(res.results.values as unknown).toEqual(asMassive(native).reverse());
    expect(res.results.underlying?.url).toStartWith(`${server.base}/compat/massive/v2/aggs/ticker/AAPL/range/1/hour/`);
  });

  test('getCryptoEMA pages with next_url (the key appended, as the SDK does)', async () => {
    const native = await nativeValues('/crypto/indicators/ema/BTCUSD', 'timespan=minute&window=20&from=2026-03-03&to=2026-03-03');
    const first = await massive.getCryptoEMA({ cryptoTicker: 'X:BTCUSD', timespan: GetCryptoEMATimespanEnum.Minute, window: 20, timestampGte: '2026-03-03', timestampLte: '2026-03-03', order: GetCryptoEMAOrderEnum.Asc, limit: 100 });
    expect(first.results.values as unknown).toEqual(asMassive(native.slice(0, 100)));
    const second: any = await (await fetch(`${first.next_url}&apiKey=${server.key}`)).json();
    expect(second.results.values).toEqual(asMassive(native.slice(100, 200)));
  });

  test('getForexRSI and getIndicesMACD equal the native values', async () => {
    const rsi = await nativeValues('/forex/indicators/rsi/EURUSD', 'timespan=hour&from=2026-03-02&to=2026-03-03');
    const rsiRes = await massive.getForexRSI({ fxTicker: 'C:EURUSD', timespan: GetForexRSITimespanEnum.Hour, timestampGte: '2026-03-02', timestampLte: '2026-03-03', limit: 5000 });
    expect(rsi.length).toBeGreaterThan(0);
    expect(rsiRes.results?.values as unknown).toEqual(asMassive(rsi).reverse());
    const macd = await nativeValues('/indices/indicators/macd/US500', 'timespan=minute&from=2026-03-03&to=2026-03-03');
    const macdRes = await massive.getIndicesMACD({ indicesTicker: 'I:SPX', timespan: GetIndicesMACDTimespanEnum.Minute, timestampGte: '2026-03-03', timestampLte: '2026-03-03', limit: 5000 });
    expect(macd.length).toBeGreaterThan(0);
    expect(macdRes.results.values as unknown).toEqual(asMassive(macd).reverse());
  });
});

describe('Polygon SDK (positional arguments)', () => {
  test('getStocksRSI and getCryptoMACD equal the native values', async () => {
    const rsi = await nativeValues('/stocks/indicators/rsi/US:MSFT', 'timespan=minute&window=10&from=2026-03-03&to=2026-03-03');
    const rsiRes = await polygon.getStocksRSI('MSFT', undefined, PolygonRsiTimespan.Minute, true, 10, undefined, undefined, undefined, 5000, '2026-03-03', undefined, '2026-03-03');
    expect(rsi.length).toBeGreaterThan(0);
    expect(rsiRes.results?.values as unknown).toEqual(asMassive(rsi).reverse());
    const macd = await nativeValues('/crypto/indicators/macd/ETHUSD', 'timespan=hour&short_window=5&long_window=10&signal_window=4&from=2026-03-02&to=2026-03-03');
    const macdRes = await polygon.getCryptoMACD('X:ETHUSD', undefined, PolygonMacdTimespan.Hour, 5, 10, 4, undefined, undefined, undefined, 5000, '2026-03-02', undefined, '2026-03-03');
    expect(macd.length).toBeGreaterThan(0);
    expect(macdRes.results?.values as unknown).toEqual(asMassive(macd).reverse());
  });
});

describe('the real server against the reference implementation', () => {
  test('SMA, EMA, RSI and MACD of BTCUSD minute closes from noon, with the documented warm-up before it', async () => {
    // Every minute bar of the day (the history starts at its midnight); the window starts at noon.
    const { body } = await server.json('/crypto/agg/BTCUSD/1/minute/2026-03-03/2026-03-03?sort=asc&limit=5000');
    const bars: { t: number; c: number }[] = body.results;
    const fromMs = Date.UTC(2026, 2, 3, 12);
    const first = bars.findIndex((b) => b.t >= fromMs);
    expect(first).toBeGreaterThan(500);
    const cases = [
      { path: 'sma', query: 'window=6', warmup: 5, ref: (p: number[]) => refSma(p, 6).map((value) => ({ value })) },
      { path: 'ema', query: 'window=12', warmup: 120, ref: (p: number[]) => refEma(p, 12).map((value) => ({ value })) },
      { path: 'rsi', query: 'window=14', warmup: 140, ref: (p: number[]) => refRsi(p, 14).map((value) => ({ value })) },
      { path: 'macd', query: 'short_window=12&long_window=26&signal_window=9', warmup: 350, ref: (p: number[]) => refMacd(p, 12, 26, 9) },
    ];
    for (const c of cases) {
      const used = bars.slice(first - c.warmup);
      const want = c.ref(used.map((b) => b.c)).flatMap((r, i) => (i >= c.warmup && r.value !== null ? [{ t: used[i]!.t, ...r }] : []));
      const res = await server.json(`/compat/massive/v1/indicators/${c.path}/X:BTCUSD?timespan=minute&${c.query}&timestamp.gte=${fromMs}&timestamp.lte=2026-03-03&order=asc&limit=5000`);
      const got: { timestamp: number; value: number; signal?: number; histogram?: number }[] = res.body.results.values;
      expect(got.length).toBe(bars.length - first);
      expect(got.map((v) => v.timestamp)).toEqual(want.map((v) => v.t));
      got.forEach((v, i) => {
        const w = want[i] as { value: number; signal?: number | null; histogram?: number | null };
        if (!near(v.value, w.value)) throw new Error(`${c.path} at ${v.timestamp}: ${v.value} vs reference ${w.value}`);
        // The histogram is a small difference of two large numbers: compared at the scale of the line.
        if (w.signal !== undefined && !(near(v.signal!, w.signal!) && near(v.histogram!, w.histogram!, Math.abs(w.value)))) throw new Error(`macd at ${v.timestamp}`);
      });
    }
  });
});
