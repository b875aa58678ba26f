// The keyed stock upstreams fetch corporate actions: against a real in-process HTTP server
// speaking Massive's v3 reference routes and Alpaca's v1 corporate-actions route from fixtures
// written from their docs (test/fixtures/corporate-actions), with the feed's restUrl pointed at
// it. The actions land in the store and on /stocks/splits/{symbol}, paging is followed, a re-fetch
// changes nothing, failures are logged once and retried, and the schedule runs on the clock.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from 'bun';
import { createApp } from '../../../src/api/app.ts';
import { Authenticator } from '../../../src/auth/authenticator.ts';
import { planVenueFeeds } from '../../../src/cli/feeds-file.ts';
import { UsageError } from '../../../src/config.ts';
import { ManualClock } from '../../../src/clock.ts';
import type { FeedInstrument } from '../../../src/domain/feed.ts';
import { BUILT_IN_PLANS } from '../../../src/domain/plans.ts';
import { ALPACA_STOCKS } from '../../../src/ingest/adapters/alpaca/index.ts';
import { binanceProtocol } from '../../../src/ingest/adapters/binance/binance-protocol.ts';
import { MASSIVE_CRYPTO, MASSIVE_STOCKS } from '../../../src/ingest/adapters/massive/index.ts';
import { ActionsSync, actionsSyncFor, withCorporateActions } from '../../../src/ingest/actions-sync.ts';
import { CATALOG } from '../../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../../src/store/index.ts';
import { until } from '../../support/cli.ts';
import { FakeFeed } from '../../support/fake-feed.ts';
import { startServer } from '../../support/server.ts';
import { tempDir, type TempDir } from '../../support/temp-dir.ts';

const FIXTURES = join(import.meta.dir, '..', '..', 'fixtures', 'corporate-actions');
const fixture = (name: string): any => JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), 'utf8')).body;
const DAY = 86_400_000;
const stock = (ticker: string): FeedInstrument => ({ assetClass: 'stocks', symbol: `US:${ticker}`, venueSymbol: ticker });

/** What the vendor server was asked: path and query, and the key headers. */
interface Asked {
  path: string;
  query: URLSearchParams;
  headers: Headers;
}

let asked: Asked[] = [];
/** Answers by a key the handler computes; a function for answers that change between calls. */
let answers: Record<string, unknown> = {};
let vendor: Server<undefined>;
let base: string;

function answerKey(url: URL): string {
  const q = url.searchParams;
  if (url.pathname.startsWith('/v3/reference/')) return q.has('cursor') ? `${url.pathname} cursor` : `${url.pathname} ${q.get('ticker')}`;
  return `${url.pathname} ${q.get('page_token') ?? 'first'}`;
}

beforeAll(() => {
  vendor = Bun.serve({
    port: 0,
    hostname: '127.0.0.1',
    fetch(req) {
      const url = new URL(req.url);
      asked.push({ path: url.pathname, query: url.searchParams, headers: req.headers });
      const answer = answers[answerKey(url)] ?? fixture('massive-empty');
      if (typeof answer === 'function') return (answer as () => Response)();
      return Response.json(answer);
    },
  });
  base = `http://127.0.0.1:${vendor.port}`;
});
afterAll(() => vendor.stop(true));

let dir: TempDir;
let store: Store;
let clock: ManualClock;
let logs: string[];

beforeEach(() => {
  asked = [];
  answers = {};
  logs = [];
  dir = tempDir('mds-feed-actions-');
  store = Store.open({ dataDir: dir.path });
  seedRegistry(store, CATALOG);
  clock = new ManualClock(Date.parse('2026-03-04T15:30:00Z'));
});
afterEach(async () => {
  await store.close();
  dir[Symbol.dispose]();
});

