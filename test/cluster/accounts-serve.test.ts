// Accounts across `mds serve --role ingest` and `--role edge` (real servers in this process, real
// HTTP and WebSocket, a real nats-server, the real `mds keys` on the ingest node's data dir): a key
// made on the ingest node serves on the edge, calls on both count toward one quota, a revocation
// closes the key's open stream connection on the edge with 4001, and a clean stop gives back.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { blockSize } from '../../src/cluster/quota-leases.ts';
import { createKeyOn, runMds, until } from '../support/cli.ts';
import { ensureNatsServer, startNats, type TestNats } from '../support/nats.ts';
import { startServer } from '../support/server.ts';
import { connect } from '../support/ws-client.ts';

let nats: TestNats;
beforeAll(async () => {
  ensureNatsServer();
  nats = await startNats();
}, 600_000);
afterAll(() => nats?.[Symbol.asyncDispose]());

describe('mds serve --role ingest and --role edge', () => {
  test('a key made on the ingest node serves on the edge, counts once across both, and its revocation closes its edge stream with 4001', async () => {
    await using ingest = await startServer({ args: ['--role', 'ingest', '--nats', nats.url] });
    const edge = await startServer({ args: ['--role', 'edge', '--nats', nats.url] });
    try {
      const { id, key } = await createKeyOn(ingest, '--plan', 'free');
      await until(async () => (await edge.get('/crypto/symbols', { key })).status === 200, 'the key on the edge');
      // Each node leased one block for its calls: the edge counts the ingest node's block as used.
      const block = blockSize(3000, 0);
      const onEdge = await edge.get('/account', { key });
      expect(((await onEdge.json()) as { quota: { used: number } }).quota.used).toBe(block + 2);
      // The development key is each node's own (the same --dev-key here), never leased.
      expect((await edge.get('/account')).status).toBe(200);
      expect((await ingest.get('/account')).status).toBe(200);

      await using c = await connect(`${edge.base.replace('http', 'ws')}/?apiKey=${key}`);
      await c.next((m) => m.type === 'ready');
      expect((await runMds('keys', 'revoke', id, '--data-dir', ingest.dataDir)).code).toBe(0);
      expect(await c.closed).toEqual({ code: 4001, reason: 'API key revoked' });
      const refused = await edge.get('/crypto/symbols', { key });
      expect(refused.status).toBe(401);
      expect(((await refused.json()) as { error: string }).error).toBe('API key revoked');
    } finally {
      await edge[Symbol.asyncDispose]();
    }
    // The edge held the rest of its block, given back on its clean stop.
    expect(edge.logs).toContain(`quota leases: gave back ${blockSize(3000, 0) - 2} unused calls of 1 key windows`);
  }, 120_000);
});
