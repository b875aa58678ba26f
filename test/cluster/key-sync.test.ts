// Keys and plans across cluster nodes against a real nats-server: an ingest node and an edge in
// one process (each its own store, Authenticator and app), keys managed with the real `mds keys`
// CLI on the ingest node's data dir. What the ingest node makes or revokes works or stops on the
// edge; the edge takes the ingest node's plans table; keys changed on the edge's own data dir are
// put back as the ingest node has them.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Kvm } from '@nats-io/kv';
import { jetstream } from '@nats-io/jetstream';
import { ManualClock } from '../../src/clock.ts';
import { connectNats, KEYS_BUCKET } from '../../src/cluster/nats.ts';
import { BUILT_IN_PLANS, type Plan } from '../../src/domain/plans.ts';
import { HOUR_MS, MINUTE_MS } from '../../src/domain/timeframes.ts';
import { runMds, until } from '../support/cli.ts';
import { natsSettings, startNode, type TestNode } from '../support/cluster-accounts-node.ts';
import { ensureNatsServer, startNats, type TestNats } from '../support/nats.ts';

const NOW = Date.UTC(2026, 2, 4) + 15 * HOUR_MS + 30 * MINUTE_MS;
/** A plan only the ingest node's table has. */
const SMALL: Plan = { name: 'small', description: '320 calls a day', classes: ['crypto'], quota: 320, quota_window_days: 1, per_minute: null, stream_connections: 1, stream_subscriptions: 5, addons: [] };

let nats: TestNats;
beforeAll(async () => {
  ensureNatsServer();
  nats = await startNats();
}, 600_000);
afterAll(() => nats?.[Symbol.asyncDispose]());

/** `mds keys ARGS --json` on a node's data dir (another process, as an operator runs it). */
async function keys(node: TestNode, ...args: string[]): Promise<any> {
  const plansFile = join(node.dataDir, 'plans.json');
  writeFileSync(plansFile, JSON.stringify({ plans: [...BUILT_IN_PLANS, SMALL] }));
  const r = await runMds('keys', ...args, '--json', '--plans', plansFile, '--data-dir', node.dataDir);
  expect(r.code).toBe(0);
  return JSON.parse(r.out);
}