function massiveSync(instruments: FeedInstrument[]): ActionsSync {
  return new ActionsSync({ feedId: 'massive', source: MASSIVE_STOCKS.corporateActions!, instruments, credentials: { MASSIVE_API_KEY: 'mkey' }, restUrl: base, store, clock, log: (l) => logs.push(l), timer: false });
}

function massiveFixtures(): void {
  answers['/v3/reference/splits AAPL'] = fixture('massive-splits-aapl-1');
  answers['/v3/reference/splits cursor'] = fixture('massive-splits-aapl-2');
  answers['/v3/reference/dividends AAPL'] = fixture('massive-dividends-aapl');
  answers['/v3/reference/splits TSLA'] = fixture('massive-splits-tsla');
}

async function get(path: string): Promise<any> {
  const auth = new Authenticator({ store, clock, plans: BUILT_IN_PLANS, devKey: 'k'.repeat(10), devPerMinute: 1000 });
  const app = createApp({ store, bars: { barInProgress: () => null }, clock, auth, feed: 'none', version: '1.0.0' }, () => {});
  const res = await app.handle(new Request(`http://localhost${path}`, { headers: { 'x-api-key': 'k'.repeat(10) } }));
  expect(res.status).toBe(200);
  return res.json();
}

describe('Massive: /v3/reference/splits and /dividends per ticker', () => {
  test('the first round stores every action, following next_url on the configured origin with the key in a header', async () => {
    massiveFixtures();
    const sync = massiveSync([stock('AAPL'), stock('TSLA')]);
    sync.start();
    await sync.tick();
    expect(asked.map((a) => `${a.path}?${a.query}`)).toEqual([
      '/v3/reference/splits?ticker=AAPL&limit=1000',
      `/v3/reference/splits?cursor=${new URL(fixture('massive-splits-aapl-1').next_url).searchParams.get('cursor')}`,
      '/v3/reference/dividends?ticker=AAPL&limit=1000',
      '/v3/reference/splits?ticker=TSLA&limit=1000',
      '/v3/reference/dividends?ticker=TSLA&limit=1000',
    ]);
    expect(asked.every((a) => a.headers.get('authorization') === 'Bearer mkey')).toBe(true);
    const aapl = store.corporateActions.of('US:AAPL');
    expect(aapl.splits.map((s) => `${s.date} ${s.from}:${s.to}`)).toEqual(['2014-06-09 1:7', '2020-08-31 1:4']);
    expect(aapl.dividends).toEqual([
      { symbol: 'US:AAPL', exDate: '2020-08-07', cash: 0.82, payDate: '2020-08-13', recordDate: '2020-08-10', declarationDate: '2020-07-30', frequency: 4, dividendType: 'CD' },
      { symbol: 'US:AAPL', exDate: '2020-11-06', cash: 0.205, payDate: '2020-11-12', recordDate: '2020-11-09', declarationDate: '2020-10-29', frequency: 4, dividendType: 'CD' },
    ]);
    expect(store.corporateActions.of('US:TSLA').splits.map((s) => s.date)).toEqual(['2020-08-31', '2022-08-25']);
    expect(sync.status).toMatchObject({ rounds: 1, added: 6, replaced: 0, failure: null });
    expect(logs).toEqual(['feed massive: corporate actions of 2 symbols: 6 new, 0 replaced']);
    // The native reference route serves what the feed fetched.
    const splits = await get('/stocks/splits/US:AAPL');
    expect(splits.results).toEqual([
      { execution_date: '2014-06-09', split_from: 1, split_to: 7 },
      { execution_date: '2020-08-31', split_from: 1, split_to: 4 },
    ]);
    expect((await get('/stocks/dividends/US:AAPL')).results.map((d: any) => d.cash_amount)).toEqual([0.82, 0.205]);
    await sync.stop();
  });

  test('daily on the clock: the same actions again change nothing; a new one moves the version', async () => {
    massiveFixtures();
    const sync = massiveSync([stock('AAPL')]);
    sync.start();
    await sync.tick();
    const version = store.corporateActions.version();
    const splitVersion = (await get('/stocks/splits/US:AAPL')).adjustment_version;
    const requests = asked.length;
    // Not due yet: nothing is asked.
    clock.advance(DAY - 1);
    await sync.tick();
    expect(asked.length).toBe(requests);
    clock.advance(1);
    await sync.tick();
    expect(asked.length).toBe(requests * 2);
    expect(store.corporateActions.version()).toBe(version);
    expect(sync.status).toMatchObject({ rounds: 2, added: 4, replaced: 0 });
    // A dividend declared since: the next day's round stores it and the version moves.
    const dividends = fixture('massive-dividends-aapl');
    dividends.results.unshift({ cash_amount: 0.24, currency: 'USD', declaration_date: '2026-01-29', dividend_type: 'CD', ex_dividend_date: '2026-02-09', frequency: 4, id: 'Enew', pay_date: '2026-02-12', record_date: '2026-02-09', ticker: 'AAPL' });
    answers['/v3/reference/dividends AAPL'] = dividends;
    clock.advance(DAY);
    await sync.tick();
    expect(store.corporateActions.version()).toBeGreaterThan(version);
    expect(store.corporateActions.of('US:AAPL').dividends.map((d) => d.exDate)).toEqual(['2020-08-07', '2020-11-06', '2026-02-09']);
    // Splits did not change: their adjustment version stays.
    expect((await get('/stocks/splits/US:AAPL')).adjustment_version).toBe(splitVersion);
    await sync.stop();
  });

  test('a failure is logged once, does not stop the round for good, and the retry resumes at the failed request', async () => {
    massiveFixtures();
    let refusals = 2;
    answers['/v3/reference/splits TSLA'] = () => (refusals-- > 0 ? Response.json({ status: 'ERROR', error: 'You have exceeded the maximum requests per minute' }, { status: 429 }) : Response.json(fixture('massive-splits-tsla')));
    const sync = massiveSync([stock('AAPL'), stock('TSLA')]);
    sync.start();
    await sync.tick();
    // AAPL's actions are stored already; TSLA's wait for the retry.
    expect(store.corporateActions.of('US:AAPL').splits.length).toBe(2);
    expect(store.corporateActions.of('US:TSLA').splits).toEqual([]);
    expect(sync.status.failure).toBe('HTTP 429 from /v3/reference/splits: {"status":"ERROR","error":"You have exceeded the maximum requests per minute"}');
    clock.advance(60_000);
    await sync.tick();
    // Refused again: still one error line; the next retry waits twice as long.
    expect(logs.filter((l) => l.startsWith('error:'))).toEqual([`error: feed massive: fetching corporate actions failed: ${sync.status.failure}; the feed goes on, retrying in 60 s and later`]);
    // No progress on that retry: the next waits 2 min.
    const before = asked.length;
    clock.advance(60_000);
    await sync.tick();
    expect(asked.length).toBe(before);
    clock.advance(60_000);
    await sync.tick();
    expect(asked.slice(before).map((a) => `${a.path} ${a.query.get('ticker')}`)).toEqual(['/v3/reference/splits TSLA', '/v3/reference/dividends TSLA']);
    expect(store.corporateActions.of('US:TSLA').splits.length).toBe(2);
    expect(sync.status).toMatchObject({ rounds: 1, failure: null });
    expect(logs).toContain('feed massive: corporate actions fetched again after the failure (' + 'HTTP 429 from /v3/reference/splits: {"status":"ERROR","error":"You have exceeded the maximum requests per minute"})');
    await sync.stop();
  });

  test('a bad row is skipped and reported with the reason the importer gives; the others are stored', async () => {
    const dividends = fixture('massive-dividends-aapl');
    dividends.results.push({ cash_amount: 0, ex_dividend_date: '2019-11-07', ticker: 'AAPL' });
    answers['/v3/reference/dividends AAPL'] = dividends;
    const sync = massiveSync([stock('AAPL')]);
    sync.start();
    await sync.tick();
    expect(store.corporateActions.of('US:AAPL').dividends.length).toBe(2);
    expect(logs).toContain('warn: feed massive: 1 corporate actions skipped as bad (the first: AAPL: cash_amount "0" is not a positive number)');
    await sync.stop();
  });
});

