// Issue 32's "done when", end to end over the CLI and one real server: US:AAPL's daily bars of
// August-September 2020 (invented prices) imported with `mds import bars` and its real 2020 actions
// with `mds import splits` and `mds import dividends`, all next to the running server; then the
// native routes, the official Massive and Alpaca SDKs, the reference routes, and the version and
// ETag moving when another action is imported.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetStocksAggregatesTimespanEnum, restClient } from '@massive.com/client-js';
import { marketData } from '@alpacahq/alpaca-trade-api';
import { runMds } from '../support/cli.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { stampedNy } from './ny-midnight.ts';

let server: TestServer;
type Bar = { o: number; h: number; l: number; c: number; v: number; t: number };
const days: { date: string; o: number; h: number; l: number; c: number; v: number }[] = [];

function file(name: string, text: string): string {
  const path = join(server.dataDir, name);
  writeFileSync(path, text);
  return path;
}

beforeAll(async () => {
  server = await startServer();
  for (let t = Date.UTC(2020, 7, 3), i = 0; t <= Date.UTC(2020, 8, 4); t += 86_400_000, i++) {
    const wd = new Date(t).getUTCDay();
    if (wd === 0 || wd === 6) continue;
    const pre = t < Date.UTC(2020, 7, 31);
    const c = pre ? 440 + i * 2 : 125 + i * 0.25;
    days.push({ date: new Date(t).toISOString().slice(0, 10), o: c - 1, h: c + 3, l: c - 4, c, v: 40_000_000 + i * 1000 });
  }
  const bars = file('aapl-daily.csv', ['date,open,high,low,close,volume', ...days.map((d) => `${d.date},${d.o},${d.h},${d.l},${d.c},${d.v}`)].join('\n') + '\n');
  const imported = await runMds('import', 'bars', bars, '--symbol', 'US:AAPL', '--class', 'stocks', '--timeframe', '1d', '--data-dir', server.dataDir);
  expect(imported.code).toBe(0);
  const splits = await runMds('import', 'splits', file('splits.csv', 'ticker,execution_date,split_from,split_to\nAAPL,2020-08-31,1,4\n'), '--data-dir', server.dataDir);
  expect(splits.code).toBe(0);
  const dividends = await runMds('import', 'dividends', file('dividends.ndjson', '{"ticker":"AAPL","ex_dividend_date":"2020-08-07","cash_amount":0.82,"pay_date":"2020-08-13","record_date":"2020-08-10","declaration_date":"2020-07-30","frequency":4,"dividend_type":"CD"}\n'), '--data-dir', server.dataDir);
  expect(dividends.code).toBe(0);
}, 120_000);
afterAll(() => server.stop());

const RANGE = '/stocks/agg/US:AAPL/1/day/2020-08-03/2020-09-04?sort=asc';
const byDate = (bars: Bar[]) => Object.fromEntries(bars.map((b) => [new Date(b.t).toISOString().slice(0, 10), b]));

