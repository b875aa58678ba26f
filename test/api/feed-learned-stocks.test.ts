// A stock a feed declares and the catalog lacks takes its market from its symbol, as the catalog's
// stocks do: listed under that market with its ticker as base symbol, its hourly bars cut at that
// market's session open (not at UTC hours), and open to a key limited to that market. A stock whose
// prefix names no market with a calendar here is not served (its bars would be silently wrong).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { FeedInstrument } from '../../src/domain/feed.ts';
import { runMds, until } from '../support/cli.ts';
import { FakeFeed } from '../support/fake-feed.ts';
import { startServer, WEDNESDAY_US_OPEN, type TestServer } from '../support/server.ts';

/** 10:30 New York on a Wednesday: the US session opened at 09:30 (14:30 UTC). */
const T0 = Date.parse(WEDNESDAY_US_OPEN);
const ZZTX: FeedInstrument = { assetClass: 'stocks', symbol: 'US:ZZTX', venueSymbol: 'ZZTX', name: 'Zeta Tools Inc', decimals: 2 };
const NO_MARKET: FeedInstrument = { assetClass: 'stocks', symbol: 'ZZ:ABC', venueSymbol: 'ABC', name: 'Nowhere Corp', decimals: 2 };
const feed = new FakeFeed('fake', [ZZTX, NO_MARKET]);
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ args: ['--feed', 'none'], feeds: [feed] });
});
afterAll(() => server.stop());

describe('stocks learned from a feed', () => {
  test('take the market of their prefix: listed under it, hourly bars on its sessions, open to a key of that market', async () => {
    const list = await server.json('/stocks/symbols?market=US');
    expect(list.status).toBe(200);
    expect(list.body.symbols.find((s: { symbol: string }) => s.symbol === 'US:ZZTX')).toEqual({ symbol: 'US:ZZTX', base_symbol: 'ZZTX', market: 'US', name: 'Zeta Tools Inc' });

    // Trades at 10:31 and 11:10 New York: one session hour (10:30–11:30), where UTC hours would cut two.
    feed.trade('US:ZZTX', T0 + 60_000, 20.5, 100);
    feed.trade('US:ZZTX', T0 + 40 * 60_000, 21.25, 50);
    const day = WEDNESDAY_US_OPEN.slice(0, 10);
    const hours = await server.json(`/stocks/agg/US:ZZTX/1/hour/${day}/${day}`);
    expect(hours.status).toBe(200);
    expect(hours.body.results.map((b: { t: number; o: number; c: number; v: number }) => ({ t: b.t, o: b.o, c: b.c, v: b.v }))).toEqual([{ t: T0, o: 20.5, c: 21.25, v: 150 }]);

    // A free key is limited to the US market: the learned stock is one of its own.
    const created = await runMds('keys', 'create', '--plan', 'free', '--json', '--data-dir', server.dataDir);
    expect(created.code).toBe(0);
    const { key } = JSON.parse(created.out) as { key: string };
    // The server takes up keys made by `mds keys` within its key poll.
    await until(async () => (await server.get('/account', { key })).status === 200, 'the server to take up the new key');
    const trade = await server.get('/stocks/trade/last/US:ZZTX', { key });
    expect(trade.status).toBe(200);
    expect(await trade.json()).toMatchObject({ symbol: 'US:ZZTX', price: 21.25 });
  });

  test('a stock whose prefix names no market with a calendar here is not served, and the log says why', async () => {
    expect(server.logs.some((l) => l.includes('feed fake: stocks ZZ:ABC names the market ZZ, which has no calendar on this server'))).toBe(true);
    const res = await server.get('/stocks/quote/ZZ:ABC');
    expect(res.status).toBe(404);
  });
});