describe('Alpaca: /v1/corporate-actions for all symbols at once', () => {
  test('maps splits (reverse too) and cash dividends, follows next_page_token, sends the key headers', async () => {
    answers['/v1/corporate-actions first'] = fixture('alpaca-1');
    answers[`/v1/corporate-actions ${fixture('alpaca-1').next_page_token}`] = fixture('alpaca-2');
    const sync = new ActionsSync({ feedId: 'alpaca', source: ALPACA_STOCKS.corporateActions!, instruments: [stock('AAPL'), stock('TSLA'), stock('GE'), stock('COST')], credentials: { APCA_API_KEY_ID: 'id1', APCA_API_SECRET_KEY: 'sec1' }, restUrl: base, store, clock, log: (l) => logs.push(l), timer: false });
    sync.start();
    await sync.tick();
    expect(asked.length).toBe(2);
    const first = asked[0]!.query;
    expect(Object.fromEntries(first)).toEqual({ symbols: 'AAPL,TSLA,GE,COST', types: 'forward_split,reverse_split,cash_dividend', start: '2016-03-04', end: '2026-06-02', limit: '1000' });
    expect(asked[1]!.query.get('page_token')).toBe(fixture('alpaca-1').next_page_token);
    expect(asked.every((a) => a.headers.get('apca-api-key-id') === 'id1' && a.headers.get('apca-api-secret-key') === 'sec1')).toBe(true);
    const all = store.corporateActions.all();
    expect(all.splits.map((s) => `${s.symbol} ${s.date} ${s.from}:${s.to}`)).toEqual(['US:AAPL 2020-08-31 1:4', 'US:GE 2021-08-02 8:1', 'US:TSLA 2022-08-25 1:3']);
    expect(all.dividends).toEqual([
      { symbol: 'US:AAPL', exDate: '2020-08-07', cash: 0.82, payDate: '2020-08-13', recordDate: '2020-08-10', declarationDate: null, frequency: null, dividendType: 'CD' },
      { symbol: 'US:COST', exDate: '2023-12-27', cash: 15, payDate: '2024-01-12', recordDate: '2023-12-28', declarationDate: null, frequency: null, dividendType: 'SC' },
    ]);
    await sync.stop();
  });
});

