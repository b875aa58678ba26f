// The range route over real HTTP while the simulator seals bars: the answers to the same requests,
// asked before and after a minute bar is sealed into the hot chunk, must both be right (nothing
// stale from the encoded-bar cache or the repeated-request memo). The clock starts a few seconds
// before a minute ends; a BTCUSD trade of the next minute on the stream says the bar is sealed
// (the pipeline folds a price into the bars before publishing it).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { connect } from '../support/ws-client.ts';
import { startServer, TEST_KEY, type TestServer } from '../support/server.ts';

type Bar = { o: number; h: number; l: number; c: number; v: number | null; t: number };
type RangeBody = { symbol: string; results_count: number; total_count: number; results: Bar[]; next_offset: number | null };
const MIN = 60_000;
// Today's minutes (some 930 bars): all written before the port opens, so the background history
// build, which only adds older days, never changes this window while the test reads it. The server
// starts from a copy of the whole history: the minute that ends 4 s after the start is the one it watches.
const WINDOW = '/crypto/agg/BTCUSD/1/minute/2026-03-04/2026-03-04';

let server: TestServer;
beforeAll(async () => {
  // From a history template: no background build competes with the reads that must finish inside the minute.
  server = await startServer({ args: ['--history-days', '2', '--clock-start', '2026-03-04T15:30:56Z'], template: true });
});
afterAll(() => server.stop());

async function range(query: string): Promise<RangeBody> {
  const { status, body } = await server.json<RangeBody>(`${WINDOW}?${query}`);
  expect(status).toBe(200);
  expect(body.results_count).toBe(body.results.length);
  return body;
}

/** Every page of the window with `limit`, joined. */
async function allPages(sort: 'asc' | 'desc', limit: number): Promise<Bar[]> {
  const out: Bar[] = [];
  for (let offset: number | null = 0; offset !== null; ) {
    const page = await range(`sort=${sort}&limit=${limit}&offset=${offset}`);
    out.push(...page.results);
    offset = page.next_offset;
  }
  return out;
}

/** The window in every shape the route offers: sorts, the default page, pages across chunks. */
async function views() {
  const asc = await range('sort=asc&limit=5000');
  const desc = await range('limit=5000');
  const firstPage = await range('');
  const ascPages = await allPages('asc', 700);
  const descPages = await allPages('desc', 1000);
  return { asc, desc, firstPage, ascPages, descPages };
}

/** The views agree with each other; the newest bar (in progress) may move between requests. */
function expectConsistent(v: Awaited<ReturnType<typeof views>>): Bar[] {
  const bars = v.asc.results;
  for (let i = 1; i < bars.length; i++) expect(bars[i]!.t).toBeGreaterThan(bars[i - 1]!.t);
  const sealed = bars.slice(0, -1);
  expect(v.asc.total_count).toBe(bars.length);
  expect(v.desc.results.slice(1)).toEqual([...sealed].reverse());
  expect(v.firstPage.results.slice(1)).toEqual([...sealed].reverse().slice(0, 499));
  expect(v.firstPage.next_offset).toBe(500);
  expect(v.ascPages.slice(0, -1)).toEqual(sealed);
  expect(v.descPages.slice(1)).toEqual([...sealed].reverse());
  for (const b of bars) expect(Object.keys(b)).toEqual(['o', 'h', 'l', 'c', 'v', 't']);
  return bars;
}

describe('range route while bars are sealed', () => {
  test('a bar sealed into the hot chunk after a request is in the next answer to the same requests', async () => {
    await using ws = await connect(`${server.base.replace('http', 'ws')}/?apiKey=${TEST_KEY}`);
    ws.send({ action: 'subscribe', channels: ['crypto.trades'], symbols: ['BTCUSD'] });
    await ws.next((m) => m.type === 'subscribed');
    const isTradeFrom = (fromMs: number) => (m: any) => m.type === 'trade' && m.symbol === 'BTCUSD' && m.ts >= fromMs;
    // The minute in progress has a trade, so it has a bar in progress that the next minute seals.
    let minute = Math.floor((await ws.next(isTradeFrom(0))).ts / MIN) * MIN;
    let before: Bar[];
    for (;;) {
      // The same requests as after, so each has its encoded bars and its body cached.
      before = (await views()).asc.results;
      const crossed = ws.messages.findLast(isTradeFrom(minute + MIN));
      if (!crossed) break;
      // The minute ended while reading: start again from the one now in progress.
      minute = Math.floor(crossed.ts / MIN) * MIN;
    }
    expect(before.at(-1)!.t).toBeLessThanOrEqual(minute);
    await ws.next(isTradeFrom(minute + MIN), 80_000);
    const after = expectConsistent(await views());
    // Bars sealed before are unchanged; the minute's bar is there once, sealed, before the next one.
    expect(after.slice(0, before.length - 1)).toEqual(before.slice(0, -1));
    expect(after.filter((b) => b.t === minute).length).toBe(1);
    expect(after.at(-1)!.t).toBeGreaterThan(minute);
  }, 90_000);
});
