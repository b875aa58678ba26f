// Quotas across cluster nodes against a real nats-server: two nodes in one process (each its own
// store, Authenticator and app, requests through the real gate) lease one key's calls from the
// shared counters. Never more than the limit in total, close to it, a clean stop gives back, a
// crash costs at most what the node held, and a NATS outage ends in 503 once the node's calls are
// used up, then recovers. Time moves only on the manual clock.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { Kvm } from '@nats-io/kv';
import { jetstream } from '@nats-io/jetstream';
import type { NatsConnection } from '@nats-io/transport-node';
import { ManualClock } from '../../src/clock.ts';
import { connectNats, MINUTES_BUCKET, QUOTA_BUCKET } from '../../src/cluster/nats.ts';
import { BLOCK_SHARES, blockSize, TAIL_SHARES } from '../../src/cluster/quota-leases.ts';
import { BUILT_IN_PLANS, type Plan } from '../../src/domain/plans.ts';
import { DAY_MS, HOUR_MS, MINUTE_MS } from '../../src/domain/timeframes.ts';
import { until } from '../support/cli.ts';
import { DEV_KEY, natsSettings, shareKey, startNode, type TestNode } from '../support/cluster-accounts-node.ts';
import { ensureNatsServer, startNats, type TestNats } from '../support/nats.ts';

/** Wednesday 2026-03-04 15:30:00 UTC, on a minute boundary. */
const NOW = Date.UTC(2026, 2, 4) + 15 * HOUR_MS + 30 * MINUTE_MS;
/** 320 calls a day: blocks of 10, small enough to count every call of a test. */
const SMALL: Plan = { name: 'small', description: '320 calls a day', classes: ['crypto'], quota: 320, quota_window_days: 1, per_minute: null, stream_connections: 1, stream_subscriptions: 5, addons: [] };
const PLANS = [...BUILT_IN_PLANS, SMALL];

let nats: TestNats;
let probe: NatsConnection;
beforeAll(async () => {
  ensureNatsServer();
  nats = await startNats();
  probe = await connectNats(natsSettings(nats.url), 'probe');
}, 600_000);
afterAll(async () => {
  await probe?.close();
  await nats?.[Symbol.asyncDispose]();
});

/** The shared counter of a key's window as NATS holds it (calls leased to every node so far). */
async function leasedInNats(bucket: string, name: string): Promise<number> {
  const kv = await new Kvm(jetstream(probe)).open(bucket);
  const entry = await kv.get(name);
  return entry === null ? 0 : Number(entry.string());
}

/** Statuses of `calls` requests, sent to the nodes in turn, `wave` at a time (concurrently within a wave). */
async function spread(nodes: readonly TestNode[], key: string, calls: number, wave = 100): Promise<number[]> {
  const statuses: number[] = [];
  for (let sent = 0; sent < calls; sent += wave) {
    const n = Math.min(wave, calls - sent);
    const batch = await Promise.all(Array.from({ length: n }, (_, i) => nodes[(sent + i) % nodes.length]!.get('/account', key)));
    statuses.push(...batch.map((r) => r.status));
  }
  return statuses;
}

const count = (statuses: readonly number[], status: number) => statuses.filter((s) => s === status).length;

describe('block sizes', () => {
  test('a block is 1/32 of the limit, then 1/8 of what is left, at least 1, and 0 once used up', () => {
    expect(BLOCK_SHARES).toBe(32);
    expect(TAIL_SHARES).toBe(8);
    expect([0, 2000, 2400, 2900, 2992, 2999, 3000, 3100].map((leased) => blockSize(3000, leased))).toEqual([94, 94, 75, 12, 1, 1, 0, 0]);
    expect(blockSize(300, 0)).toBe(10);
    expect(blockSize(1, 0)).toBe(1);
  });
});