describe('wiring', () => {
  test('a keyed stock feed gets a sync (its restUrl from the feeds file); a feed without a REST source does not, and restUrl is refused for it', () => {
    const env = { MASSIVE_API_KEY: 'k', APCA_API_KEY_ID: 'i', APCA_API_SECRET_KEY: 's' };
    const [massive, crypto] = planVenueFeeds(['massive', 'massive-crypto'], { feeds: { massive: { restUrl: base, instruments: ['US:AAPL'] } } }, [MASSIVE_STOCKS, MASSIVE_CRYPTO], env);
    expect(massive!.settings.restUrl).toBe(base);
    expect(actionsSyncFor(massive!.protocol, massive!.settings, { store, clock, log: () => {} })).toBeInstanceOf(ActionsSync);
    expect(actionsSyncFor(crypto!.protocol, crypto!.settings, { store, clock, log: () => {} })).toBeNull();
    expect(actionsSyncFor(MASSIVE_STOCKS, { instruments: [stock('AAPL')] }, { store, clock, log: () => {} })).toBeNull();
    expect(() => planVenueFeeds(['binance'], { feeds: { binance: { restUrl: base } } }, [binanceProtocol], env)).toThrow(new UsageError('feeds file: /feeds/binance/restUrl: binance fetches nothing over REST; restUrl is for the keyed stock feeds (massive, alpaca)'));
  });

  test('the feed starts its sync and stops it; a vendor that fails leaves the feed live', async () => {
    answers['/v3/reference/splits AAPL'] = () => new Response('upstream down', { status: 502 });
    const feed = new FakeFeed('massive', [stock('AAPL')]);
    const sync = massiveSync([stock('AAPL')]);
    const wrapped = withCorporateActions(feed, sync);
    wrapped.start({ quote() {}, trade() {}, stale() {} });
    // Before its first round ends the fetch is pending; then the failure shows in the feed's health.
    expect(wrapped.health().corporateActions).toMatchObject({ state: 'pending', lastRoundMs: null, failure: null });
    await sync.tick();
    expect(sync.status.failure).toBe('HTTP 502 from /v3/reference/splits: upstream down');
    expect(wrapped.health().state).toBe('live');
    expect(wrapped.health().corporateActions).toEqual({ state: 'retrying', lastRoundMs: null, failure: 'HTTP 502 from /v3/reference/splits: upstream down', nextDueMs: clock.nowMs() + 60_000, added: 0, replaced: 0, badRows: 0 });
    // The vendor answers again: the retry completes the round, and the feed's health says so.
    massiveFixtures();
    clock.advance(60_000);
    await sync.tick();
    expect(wrapped.health().corporateActions).toMatchObject({ state: 'ok', lastRoundMs: clock.nowMs(), failure: null, added: 4 });
    await wrapped.stop();
    expect(feed.state).toBe('stopped');
    clock.advance(DAY);
    const before = asked.length;
    await sync.tick();
    expect(asked.length).toBe(before);
  });
});

