// Slow consumers on the real server: a client that subscribes to everything and then never reads
// is closed with 4008 and the README's reason, which it finds after the data it left unread, also
// when it comes back long after.
import { describe, expect, test } from 'bun:test';
import { startServer } from '../support/server.ts';
import { closeOf, OPCODE, rawConnect } from '../support/raw-ws.ts';
import { until } from '../support/cli.ts';

const EVERY_CHANNEL = ['crypto', 'forex', 'stocks', 'indices', 'etfs', 'commodities'].flatMap((c) => [`${c}.quotes`, `${c}.trades`]);

describe('slow consumers', () => {
  test('a client that never reads is closed with 4008 "slow consumer: ..."; the close frame follows the data it left unread', async () => {
    await using server = await startServer({ args: ['--sim-rate', '100', '--slow-consumer-bytes', '65536'] });
    await using raw = await rawConnect(server.port, `/?apiKey=${server.key}`, (f) => f.opcode !== OPCODE.text || f.payload.includes('"type":"subscribed"'));
    for (const channel of EVERY_CHANNEL) raw.sendText(JSON.stringify({ action: 'subscribe', channels: [channel], symbols: ['*'] }));
    for (let i = 0; i < EVERY_CHANNEL.length; i++) await raw.next((f) => f.opcode === OPCODE.text);
    raw.socket.pause();
    await until(async () => server.logs.some((l) => l.includes('as a slow consumer')), 'the server to close the slow consumer', 30_000);
    raw.socket.resume();
    const close = await raw.next((f) => f.opcode === OPCODE.close, 30_000);
    expect(closeOf(close)).toEqual({ code: 4008, reason: 'slow consumer: more than 65536 bytes unsent' });
    await raw.ended;
  }, 60_000);

  // Real time is what this is about: the runtime drops a closing connection's unsent bytes within
  // seconds (a close sent at once was lost to a client away 20 s), so the client stays away 25 s.
  test('a slow consumer that stays away 25 s still gets its unread data, then the 4008 close frame', async () => {
    await using server = await startServer({ args: ['--sim-rate', '20', '--slow-consumer-bytes', '65536'] });
    await using raw = await rawConnect(server.port, `/?apiKey=${server.key}`, (f) => f.opcode !== OPCODE.text || f.payload.includes('"type":"subscribed"'));
    for (const channel of EVERY_CHANNEL) raw.sendText(JSON.stringify({ action: 'subscribe', channels: [channel], symbols: ['*'] }));
    for (let i = 0; i < EVERY_CHANNEL.length; i++) await raw.next((f) => f.opcode === OPCODE.text);
    raw.socket.pause();
    await until(async () => server.logs.some((l) => l.includes('as a slow consumer')), 'the server to find the slow consumer', 30_000);
    await Bun.sleep(25_000);
    raw.socket.resume();
    const close = await raw.next((f) => f.opcode === OPCODE.close, 10_000);
    expect(closeOf(close)).toEqual({ code: 4008, reason: 'slow consumer: more than 65536 bytes unsent' });
    await raw.ended;
  }, 90_000);
});
