// A live venue feed through the real server: a local venue speaking Binance's protocol (from its
// recorded frames) behind `--feed binance --feeds FILE`, its quotes served on REST and the stream,
// its state in /health, a dropped connection reconnected, a malformed frame counted.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { until } from '../support/cli.ts';
import { startBinanceVenueServer, type VenueServer } from '../support/binance-venue-server.ts';
import { framesFromFixtures, LocalVenue } from '../support/local-venue.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { tempDir } from '../support/temp-dir.ts';
import { connect } from '../support/ws-client.ts';

let venue: LocalVenue;
let server: TestServer;

interface FeedReport {
  id: string;
  state: string;
  reconnects: number;
  parse_errors: number;
  sequence_gaps: number;
  instruments: number;
  ticks: number | null;
  conflated_quotes: number;
  dropped_ticks: number;
}

/** Whether a trade the venue sends now reaches a stream client (quotes of unchanged prices are not republished). */
async function tradeFlows(): Promise<boolean> {
  await using ws = await connect(`${server.base.replace('http', 'ws')}/?apiKey=${server.key}`);
  ws.send({ action: 'subscribe', channels: ['crypto.trades'], symbols: ['BTCUSD'] });
  await ws.next((m) => m.type === 'subscribed');
  venue.sendTrade('BTCUSDT');
  await ws.next((m) => m.type === 'trade' && m.symbol === 'BTCUSD');
  return true;
}

const feedReport = async (): Promise<FeedReport | undefined> => ((await server.json('/health')).body.feeds as FeedReport[]).find((f) => f.id === 'binance');

let fed: VenueServer;

beforeAll(async () => {
  fed = await startBinanceVenueServer(['BTCUSD', 'ETHUSD']);
  ({ venue, server } = fed);
});

afterAll(() => fed.dispose());

describe('a venue feed in the real server', () => {
  test('it subscribes the instruments of the feeds file under their venue names', () => {
    const sent = venue.connections[0]!.received.join('\n').toLowerCase();
    expect(sent).toContain('btcusdt@bookticker');
    expect(sent).toContain('ethusdt@bookticker');
  });

  test("the venue's quotes and trades are served on REST and the stream", async () => {
    await using ws = await connect(`${server.base.replace('http', 'ws')}/?apiKey=${server.key}`);
    ws.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'] });
    await ws.next((m) => m.type === 'subscribed');
    venue.sendQuote('BTCUSDT');
    const streamed = await ws.next((m) => m.type === 'quote' && m.symbol === 'BTCUSD');
    expect(streamed.bid).toBeCloseTo(25.35, 1);
    const quote = await server.json('/crypto/quote/BTCUSD');
    expect(quote.status).toBe(200);
    expect([quote.body.bid, quote.body.ask]).toEqual([streamed.bid, streamed.ask]);
    venue.sendTrade('BTCUSDT');
    await until(async () => (await server.json('/crypto/trade/last/BTCUSD')).status === 200, 'the trade to be served');
  });

  test('/health lists the feed live with its instruments', async () => {
    await until(async () => (await feedReport())?.state === 'live', 'the feed to be live');
    expect(await feedReport()).toMatchObject({ id: 'binance', state: 'live', instruments: 2, parse_errors: 0 });
  });

  test('a malformed frame is counted and the connection goes on', async () => {
    venue.sendMalformed();
    await until(async () => (await feedReport())!.parse_errors === 1, 'the parse error to be counted');
    expect(await tradeFlows()).toBe(true);
    expect(venue.openConnections).toBe(1);
    await until(async () => server.logs.some((l) => l.includes('cannot parse a frame')), 'the parse error to be logged');
    expect(server.logs.filter((l) => l.includes('cannot parse a frame')).length).toBe(1);
  });

  test('a trade numbered past the next one counts a sequence gap in /health, and trades go on', async () => {
    const before = (await feedReport())!.sequence_gaps;
    venue.sendTradeAfterGap('BTCUSDT', 3);
    await until(async () => (await feedReport())!.sequence_gaps === before + 1, 'the gap in /health');
    expect(await tradeFlows()).toBe(true);
  });

  test('/health counts the ticks the feed produced, none conflated or dropped at this pace', async () => {
    const report = (await feedReport())!;
    expect(report.ticks).toBeGreaterThan(0);
    expect([report.conflated_quotes, report.dropped_ticks]).toEqual([0, 0]);
  });

  test('a dropped connection is reconnected and resubscribed; /health counts the reconnect', async () => {
    const connectionsBefore = venue.connections.length;
    venue.drop();
    await until(async () => venue.connections.length > connectionsBefore && venue.connections.at(-1)!.received.length > 0, 'the feed to reconnect and subscribe again');
    await until(async () => (await feedReport())!.reconnects >= 1 && (await feedReport())!.state === 'live', 'the reconnect in /health');
    expect(await tradeFlows()).toBe(true);
  });
});

describe('a keyed upstream whose key is refused', () => {
  test('the feed is failed with the vendor reason, logged, and the server keeps serving', async () => {
    await using refusing = new LocalVenue(framesFromFixtures('massive'), { auth: 'refuse' });
    using dir = tempDir();
    const feedsFile = join(dir.path, 'massive.json');
    writeFileSync(feedsFile, JSON.stringify({ feeds: { massive: { url: refusing.url, instruments: ['US:AAPL'] } } }));
    process.env.MASSIVE_API_KEY = 'not-a-real-key';
    await using _unset = { [Symbol.asyncDispose]: async () => void delete process.env.MASSIVE_API_KEY };
    await using keyed = await startServer({ args: ['--feed', 'massive', '--feeds', feedsFile, '--clock-start', String(Date.now())] });
    const report = async () => ((await keyed.json('/health')).body.feeds as (FeedReport & { reason: string | null })[]).find((f) => f.id === 'massive');
    await until(async () => (await report())?.state === 'failed', 'the feed to fail');
    expect((await report())!.reason).toContain('authentication failed');
    await until(async () => keyed.logs.some((l) => l.includes('massive') && l.includes('authentication failed')), 'the failure to be logged');
    expect(keyed.logs.join('\n')).not.toContain('not-a-real-key');
    expect(refusing.connections.length).toBe(1);
    expect((await keyed.json('/crypto/symbols')).status).toBe(200);
  });
});