describe('quota across two nodes', () => {
  test('3,500 calls of one free key (3,000 per 30 days) spread over two nodes: at most 3,000 answered 200, the rest 429', async () => {
    const clock = new ManualClock(NOW);
    await using a = await startNode(nats.url, 'edge-a', { clock, plans: PLANS });
    await using b = await startNode(nats.url, 'edge-b', { clock, plans: PLANS });
    const { record, secret } = shareKey([a, b], 'free', NOW);
    const statuses = await spread([a, b], secret, 3500);
    const ok = count(statuses, 200);
    expect(ok + count(statuses, 429)).toBe(3500);
    expect(ok).toBeLessThanOrEqual(3000);
    // Short of 3,000 only by what a node still held when the calls sent to it ran out: at most a block each.
    expect(ok).toBeGreaterThanOrEqual(3000 - 2 * blockSize(3000, 0));
    expect(await leasedInNats(QUOTA_BUCKET, `q.${record.id}.${NOW}`)).toBe(3000);
    expect(ok + a.leases!.heldCalls() + b.leases!.heldCalls()).toBe(3000);
  }, 60_000);

  test('the starter plan (300 a minute) over two nodes never passes 300 in a minute; the next minute starts afresh', async () => {
    const clock = new ManualClock(NOW);
    await using a = await startNode(nats.url, 'edge-a', { clock, plans: PLANS });
    await using b = await startNode(nats.url, 'edge-b', { clock, plans: PLANS });
    const { record, secret } = shareKey([a, b], 'starter', NOW);
    for (let minute = 0; minute < 2; minute++) {
      const statuses = await spread([a, b], secret, 400, 40);
      const ok = count(statuses, 200);
      expect(ok).toBeLessThanOrEqual(300);
      expect(ok).toBeGreaterThanOrEqual(300 - 2 * blockSize(300, 0));
      expect(count(statuses, 429)).toBe(400 - ok);
      expect(await leasedInNats(MINUTES_BUCKET, `m.${record.id}.${clock.nowMs()}`)).toBeLessThanOrEqual(300);
      // A 429 of the minute says when the minute ends.
      const refused = await a.get('/account', secret);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get('x-ratelimit-reset'))).toBe((clock.nowMs() + MINUTE_MS) / 1000);
      clock.advance(MINUTE_MS);
    }
  }, 60_000);

  test('/account on a node: used counts what every node leased (as last seen) less what this node still holds', async () => {
    const clock = new ManualClock(NOW);
    await using a = await startNode(nats.url, 'edge-a', { clock, plans: PLANS });
    await using b = await startNode(nats.url, 'edge-b', { clock, plans: PLANS });
    const { secret } = shareKey([a, b], 'small', NOW);
    const onA = await a.get('/account', secret);
    expect(onA.body.quota).toMatchObject({ limit: 320, used: 1, remaining: 319 });
    expect(onA.headers.get('x-ratelimit-remaining')).toBe('319');
    // B leases after A: A's block (10, 1 served) counts as used on B until A gives it back.
    const onB = await b.get('/account', secret);
    expect(onB.body.quota).toMatchObject({ limit: 320, used: 11, remaining: 309 });
  }, 30_000);

  test('a node stopped cleanly gives back what it held, and the other node serves it', async () => {
    const clock = new ManualClock(NOW);
    const a = await startNode(nats.url, 'edge-a', { clock, plans: PLANS });
    await using b = await startNode(nats.url, 'edge-b', { clock, plans: PLANS });
    const { record, secret } = shareKey([a, b], 'small', NOW);
    expect((await a.get('/account', secret)).status).toBe(200);
    const heldByA = a.leases!.heldCalls();
    expect(heldByA).toBe(blockSize(320, 0) - 1);
    let onB = 0;
    while ((await b.get('/account', secret)).status === 200) onB++;
    expect(onB).toBe(320 - blockSize(320, 0));
    await a.stop();
    expect(a.logs).toContain(`quota leases: gave back ${heldByA} unused calls of 1 key windows`);
    expect(await leasedInNats(QUOTA_BUCKET, `q.${record.id}.${NOW}`)).toBe(320 - heldByA);
    // B finds them when it looks at the used-up counter again (at most once a second).
    clock.advance(1000);
    await until(async () => (await b.get('/account', secret)).status === 200, 'the calls given back to reach B');
    let more = 1;
    while ((await b.get('/account', secret)).status === 200) more++;
    expect(more).toBe(heldByA);
    expect(1 + onB + more).toBe(320);
  }, 30_000);

  test('a node that crashes costs the key at most the block it held, never an over-serve', async () => {
    const clock = new ManualClock(NOW);
    const a = await startNode(nats.url, 'edge-a', { clock, plans: PLANS });
    await using b = await startNode(nats.url, 'edge-b', { clock, plans: PLANS });
    const { secret } = shareKey([a, b], 'small', NOW);
    expect((await a.get('/account', secret)).status).toBe(200);
    const lost = a.leases!.heldCalls();
    await a.crash();
    let onB = 0;
    while ((await b.get('/account', secret)).status === 200) onB++;
    expect(1 + onB).toBe(320 - lost);
    expect(lost).toBeLessThanOrEqual(blockSize(320, 0));
    clock.advance(DAY_MS);
    // The next window is whole again.
    expect((await b.get('/account', secret)).status).toBe(200);
  }, 30_000);
});

describe('NATS outage', () => {
  test('a node serves from what it holds, then answers 503 "quota service unavailable"; after NATS is back it leases again', async () => {
    await using own = await startNats();
    const clock = new ManualClock(NOW);
    await using a = await startNode(own.url, 'edge-a', { clock, plans: PLANS });
    const { secret } = shareKey([a], 'small', NOW);
    const { secret: untouched } = shareKey([a], 'small', NOW);
    expect((await a.get('/account', secret)).status).toBe(200);
    const held = a.leases!.heldCalls();
    await own.stop();
    let served = 0;
    for (;;) {
      const res = await a.get('/account', secret);
      if (res.status !== 200) {
        expect(res.status).toBe(503);
        expect(res.body.error).toBe('quota service unavailable');
        expect(res.headers.get('retry-after')).toBe('1');
        break;
      }
      served++;
    }
    expect(served).toBe(held);
    // A key this node holds nothing of cannot be served either; the development key is counted on
    // each node and never leased, so it goes on working.
    expect((await a.get('/account', untouched)).status).toBe(503);
    expect((await a.get('/account', DEV_KEY)).status).toBe(200);
    await own.start();
    await until(async () => (await a.get('/account', secret)).status === 200, 'leases after NATS is back', 20_000);
    expect((await a.get('/account', untouched)).status).toBe(200);
  }, 60_000);
});