describe('mds serve --feed massive', () => {
  test('a server with the key fetches the actions at start: /stocks/splits lists them while the WebSocket is still down', async () => {
    massiveFixtures();
    const file = join(dir.path, 'feeds.json');
    // The WebSocket URL answers no upgrade: the feed backs off, and the REST fetch goes on regardless.
    writeFileSync(file, JSON.stringify({ feeds: { massive: { url: `ws://127.0.0.1:${vendor.port}/stocks`, restUrl: base, instruments: ['US:AAPL'] } } }));
    const saved = process.env.MASSIVE_API_KEY;
    process.env.MASSIVE_API_KEY = 'serve-key';
    await using server = await startServer({ args: ['--feed', 'massive', '--feeds', file], waitForHistory: false });
    if (saved === undefined) delete process.env.MASSIVE_API_KEY;
    else process.env.MASSIVE_API_KEY = saved;
    await until(async () => (await server.json('/stocks/splits/US:AAPL')).body.results?.length === 2, 'the fetched splits on /stocks/splits/US:AAPL');
    expect((await server.json('/stocks/splits/US:AAPL')).body.results).toEqual([
      { execution_date: '2014-06-09', split_from: 1, split_to: 7 },
      { execution_date: '2020-08-31', split_from: 1, split_to: 4 },
    ]);
    await until(async () => (await server.json('/stocks/dividends/US:AAPL')).body.results?.length === 2, 'the fetched dividends');
    // /health tells the fetch's state beside the feed's own (the WebSocket is down, the fetch is not).
    const fetchOf = async () => ((await server.json('/health')).body.feeds as { id: string; corporate_actions: Record<string, unknown> | null }[]).find((f) => f.id === 'massive')!.corporate_actions;
    await until(async () => (await fetchOf())?.state === 'ok', "the massive feed's corporate_actions state ok on /health");
    expect(await fetchOf()).toMatchObject({ state: 'ok', failure: null, added: 4, replaced: 0, bad_rows: 0 });
    expect((await fetchOf())!.last_round_ms).toBeGreaterThan(0);
    expect(asked.filter((a) => a.path.startsWith('/v3/')).every((a) => a.headers.get('authorization') === 'Bearer serve-key')).toBe(true);
  }, 60_000);
});
