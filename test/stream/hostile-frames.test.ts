// The largest subscribe frames the protocol admits (1,000 channels × 1,000 symbols, names repeated)
// are refused frame by frame, each with its error, and another client on a real server in its own
// process is served between them. What they cost that client's latency is measured in
// bench/reconnect-flood.ts (timing is never asserted in a test).
import { describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HOSTILE_FRAME, hostileSymbols } from '../support/hostile-frame.ts';
import { createKeyOn } from '../support/cli.ts';
import { spawnServer, TEST_KEY } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';

const FRAMES = 40;

describe('hostile subscribe frames', () => {
  test("1,000 × 1,000-pair frames are refused one by one (unread for a free key, before any lookup for a starter key), and another client's REST and quotes go on between them", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mds-hostile-'));
    try {
      await using server = await spawnServer(dataDir, ['--sim-rate', '2', '--history-days', '1']);
      const { key: freeKey } = await createKeyOn({ dataDir, get: server.get }, '--plan', 'free');
      const { key: starterKey } = await createKeyOn({ dataDir, get: server.get }, '--plan', 'starter');
      expect(HOSTILE_FRAME.length).toBeGreaterThan(20_000);
      expect(HOSTILE_FRAME.length).toBeLessThan(64 * 1024);

      const wsBase = server.base.replace('http', 'ws');
      await using victim = await connect(`${wsBase}/?apiKey=${TEST_KEY}`);
      victim.send({ action: 'subscribe', channels: ['crypto.quotes'], symbols: ['*'] });
      await victim.next((m) => m.type === 'subscribed');
      await using free = await connect(`${wsBase}/?apiKey=${freeKey}`);
      await using starter = await connect(`${wsBase}/?apiKey=${starterKey}`);
      await free.next((m) => m.type === 'ready');
      await starter.next((m) => m.type === 'ready');

      // A hostile frame from each, then one REST call of the other client, which must be answered in between.
      const statuses: number[] = [];
      for (let i = 0; i < FRAMES; i++) {
        free.send(HOSTILE_FRAME);
        starter.send(HOSTILE_FRAME);
        const res = await server.get('/crypto/quote/BTCUSD');
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      expect(statuses).toEqual(Array(FRAMES).fill(200));

      const freeErrors = await Promise.all(Array.from({ length: FRAMES }, () => free.next((m) => m.type === 'error')));
      expect(new Set(freeErrors.map((e) => JSON.stringify(e)))).toEqual(
        new Set([JSON.stringify({ type: 'error', code: 'bad_frame', message: `frame of ${HOSTILE_FRAME.length} characters refused unread: at most 7424 for this key (its limit of 50 channel × symbol pairs)` })]),
      );
      const distinct = new Set(hostileSymbols()).size;
      const starterErrors = await Promise.all(Array.from({ length: FRAMES }, () => starter.next((m) => m.type === 'error')));
      expect(new Set(starterErrors.map((e) => JSON.stringify(e)))).toEqual(
        new Set([JSON.stringify({ type: 'error', code: 'too_many_subscriptions', message: `too many pairs in one frame: 1 × ${distinct} = ${distinct} channel × symbol pairs (after removing repeats); at most 500 per frame, the subscription limit` })]),
      );
      // Nothing else came back, both stay connected, and the other client's quotes still arrive.
      expect([free.messages, starter.messages]).toEqual([[], []]);
      expect([free.ws.readyState, starter.ws.readyState]).toEqual([WebSocket.OPEN, WebSocket.OPEN]);
      victim.messages.length = 0;
      expect((await victim.next((m) => m.type === 'quote')).channel).toBe('crypto.quotes');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
