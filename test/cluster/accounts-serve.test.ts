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

// These tests are about keys and quotas, not history: an edge serves at once instead of waiting for
// a snapshot (an ingest node with --feed none publishes nothing, so it never takes one).
const EDGE_ARGS = () => ['--role', 'edge', '--nats', nats.url, '--edge-bootstrap-timeout', '0'];

describe('mds serve --role ingest and --role edge', () => {
  test('a key made on the ingest node serves on the edge, counts once across both, and its revocation closes its edge stream with 4001', async () => {
    await using ingest = await startServer({ args: ['--role', 'ingest', '--nats', nats.url] });
    const edge = await startServer({ args: EDGE_ARGS() });
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

  test('3,500 calls of one free key spread over two edges: at most 3,000 answered 200, the rest 429', async () => {
    await using ingest = await startServer({ args: ['--role', 'ingest', '--nats', nats.url, '--feed', 'none'] });
    await using a = await startServer({ args: EDGE_ARGS() });
    await using b = await startServer({ args: EDGE_ARGS() });
    // Every answer with a 200 counts, the ones that waited for the key to arrive included.
    let answered = 0;
    const call = async (node: typeof a, key: string) => {
      const res = await node.get('/crypto/quote/BTCUSD', { key });
      await res.arrayBuffer();
      if (res.status === 200 || res.status === 404) answered++;
      return res.status;
    };
    const { key } = await createKeyOn(ingest, '--plan', 'free');
    answered++; // createKeyOn's own call on the ingest node
    for (const edge of [a, b]) await until(async () => [200, 404].includes(await call(edge, key)), 'the key on the edge');
    const statuses = new Map<number, number>();
    for (let i = 0; i < 3500; i += 50) {
      const batch = await Promise.all(Array.from({ length: 50 }, (_, j) => call((i + j) % 2 === 0 ? a : b, key)));
      for (const st of batch) statuses.set(st, (statuses.get(st) ?? 0) + 1);
    }
    // A counted call is a 200, or a 404 `no quote available` on an edge that has no data (this
    // file's nats-server may hold the first test's snapshot, which a new edge starts from).
    expect([...statuses.keys()].filter((st) => ![200, 404].includes(st))).toEqual([429]);
    expect(answered).toBeLessThanOrEqual(3000);
    // The nodes still hold at most their blocks (the ingest node's included) when the calls stop.
    expect(answered).toBeGreaterThanOrEqual(3000 - 3 * blockSize(3000, 0));
  }, 120_000);
});
