// The frame schemas as a contract over a real server, in both formats: every documented client frame
// form is sent (each fits the client schema), and every server frame type the session can meet
// arrives and fits its schema (the test client checks each frame; this test checks they all came).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { clientFrameMismatches, serverFrameMismatches } from '../support/frame-contract.ts';
import { startServer, type TestServer } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ args: ['--heartbeat-ms', '200'] });
});
afterAll(() => server.stop());

/** A frame's kind: its type plus the markers that make it a variant worth seeing. */
function kindOf(frame: Record<string, unknown>): string {
  const marks = [frame.snapshot === true && 'snapshot', frame.source_count !== undefined && 'composite', frame.replay !== undefined && 'replay', frame.snapshots !== undefined && 'snapshots'].filter(Boolean);
  return [frame.type, ...marks].join('+');
}

describe.each(['json', 'msgpack'] as const)('%s frames', (format) => {
  test('each client frame form is answered, and every server frame type arrives and fits its schema', async () => {
    await using c = await connect(`${server.base.replace('http', 'ws')}/?apiKey=${server.key}${format === 'msgpack' ? '&format=msgpack' : ''}`);
    const seen: Record<string, unknown>[] = [];
    const take = async (match: (m: any) => boolean) => {
      const m = await c.next(match);
      seen.push(m);
      return m;
    };
    const send = (frame: Record<string, unknown>) => {
      expect(clientFrameMismatches(frame)).toEqual([]);
      c.send(frame);
    };
    const answer = (id: string | number) => take((m) => m.id === id && (m.type === 'subscribed' || m.type === 'unsubscribed' || m.type === 'error'));

    await take((m) => m.type === 'ready');
    // Snapshot: the latest quote and trade, marked, before the ack; their seqs feed the since forms below.
    send({ action: 'subscribe', channels: ['crypto.quotes', 'crypto.trades'], symbols: ['btcusd'], snapshot: true, id: 1 });
    expect(await answer(1)).toMatchObject({ type: 'subscribed', snapshots: 2 });
    const q = await take((m) => m.type === 'quote' && m.snapshot === true);
    const t = await take((m) => m.type === 'trade' && m.snapshot === true);
    send({ action: 'unsubscribe', channels: ['crypto.quotes', 'crypto.trades'], symbols: ['BTCUSD'], id: 'u1' });
    expect(await answer('u1')).toEqual({ type: 'unsubscribed', id: 'u1', subscriptions: [], ...(format === 'msgpack' && { __binary: true }) });

    // The three since forms: one seq, per symbol, per channel and symbol.
    const sinceForms: [string, Record<string, unknown>, number][] = [
      ['one seq', { channels: ['crypto.quotes'], since: q.seq - 1 }, 1],
      ['per symbol', { channels: ['crypto.trades'], since: { BTCUSD: t.seq - 1 } }, 1],
      ['per channel', { channels: ['crypto.quotes', 'crypto.trades'], since: { 'crypto.quotes': { BTCUSD: q.seq - 1 }, 'crypto.trades': { BTCUSD: t.seq - 1 } } }, 2],
    ];
    for (const [label, form, reports] of sinceForms) {
      const id = `since ${label}`;
      send({ action: 'subscribe', symbols: ['BTCUSD'], ...form, id });
      const ack = await answer(id);
      expect({ label, type: ack.type, reports: ack.replay?.length }).toEqual({ label, type: 'subscribed', reports });
      send({ action: 'unsubscribe', channels: form.channels as string[], symbols: ['BTCUSD'], id: `${id} end` });
      await answer(`${id} end`);
    }

    // A whole channel, and a perpetual futures composite (source_count).
    send({ action: 'subscribe', channels: ['forex.quotes'], symbols: ['*'], id: 2 });
    await answer(2);
    await take((m) => m.type === 'quote' && m.channel === 'forex.quotes');
    send({ action: 'subscribe', channels: ['perpetuals.quotes'], symbols: ['BTCUSDT'], id: 3 });
    await answer(3);
    await take((m) => m.type === 'quote' && m.source_count !== undefined);

    // Refused frames: the error frame names the code (and echoes the id when the frame had one).
    c.send('not json');
    expect(await take((m) => m.type === 'error' && m.code === 'bad_json')).toMatchObject({ message: 'frame is not valid JSON' });
    send({ action: 'subscribe', channels: ['crypto.bars'], symbols: ['BTCUSD'], id: 4 });
    expect(await answer(4)).toMatchObject({ type: 'error', code: 'unknown_channel' });
    await take((m) => m.type === 'heartbeat');

    const frames = [...seen, ...c.messages];
    expect(frames.flatMap((m) => serverFrameMismatches(Object.fromEntries(Object.entries(m).filter(([k]) => k !== '__binary'))))).toEqual([]);
    if (format === 'msgpack') expect(frames.filter((m) => m.__binary !== true)).toEqual([]);
    const kinds = new Set(frames.map(kindOf));
    expect(['ready', 'subscribed+snapshots', 'subscribed+replay', 'subscribed', 'unsubscribed', 'quote+snapshot', 'trade+snapshot', 'quote', 'trade', 'quote+composite', 'heartbeat', 'error'].filter((k) => !kinds.has(k))).toEqual([]);
  });
});