describe('keys from the ingest node', () => {
  test('a key made on the ingest node works on the edge; revoked there, it gets 401 "API key revoked" on the edge', async () => {
    const clock = new ManualClock(NOW);
    await using ingest = await startNode(nats.url, 'ingest', { clock, role: 'ingest', plans: [...BUILT_IN_PLANS, SMALL] });
    await using edge = await startNode(nats.url, 'edge', { clock, role: 'edge' });
    const made = await keys(ingest, 'create', '--plan', 'free', '--markets', 'US', '--name', 'acme');
    await until(async () => (await edge.get('/account', made.key)).status === 200, 'the new key on the edge');
    // The edge's store has the record without the operator's label, and never a secret.
    const stored = edge.store.accounts.get(made.id)!;
    expect(stored).toEqual({ ...ingest.store.accounts.get(made.id)!, name: '' });
    expect(JSON.stringify(stored)).not.toContain(made.key);
    expect(edge.logs).toContain(`keys: ${made.id} added (from the ingest node)`);
    await keys(ingest, 'revoke', made.id);
    await until(async () => (await edge.get('/account', made.key)).status === 401, 'the revocation on the edge');
    expect((await edge.get('/account', made.key)).body.error).toBe('API key revoked');
    expect(edge.logs).toContain(`keys: ${made.id} revoked (from the ingest node)`);
  }, 60_000);

  test("the edge takes the ingest node's plans table: a key on a plan only the ingest node offers works there", async () => {
    const clock = new ManualClock(NOW);
    await using ingest = await startNode(nats.url, 'ingest', { clock, role: 'ingest', plans: [...BUILT_IN_PLANS, SMALL] });
    await using edge = await startNode(nats.url, 'edge', { clock, role: 'edge', plans: BUILT_IN_PLANS });
    const made = await keys(ingest, 'create', '--plan', 'small');
    await until(async () => (await edge.get('/account', made.key)).status === 200, 'the small key on the edge');
    expect((await edge.get('/account', made.key)).body).toMatchObject({ plan: 'small', quota: { limit: 320 } });
  }, 60_000);

  test('an edge started later finds every key at start; keys only its own data dir had are removed', async () => {
    const clock = new ManualClock(NOW);
    await using ingest = await startNode(nats.url, 'ingest', { clock, role: 'ingest', plans: [...BUILT_IN_PLANS, SMALL] });
    const made = ingest.store.accounts.create({ name: 'early', plan: 'pro', markets: ['*'], addons: [] }, NOW);
    // Made in this process, the key reaches the publisher as a change picked up by the poll would.
    ingest.auth.keysChanged();
    let strayId = '';
    // The edge is started once the bucket has the key (the publication is asynchronous).
    const nc = await connectNats(natsSettings(nats.url), 'probe');
    const bucket = await new Kvm(jetstream(nc)).open(KEYS_BUCKET);
    await until(async () => (await bucket.get(`key.${made.record.id}`)) !== null, 'the key in the bucket');
    await nc.close();
    await using edge = await startNode(nats.url, 'edge', {
      clock,
      role: 'edge',
      before: (store) => void (strayId = store.accounts.create({ name: 'local', plan: 'free', markets: ['US'], addons: [] }, NOW).record.id),
    });
    // Right after start, no waiting: the keys of the bucket are in.
    expect(edge.store.accounts.get(made.record.id)).toEqual({ ...made.record, name: '' });
    expect((await edge.get('/account', made.secret)).status).toBe(200);
    expect(edge.store.accounts.get(strayId)).toBeUndefined();
  }, 60_000);

  test('a key deleted from the bucket (nats kv del) is removed from the edge', async () => {
    const clock = new ManualClock(NOW);
    await using ingest = await startNode(nats.url, 'ingest', { clock, role: 'ingest' });
    await using edge = await startNode(nats.url, 'edge', { clock, role: 'edge' });
    const made = await keys(ingest, 'create', '--plan', 'free');
    await until(async () => (await edge.get('/account', made.key)).status === 200, 'the key on the edge');
    const nc = await connectNats(natsSettings(nats.url), 'operator');
    await (await new Kvm(jetstream(nc)).open(KEYS_BUCKET)).delete(`key.${made.id}`);
    await nc.close();
    await until(async () => edge.store.accounts.get(made.id) === undefined, 'the key removed from the edge');
    expect((await edge.get('/account', made.key)).status).toBe(401);
    expect(edge.logs).toContain(`keys: ${made.id} removed (no longer in the key bucket)`);
  }, 60_000);

  test("`mds keys` on an edge's data dir is undone, with a warning: keys are managed on the ingest node", async () => {
    const clock = new ManualClock(NOW);
    await using ingest = await startNode(nats.url, 'ingest', { clock, role: 'ingest' });
    await using edge = await startNode(nats.url, 'edge', { clock, role: 'edge' });
    const made = await keys(ingest, 'create', '--plan', 'free');
    await until(async () => (await edge.get('/account', made.key)).status === 200, 'the key on the edge');
    // Revoked on the edge only: put back, the key keeps working there.
    await keys(edge, 'revoke', made.id);
    await until(async () => edge.logs.some((l) => l.includes(`${made.id} changed in this edge's data dir`)), 'the warning');
    expect(edge.store.accounts.get(made.id)!.revokedMs).toBeNull();
    expect((await edge.get('/account', made.key)).status).toBe(200);
    // Made on the edge only: removed.
    const local = await keys(edge, 'create', '--plan', 'free');
    await until(async () => edge.store.accounts.get(local.id) === undefined && edge.logs.some((l) => l.includes(`${local.id} changed in this edge's data dir`)), 'the local key removed');
    expect((await edge.get('/account', local.key)).status).toBe(401);
    expect(edge.logs.find((l) => l.includes(local.id))).toBe(`warning: keys: ${local.id} changed in this edge's data dir: put back as the ingest node has it (keys are managed on the ingest node)`);
  }, 60_000);

  test('a revocation made while NATS is down reaches the edge once NATS is back', async () => {
    await using own = await startNats();
    const clock = new ManualClock(NOW);
    await using ingest = await startNode(own.url, 'ingest', { clock, role: 'ingest' });
    await using edge = await startNode(own.url, 'edge', { clock, role: 'edge' });
    const made = await keys(ingest, 'create', '--plan', 'pro');
    await until(async () => (await edge.get('/account', made.key)).status === 200, 'the key on the edge');
    await own.stop();
    await keys(ingest, 'revoke', made.id);
    await until(async () => ingest.logs.some((l) => l.startsWith('warning: keys: cannot publish key changes to NATS')), 'the failed publication');
    // The edge still serves the key from the calls it holds: it has not heard of the revocation.
    expect((await edge.get('/account', made.key)).status).toBe(200);
    await own.start();
    await until(async () => (await edge.get('/account', made.key)).status === 401, 'the revocation on the edge', 30_000);
    // Logged once the whole publication is acknowledged, which may be after the edge saw the revocation.
    await until(async () => ingest.logs.includes('keys: publishing to NATS again'), 'the recovery in the log');
  }, 90_000);
});
