// Freshness over the real interface: a local venue speaking Binance's protocol feeds BTCUSD alone
// into a real server, then its connection dies. REST quote and snapshot carry `stale`, a stream
// subscriber gets a `status` frame on the loss and on the return, a subscriber who comes while
// the line is stale is told before the ack, and the Massive dialect says it with a status message.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { until } from '../support/cli.ts';
import { startBinanceVenueServer, type VenueServer } from '../support/binance-venue-server.ts';
import type { LocalVenue } from '../support/local-venue.ts';
import type { TestServer } from '../support/server.ts';
import { connectVendor } from '../support/vendor-ws.ts';
import { connect, type WsClient } from '../support/ws-client.ts';

let venue: LocalVenue;
let server: TestServer;

const wsUrl = () => `${server.base.replace('http', 'ws')}/?apiKey=${server.key}`;

async function subscribed(symbols: string[]): Promise<WsClient> {
  const ws = await connect(wsUrl());
  ws.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols });
  return ws;
}

let fed: VenueServer;

beforeAll(async () => {
  fed = await startBinanceVenueServer(['BTCUSD']);
  ({ venue, server } = fed);
});

afterAll(() => fed.dispose());

describe('a pair fed by one venue that dies', () => {
  test('REST, the stream and the Massive dialect say live, then stale, then live again', async () => {
    await using ws = await subscribed(['BTCUSD']);
    await ws.next((m) => m.type === 'subscribed');
    await using massive = await connectVendor(`${server.base.replace('http', 'ws')}/compat/massive/crypto`);
    massive.send({ action: 'auth', params: server.key });
    await massive.next((e) => e.status === 'auth_success');
    massive.send({ action: 'subscribe', params: 'XQ.BTC-USD' });
    await massive.next((e) => e.status === 'success');

    venue.sendQuote('BTCUSDT');
    await ws.next((m) => m.type === 'quote' && m.symbol === 'BTCUSD');
    const live = await ws.next((m) => m.type === 'status');
    expect(live).toMatchObject({ type: 'status', channel: 'crypto.quotes', asset: 'crypto', symbol: 'BTCUSD', status: 'live', sources: 1 });
    expect(await massive.next((e) => e.ev === 'status' && e.status === 'live')).toMatchObject({ message: expect.stringContaining('XQ.BTC-USD: live again') });
    const quote = await server.json('/crypto/quote/BTCUSD');
    expect(quote.body).toMatchObject({ symbol: 'BTCUSD', stale: false });
    expect(Object.keys(quote.body)).toEqual(['symbol', 'bid', 'ask', 'bid_size', 'ask_size', 'timestamp', 'stale']);
    expect((await server.json('/crypto/snapshot/BTCUSD')).body.stale).toBe(false);

    // The venue's connection dies: the feed marks its lines stale (and reconnects to a venue that says nothing).
    venue.drop();
    const stale = await ws.next((m) => m.type === 'status' && m.status === 'stale');
    expect(stale).toMatchObject({ channel: 'crypto.quotes', symbol: 'BTCUSD', sources: 0 });
    expect(stale.since).toBeGreaterThanOrEqual(live.since);
    expect(await massive.next((e) => e.ev === 'status' && e.status === 'stale')).toMatchObject({ message: expect.stringContaining('XQ.BTC-USD: stale: no live source since') });
    const staleQuote = await server.json('/crypto/quote/BTCUSD');
    // The last quote stands, marked.
    expect(staleQuote.body).toEqual({ ...quote.body, stale: true });
    const snapshot = await server.json('/crypto/snapshot/BTCUSD');
    expect(snapshot.status).toBe(200);
    expect(snapshot.body).toMatchObject({ symbol: 'BTCUSD', bid: quote.body.bid, ask: quote.body.ask, stale: true });

    // A subscriber who comes now is told before the ack, and trades subscribers are not.
    await using late = await connect(wsUrl());
    late.send({ action: 'subscribe', channels: ['crypto.quotes', 'crypto.trades'], symbols: ['BTCUSD'] });
    const told = await late.next((m) => m.type === 'status');
    expect(told).toEqual({ type: 'status', channel: 'crypto.quotes', asset: 'crypto', symbol: 'BTCUSD', status: 'stale', sources: 0, since: stale.since, snapshot: true });
    await late.next((m) => m.type === 'subscribed');
    expect(late.messages.filter((m) => m.type === 'status')).toEqual([]);
    // So is a subscriber to the whole channel.
    await using all = await subscribed(['*']);
    expect(await all.next((m) => m.type === 'status' && m.symbol === 'BTCUSD')).toMatchObject({ status: 'stale', snapshot: true });
    // And a Massive subscriber, after its subscribe's success message.
    await using lateMassive = await connectVendor(`${server.base.replace('http', 'ws')}/compat/massive/crypto`);
    lateMassive.send({ action: 'auth', params: server.key });
    await lateMassive.next((e) => e.status === 'auth_success');
    lateMassive.send({ action: 'subscribe', params: 'XQ.BTC-USD' });
    await lateMassive.next((e) => e.status === 'success');
    expect(await lateMassive.next((e) => e.ev === 'status' && e.status === 'stale')).toEqual({ ev: 'status', status: 'stale', message: `XQ.BTC-USD: stale: no live source since ${new Date(stale.since).toISOString()}; the last quote stands` });
    expect(lateMassive.frames.at(-1)).toEqual([{ ev: 'status', status: 'success', message: 'subscribed to: XQ.BTC-USD' }, { ev: 'status', status: 'stale', message: expect.any(String) }]);

    // The venue comes back: every subscriber hears it, and REST says so.
    await until(async () => venue.openConnections === 1, 'the feed to reconnect');
    venue.sendQuote('BTCUSDT');
    for (const client of [ws, late, all]) expect(await client.next((m) => m.type === 'status' && m.status === 'live')).toMatchObject({ symbol: 'BTCUSD', sources: 1 });
    expect(await massive.next((e) => e.ev === 'status' && e.status === 'live')).toBeDefined();
    expect((await server.json('/crypto/quote/BTCUSD')).body.stale).toBe(false);
    expect((await server.json('/crypto/snapshot/BTCUSD')).body.stale).toBe(false);
  });
});
