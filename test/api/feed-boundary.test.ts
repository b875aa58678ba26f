// The feed boundary over real HTTP: a fake feed registered in a real server supplies an instrument
// the catalog lacks, and the registry learns it (symbol list, quote, trade, bars, stream); /health
// lists every feed, a failed one too, and the server keeps serving.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import type { FeedInstrument } from '../../src/domain/feed.ts';
import { FakeFeed } from '../support/fake-feed.ts';
import { startServer, TEST_KEY, WEDNESDAY_US_OPEN, type TestServer } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';

const T0 = Date.parse(WEDNESDAY_US_OPEN);
const ZZT: FeedInstrument = { assetClass: 'crypto', symbol: 'ZZTUSD', venueSymbol: 'ZZT-USD', name: 'Zeta Token / US Dollar', decimals: 4 };
const feed = new FakeFeed('fake', [ZZT, { assetClass: 'crypto', symbol: 'BTCUSD', venueSymbol: 'BTC-USD' }]);
const broken = new FakeFeed('broken', [ZZT], { failStart: 'throw' });
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ args: ['--feed', 'none'], feeds: [feed, broken] });
});
afterAll(async () => {
  await server?.[Symbol.asyncDispose]();
});

describe('instruments learned from a feed', () => {
  test('listed, quoted, traded, in bars and on the stream once its feed declares it', async () => {
    const list = await server.json('/crypto/symbols');
    expect(list.body.data.find((s: { symbol: string }) => s.symbol === 'ZZTUSD')).toMatchObject({ symbol: 'ZZTUSD', name: 'Zeta Token / US Dollar' });

    await using ws = await connect(`${server.base.replace('http', 'ws')}/?apiKey=${TEST_KEY}`);
    ws.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['ZZTUSD'], id: 1 });
    await ws.next((m) => m.type === 'subscribed');
    feed.quote('ZZTUSD', T0, 0.1234, 0.1236);
    feed.trade('ZZTUSD', T0 + 1, 0.1235, 50);
    expect(await ws.next((m) => m.type === 'quote')).toMatchObject({ symbol: 'ZZTUSD', bid: 0.1234, ask: 0.1236, ts: T0 });

    const quote = await server.json('/crypto/quote/ZZTUSD');
    expect(quote.status).toBe(200);
    expect(quote.body).toMatchObject({ symbol: 'ZZTUSD', bid: 0.1234, ask: 0.1236 });
    const trade = await server.json('/crypto/trade/last/ZZTUSD');
    expect(trade.body).toMatchObject({ symbol: 'ZZTUSD', price: 0.1235, size: 50 });
    const day = WEDNESDAY_US_OPEN.slice(0, 10);
    const bars = await server.json(`/crypto/agg/ZZTUSD/1/minute/${day}/${day}`);
    expect(bars.status).toBe(200);
    expect(JSON.stringify(bars.body)).toContain('0.1235');
  });

  test('a symbol no feed declares stays unknown', async () => {
    expect((await server.get('/crypto/quote/QQXUSD')).status).toBe(404);
  });
});

describe('/health lists every feed', () => {
  test('each feed with its state and counters; a feed that failed to start is listed failed, the server ready', async () => {
    feed.quote('BTCUSD', T0 + 5, 95000, 95001);
    const { status, body } = await server.json('/health');
    expect(status).toBe(200);
    expect(body.feeds.map((f: { id: string; state: string }) => [f.id, f.state])).toEqual([
      ['fake', 'live'],
      ['broken', 'failed'],
    ]);
    expect(Object.keys(body.feeds[0])).toEqual(['id', 'state', 'connected_since', 'last_message_age_ms', 'messages_per_second', 'reconnects', 'parse_errors', 'sequence_gaps', 'instruments', 'reason', 'instrument_errors', 'ticks', 'conflated_quotes', 'dropped_ticks', 'corporate_actions']);
    expect(body.feeds[0]).toMatchObject({ instruments: 2, reconnects: 0, parse_errors: 0, reason: null, corporate_actions: null });
    expect(body.feeds[0].last_message_age_ms).toBeGreaterThanOrEqual(0);
    expect(body.feeds[1]).toMatchObject({ state: 'failed', reason: 'start failed: broken cannot connect', connected_since: null });
    expect(server.logs.some((l) => l.includes('feed broken failed: start failed: broken cannot connect'))).toBe(true);
  });
});
