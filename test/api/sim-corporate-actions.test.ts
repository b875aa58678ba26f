// The simulator's corporate actions on the default data, over real HTTP: the reference routes list
// them, the raw daily bars jump at each split and drop by the cash at an ex-date, and the
// split-adjusted bars run on without a jump. The clock starts Wed 2026-03-04 15:30 UTC, so
// US:WMT's 4-for-1 split is on 2026-02-25 and US:KO's 3-for-2 on 2025-09-03.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../support/server.ts';

let server: TestServer;
// Two weeks of minutes and a year of days (the history of bar-routes.test.ts: one template for both).
beforeAll(async () => {
  server = await startServer({ args: ['--history-days', '14', '--history-years', '1'] });
}, 300_000);
afterAll(() => server.stop());

type Bar = { o: number; h: number; l: number; c: number; v: number; t: number };
const dateOf = (b: Bar) => new Date(b.t).toISOString().slice(0, 10);

async function bars(path: string): Promise<Bar[]> {
  const { status, body } = await server.json(`${path}${path.includes('?') ? '&' : '?'}sort=asc&limit=5000`);
  expect(status).toBe(200);
  return body.results;
}

/** close(i) / close(i-1) of consecutive bars, with the date of the later one. */
function closeRatios(series: Bar[]): [string, number][] {
  return series.slice(1).map((b, i) => [dateOf(b), b.c / series[i]!.c]);
}

describe('the simulator makes splits and dividends', () => {
  test('the reference routes list them, in the shares of their dates', async () => {
    expect((await server.json('/stocks/splits/US:WMT')).body.results).toEqual([{ execution_date: '2026-02-25', split_from: 1, split_to: 4 }]);
    expect((await server.json('/stocks/splits/US:KO')).body.results).toEqual([{ execution_date: '2025-09-03', split_from: 2, split_to: 3 }]);
    expect((await server.json('/stocks/splits/US:AAPL')).body.count).toBe(0);
    const ko = (await server.json('/stocks/dividends/US:KO')).body;
    // Quarterly over the five years before the first start, none on or after its date.
    expect(ko.count).toBe(20);
    const last = ko.results.at(-1);
    expect(last).toEqual({ ex_dividend_date: '2025-12-15', cash_amount: 0.51, pay_date: '2026-01-05', record_date: '2025-12-15', declaration_date: '2025-11-17', frequency: 4, dividend_type: 'CD' });
    // Before the 3-for-2 split the same payout is 1.5 times as much a share.
    expect(ko.results.find((d: { ex_dividend_date: string }) => d.ex_dividend_date === '2025-06-16').cash_amount).toBe(0.765);
    for (const symbol of ['US:PG', 'US:WMT', 'US:XOM']) expect((await server.json(`/stocks/dividends/${symbol}`)).body.count).toBe(20);
  });

  for (const [symbol, name, date, ratio, from, to] of [
    ['US:WMT', '4-for-1', '2026-02-25', 4, '2026-02-11', '2026-03-04'],
    ['US:KO', '3-for-2', '2025-09-03', 1.5, '2025-08-01', '2025-10-01'],
  ] as const) {
    test(`${symbol}: raw daily bars jump at the ${name} split of ${date}; split-adjusted ones do not`, async () => {
      const raw = await bars(`/stocks/agg/${symbol}/1/day/${from}/${to}`);
      const adjusted = await bars(`/stocks/agg/${symbol}/1/day/${from}/${to}?adjustment=split`);
      expect(adjusted.map(dateOf)).toEqual(raw.map(dateOf));
      const i = raw.findIndex((b) => dateOf(b) === date);
      expect(i).toBeGreaterThan(3);
      // The raw close falls by the ratio, within a normal day's move.
      const jump = raw[i - 1]!.c / raw[i]!.c;
      expect(jump).toBeGreaterThan(ratio * 0.9);
      expect(jump).toBeLessThan(ratio * 1.1);
      for (const [d, r] of closeRatios(adjusted)) {
        expect([d, r > 0.9 && r < 1.1]).toEqual([d, true]);
      }
      for (let k = 0; k < raw.length; k++) {
        const f = k < i ? ratio : 1;
        expect(adjusted[k]!.c).toBeCloseTo(raw[k]!.c / f, 2);
        expect(Math.abs(adjusted[k]!.v - raw[k]!.v * f)).toBeLessThanOrEqual(0.5);
      }
    });
  }

  test("US:WMT's minutes jump at the split too, and adjusted ones do not", async () => {
    const raw = await bars('/stocks/agg/US:WMT/1/minute/2026-02-24/2026-02-25');
    const adjusted = await bars('/stocks/agg/US:WMT/1/minute/2026-02-24/2026-02-25?adjustment=split');
    const i = raw.findIndex((b) => dateOf(b) === '2026-02-25');
    expect(i).toBeGreaterThan(0);
    expect(raw[i - 1]!.c / raw[i]!.o).toBeCloseTo(4, 1);
    expect(adjusted[i - 1]!.c / adjusted[i]!.o).toBeCloseTo(1, 2);
  });

  test('the raw price drops by the cash at an ex-date, and adjustment=all takes it out', async () => {
    const raw = await bars('/stocks/agg/US:KO/1/day/2025-12-08/2025-12-19');
    const i = raw.findIndex((b) => dateOf(b) === '2025-12-15');
    // The simulated walk opens where it closed: the gap is the dividend (to a cent of rounding).
    expect(Math.abs(raw[i - 1]!.c - raw[i]!.o - 0.51)).toBeLessThanOrEqual(0.011);
    const all = (await server.json('/stocks/agg/US:KO/1/day/2025-12-08/2025-12-19?sort=asc&adjustment=all')).body;
    expect(all.adjustment).toBe('all');
    const gap = all.results[i - 1].c - all.results[i].o;
    expect(Math.abs(gap)).toBeLessThan(0.02);
  });
});

describe('fundamentals say their share counts are not split-adjusted', () => {
  test("US:WMT's counts are in the shares of as_of: after its split, so they fit post-split prices only", async () => {
    const item = (await server.json('/fundamentals/stocks/US:WMT')).body;
    expect(item.as_of).toBe('2026-03-04');
    const raw = await bars('/stocks/agg/US:WMT/1/day/2026-02-24/2026-03-03');
    const before = raw.find((b) => dateOf(b) === '2026-02-24')!.c;
    const last = raw.at(-1)!.c;
    // market_cap is currency: the count times a price of as_of's shares gives it, a pre-split price four times it.
    expect(item.shares_total * last / item.market_cap).toBeGreaterThan(0.9);
    expect(item.shares_total * last / item.market_cap).toBeLessThan(1.1);
    expect(item.shares_total * before / item.market_cap).toBeGreaterThan(3.6);
  });

  test('the OpenAPI document says it on every field counted in shares', async () => {
    const { body } = await server.json('/openapi.json');
    const fields = body.components.schemas.FundamentalsItem.properties;
    for (const name of ['shares_total', 'free_float', 'shares_listed_est', 'free_float_est', 'short_interest', 'adv_10d', 'adv_90d']) {
      expect([name, fields[name].description]).toEqual([name, expect.stringContaining('in the shares of `as_of`')]);
      expect(fields[name].description).toContain('not split-adjusted');
    }
    for (const name of ['market_cap', 'float_ratio', 'short_float_ratio', 'days_to_cover']) expect([name, fields[name].description]).toEqual([name, undefined]);
    expect(fields.as_of.description).toContain('the share counts are in the shares of this date');
  });
});
