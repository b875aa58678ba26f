// Feed states through the real server: /health and /metrics say `stale` (mds_feed_up 0) for a
// connection gone dead, through its redial, until data flows again; a Coinbase batch refused for
// one product is resubscribed without it, the others are served, and the error is counted in
// /metrics until the product ticks again.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { coinbaseSubscribeFrames } from '../../src/ingest/adapters/coinbase/parse-coinbase.ts';
import { until } from '../support/cli.ts';
import { framesFromFixtures, LocalVenue } from '../support/local-venue.ts';
import { scrape, series } from '../support/prometheus.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { startProxy, type TcpProxy } from '../support/tcp-proxy.ts';

interface FeedReport {
  id: string;
  state: string;
  reason: string | null;
  reconnects: number;
  instrument_errors: Record<string, string>;
}

let binance: LocalVenue;
let coinbase: LocalVenue;
let proxy: TcpProxy;
let server: TestServer;
let dir: string;

const report = async (id: string): Promise<FeedReport> => ((await server.json('/health')).body.feeds as FeedReport[]).find((f) => f.id === id)!;
const metrics = async () => (await scrape(`http://127.0.0.1:${server.metricsPort}/metrics`)).values;
const up = (feed: string) => series('mds_feed_up', { feed });
const inState = (feed: string, state: string) => series('mds_feed_state', { feed, state });
/** Waits for these series to read these values (a scrape reuses a feed report up to 100 ms old). */
const untilMetrics = (expected: Record<string, number>, what: string) =>
  until(async () => {
    const values = await metrics();
    return Object.entries(expected).every(([key, value]) => values.get(key) === value);
  }, what);

beforeAll(async () => {
  binance = new LocalVenue(framesFromFixtures('binance'));
  coinbase = new LocalVenue(framesFromFixtures('coinbase'));
  // No answers from Coinbase but what the test sends: its acks would name products of their own.
  coinbase.silent = true;
  proxy = await startProxy(Number(new URL(binance.url).port));
  dir = mkdtempSync(join(tmpdir(), 'mds-feed-states-'));
  const feedsFile = join(dir, 'feeds.json');
  const fast = { backoffMinMs: 50, backoffMaxMs: 200 };
  writeFileSync(
    feedsFile,
    JSON.stringify({
      feeds: {
        // A short silence limit on the real clock: the test awaits the states, it never sleeps.
        binance: { url: `ws://127.0.0.1:${proxy.port}`, instruments: ['BTCUSD', 'ETHUSD'], silentMs: 1000, ...fast },
        coinbase: { url: coinbase.url, instruments: ['BTCUSD', 'ETHUSD', 'SOLUSD'], ...fast },
      },
    }),
  );
  server = await startServer({ args: ['--feed', 'binance,coinbase', '--feeds', feedsFile, '--metrics-port', '0', '--clock-start', String(Date.now())] });
});

afterAll(async () => {
  await server.stop();
  await proxy[Symbol.asyncDispose]();
  await binance[Symbol.asyncDispose]();
  await coinbase[Symbol.asyncDispose]();
  rmSync(dir, { recursive: true, force: true });
});

describe('feed states in /health and /metrics', () => {
  test('a dead connection is stale, in both, through its redial, until data flows again', async () => {
    await until(async () => (await report('binance')).state === 'live', 'binance live');
    await untilMetrics({ [up('binance')]: 1 }, 'mds_feed_up 1');
    // A dial at start-up may have been abandoned on a busy machine: count from here.
    const dialsBefore = (await report('binance')).reconnects;
    const connectionsBefore = binance.connections.length;

    proxy.freeze();
    binance.silent = true; // the redialled connection hears no answer to its subscription either
    await until(async () => (await report('binance')).state === 'stale', 'binance stale');
    await untilMetrics({ [up('binance')]: 0, [inState('binance', 'stale')]: 1, [inState('binance', 'live')]: 0 }, 'stale in /metrics');

    await until(async () => binance.connections.length > connectionsBefore && binance.connections.at(-1)!.received.length > 0, 'the redial to subscribe');
    // Each silence of the unanswering venue redials again: stale throughout, one dial more at least.
    const during = await report('binance');
    expect(during.state).toBe('stale');
    expect(during.reason).toMatch(/^silent for \d+ ms; /);
    expect(during.reconnects).toBeGreaterThan(dialsBefore);
    expect((await metrics()).get(up('binance'))).toBe(0);
    expect(server.logs.filter((l) => l.includes('feed binance: no message for'))).toHaveLength(1);

    binance.silent = false;
    // Sent again on every poll: one sent while the feed is between connections reaches nobody.
    await until(async () => {
      binance.sendQuote('BTCUSDT');
      return (await report('binance')).state === 'live';
    }, 'binance live again');
    await untilMetrics({ [up('binance')]: 1, [inState('binance', 'stale')]: 0 }, 'live in /metrics');
  });

  test('a Coinbase batch refused for one product is resubscribed without it; the others are served; the error counts until it ticks', async () => {
    await until(async () => coinbase.connections[0]?.received.length === 3, 'the coinbase subscription');
    expect((await report('coinbase')).state).toBe('subscribing');
    coinbase.sendSymbolError('ETH-USD');
    await until(async () => coinbase.connections[0]!.received.length === 6, 'the resubscription');
    expect(coinbase.connections[0]!.received.slice(3)).toEqual(coinbaseSubscribeFrames(['BTC-USD', 'SOL-USD']));
    expect(Object.keys((await report('coinbase')).instrument_errors)).toEqual(['ETHUSD']);
    await untilMetrics({ [series('mds_feed_instrument_errors', { feed: 'coinbase' })]: 1 }, 'the error counted in /metrics');

    coinbase.sendQuote('SOL-USD');
    await until(async () => (await server.json('/crypto/quote/SOLUSD')).status === 200, 'SOLUSD served');
    expect((await report('coinbase')).state).toBe('live');

    coinbase.sendQuote('ETH-USD');
    await until(async () => Object.keys((await report('coinbase')).instrument_errors).length === 0, 'the error to clear');
    await untilMetrics({ [series('mds_feed_instrument_errors', { feed: 'coinbase' })]: 0 }, 'the error cleared in /metrics');
  });
});
