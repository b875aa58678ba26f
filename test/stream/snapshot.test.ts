// Snapshot on subscribe: `"snapshot": true` sends each named pair's latest tick first, marked
// `snapshot: true` and carrying its seq, so a client starts with a value without asking REST; live
// messages then continue after that seq.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { startServer, type TestServer } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';

let server: TestServer;
let url: string;
beforeAll(async () => {
  server = await startServer();
  url = `${server.base.replace('http', 'ws')}/?apiKey=${server.key}`;
});
afterAll(() => server.stop());

const isType = (type: string) => (m: any) => m.type === type;

describe('snapshot on subscribe', () => {
  test('the latest quote and trade come first, marked, with their seqs; the ack counts them; live messages follow on', async () => {
    await using c = await connect(url);
    await c.next(isType('ready'));
    c.send({ action: 'subscribe', channels: ['crypto.quotes', 'crypto.trades'], symbols: ['btcusd'], snapshot: true, id: 7 });
    const ack = await c.next(isType('subscribed'));
    expect(ack).toMatchObject({ id: 7, snapshots: 2 });
    // Sent before the ack: both are already queued, in front of any live message.
    const [quote, trade] = [c.messages.find((m) => m.type === 'quote'), c.messages.find((m) => m.type === 'trade')];
    expect(quote).toMatchObject({ type: 'quote', channel: 'crypto.quotes', asset: 'crypto', symbol: 'BTCUSD', snapshot: true });
    expect(trade).toMatchObject({ type: 'trade', channel: 'crypto.trades', asset: 'crypto', symbol: 'BTCUSD', snapshot: true });
    expect(quote.ts).toBe(quote.timestamp);
    c.messages.splice(c.messages.indexOf(quote), 1);
    const live = await c.next((m) => m.type === 'quote');
    expect(live.snapshot).toBeUndefined();
    expect(live.seq).toBe(quote.seq + 1);
  });

  test('without snapshot nothing comes before live messages; a non-boolean snapshot is a bad frame', async () => {
    await using c = await connect(url);
    await c.next(isType('ready'));
    c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['ETHUSD'] });
    const ack = await c.next(isType('subscribed'));
    expect(ack.snapshots).toBeUndefined();
    expect((await c.next(isType('quote'))).snapshot).toBeUndefined();
    c.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['BTCUSD'], snapshot: 'yes' });
    expect(await c.next(isType('error'))).toMatchObject({ code: 'bad_frame', message: '"snapshot" must be true or false' });
  });
});