describe('adjusted history, imported next to a running server', () => {
  test('the native route: raw by default; split ÷ 4 and × 4 before the split; all also lowers bars before the ex-date', async () => {
    const raw = byDate((await server.json(RANGE)).body.results);
    expect(raw['2020-08-28']!.c).toBe(days.find((d) => d.date === '2020-08-28')!.c);
    const split = (await server.json(`${RANGE}&adjustment=split`)).body;
    expect(split.adjustment).toBe('split');
    const s = byDate(split.results);
    expect(s['2020-08-28']).toEqual({ ...raw['2020-08-28']!, o: raw['2020-08-28']!.o / 4, h: raw['2020-08-28']!.h / 4, l: raw['2020-08-28']!.l / 4, c: raw['2020-08-28']!.c / 4, v: raw['2020-08-28']!.v * 4 });
    expect(s['2020-08-31']).toEqual(raw['2020-08-31']!);
    const all = byDate((await server.json(`${RANGE}&adjustment=all`)).body.results);
    expect(all['2020-08-07']!.c).toBe(s['2020-08-07']!.c);
    expect(all['2020-08-06']!.c).toBeCloseTo(s['2020-08-06']!.c * (1 - 0.82 / raw['2020-08-06']!.c), 5);
    expect(all['2020-08-06']!.c).toBeLessThan(s['2020-08-06']!.c);
  });

  test('Massive adjusted=true|false and Alpaca adjustment=split agree with the native route', async () => {
    const massive = restClient(server.key, `${server.base}/compat/massive`);
    const window = { stocksTicker: 'AAPL', multiplier: 1, timespan: GetStocksAggregatesTimespanEnum.Day, from: '2020-08-03', to: '2020-09-04' };
    // The dialects stamp a US stock's daily bar at New York midnight, the native route at 00:00 UTC.
    const split = ((await server.json(`${RANGE}&adjustment=split`)).body.results as Bar[]).map(stampedNy);
    const raw = ((await server.json(RANGE)).body.results as Bar[]).map(stampedNy);
    expect((await massive.getStocksAggregates({ ...window, adjusted: true })).results).toEqual(split);
    expect((await massive.getStocksAggregates(window)).results).toEqual(split);
    expect((await massive.getStocksAggregates({ ...window, adjusted: false })).results).toEqual(raw);
    const stocks = new marketData.StockApi(new marketData.Configuration({ keyId: server.key, secret: 'unused', basePath: `${server.base}/compat/alpaca` }));
    const alpaca = await stocks.stockBars({ symbols: 'AAPL', timeframe: '1Day', start: new Date('2020-08-03T00:00:00Z'), end: new Date('2020-09-04T23:59:59Z'), adjustment: 'split' as never });
    expect(alpaca.bars.AAPL!.map((b) => ({ o: Number(b.o), h: Number(b.h), l: Number(b.l), c: Number(b.c), v: Number(b.v), t: new Date(b.t).getTime() }))).toEqual(split);
  });

  test('the reference routes list both actions: native, Massive and Alpaca', async () => {
    const splits = (await server.json('/stocks/splits/US:AAPL')).body;
    expect(splits.results).toEqual([{ execution_date: '2020-08-31', split_from: 1, split_to: 4 }]);
    const dividends = (await server.json('/stocks/dividends/US:AAPL')).body;
    expect(dividends.results).toEqual([{ ex_dividend_date: '2020-08-07', cash_amount: 0.82, pay_date: '2020-08-13', record_date: '2020-08-10', declaration_date: '2020-07-30', frequency: 4, dividend_type: 'CD' }]);
    const massive = (await server.json('/compat/massive/v3/reference/splits?ticker=AAPL')).body;
    expect(massive.results).toMatchObject([{ ticker: 'AAPL', execution_date: '2020-08-31', split_from: 1, split_to: 4 }]);
    const massiveDiv = (await server.json('/compat/massive/v3/reference/dividends?ticker=AAPL&ex_dividend_date.gte=2020-08-01')).body;
    expect(massiveDiv.results).toMatchObject([{ ticker: 'AAPL', ex_dividend_date: '2020-08-07', cash_amount: 0.82, pay_date: '2020-08-13', frequency: 4, dividend_type: 'CD' }]);
    const api = new marketData.CorporateActionsApi(new marketData.Configuration({ keyId: server.key, secret: 'unused', basePath: `${server.base}/compat/alpaca` }));
    const alpaca = await api.corporateActions({ symbols: 'AAPL', start: new Date('2020-01-01T00:00:00Z'), end: new Date('2020-12-31T00:00:00Z') });
    expect(alpaca.corporateActions.forwardSplits?.map((s) => [s.symbol, s.oldRate, s.newRate])).toEqual([['AAPL', 1, 4]]);
    expect(alpaca.corporateActions.cashDividends?.map((d) => [d.symbol, d.rate])).toEqual([['AAPL', 0.82]]);
  });

  test('another imported action changes the version and the ETag; the held tag no longer matches', async () => {
    const first = await server.get(`${RANGE}&adjustment=all`);
    const etag = first.headers.get('etag')!;
    const version = ((await first.json()) as { adjustment_version: string }).adjustment_version;
    expect((await server.get(`${RANGE}&adjustment=all`, { headers: { 'if-none-match': etag } })).status).toBe(304);
    const more = await runMds('import', 'dividends', file('more.csv', 'ticker,ex_dividend_date,cash_amount\nAAPL,2020-05-08,0.82\n'), '--data-dir', server.dataDir);
    expect(more.code).toBe(0);
    const after = await server.get(`${RANGE}&adjustment=all`, { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    const body = (await after.json()) as { adjustment_version: string };
    expect(body.adjustment_version).not.toBe(version);
    expect(after.headers.get('etag')).not.toBe(etag);
    // The reference route tells the version the dividend-adjusted bars carry now.
    expect((await server.json('/stocks/dividends/US:AAPL')).body.adjustment_version).toBe((await server.json(`${RANGE}&adjustment=dividend`)).body.adjustment_version);
  });
});
