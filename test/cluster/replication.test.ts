// One ingest node and edges over a real nats-server, all real `mds serve` processes with their own
// data dirs: the same quote on the edges' streams within 50 ms of the ingest node's; the completed
// bars byte-identical; an edge killed with -9 mid-stream catches up with every seq once; a NATS
// outage is ridden out with no gap; a node starts while NATS is away. The tests run in order on
// one cluster, as an operator's day would.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runMds, until } from '../support/cli.ts';
import { ringOf, startNode, TickWatcher, type Node } from '../support/cluster-node.ts';
import { ensureNatsServer, freePort, startNats, type TestNats } from '../support/nats.ts';

/** A Wednesday, US session open; the 15:30 minute is sealed about 16 s after the start. */
const CLOCK_START = '2026-03-04T15:30:45Z';
const FIRST_MINUTE = Date.parse('2026-03-04T15:30:00Z');
const INGEST_ARGS = ['--feed', 'sim', '--sim-rate', '10', '--seed', '7', '--clock-start', CLOCK_START, '--history-days', '1', '--history-years', '0'];
/** One symbol per class, and the lines whose bars and rings are compared. */
const BAR_ROUTES = ['/crypto/agg/BTCUSD', '/forex/agg/EURUSD', '/stocks/agg/US:AAPL', '/indices/agg/US500', '/etfs/agg/US500ETF', '/commodities/agg/XAUUSD', '/perpetuals/agg/BTCUSDT'];
const RINGS: [string, string][] = [
  ['crypto.quotes', 'BTCUSD'],
  ['crypto.trades', 'ETHUSD'],
  ['forex.quotes', 'EURUSD'],
  ['stocks.trades', 'US:AAPL'],
];

const dirs: string[] = [];
const tempDataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'mds-cluster-'));
  dirs.push(dir);
  return dir;
};

let nats: TestNats;
let ingest: Node;
const edges: Node[] = [];
const METRICS_TOKEN = 'cluster-metrics-token-0123';
const edgeArgs = () => ['--role', 'edge', '--nats', nats.url, '--edge-max-lag-ms', '3000', '--metrics-token', METRICS_TOKEN];
const metricsOf = async (node: Node) => (await fetch(`${node.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();

// Installing nats-server (when missing, as root) may take minutes: its own hook, before the cluster's.
beforeAll(() => ensureNatsServer(), 600_000);

beforeAll(async () => {
  nats = await startNats();
  ingest = await startNode(tempDataDir(), ['--role', 'ingest', '--nats', nats.url, '--metrics-token', METRICS_TOKEN, ...INGEST_ARGS]);
  edges.push(await startNode(tempDataDir(), edgeArgs()), await startNode(tempDataDir(), edgeArgs()));
}, 120_000);

afterAll(async () => {
  for (const node of [...edges, ingest]) await node?.stop();
  await nats?.[Symbol.asyncDispose]();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Resolves once every edge has applied the stream as far as the ingest node has published it (sampled now). */
async function caughtUp(nodes: Node[], what: string): Promise<void> {
  let target = 0;
  await until(async () => {
    const c = (await ingest.health()).cluster;
    target = c.stream_seq;
    return c.nats === 'connected' && c.queued === 0 && target > 0;
  }, 'the ingest node to have published its queue', 20_000);
  await until(async () => (await Promise.all(nodes.map((n) => n.health()))).every((h) => h.cluster.stream_seq >= target), `${what} to reach stream sequence ${target}`, 20_000);
}

/** The rings of RINGS on `node` equal the ingest node's over what both hold: every seq once, the same frames. */
async function expectSameRings(node: Node): Promise<void> {
  for (const [channel, symbol] of RINGS) {
    // The edge first: the ingest node is ahead of it, so its ring then holds all the edge's.
    const ours = await ringOf(node, channel, symbol, 0);
    const theirs = await ringOf(ingest, channel, symbol, 0);
    const seqs = ours.map((f) => JSON.parse(f).seq as number);
    expect(seqs.length).toBeGreaterThan(10);
    // Every seq once, none missing, from the first the ring holds.
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    const from = theirs.findIndex((f) => JSON.parse(f).seq === seqs[0]);
    expect({ channel, symbol, frames: ours }).toEqual({ channel, symbol, frames: theirs.slice(from, from + ours.length) });
  }
}

describe('replication over NATS JetStream', () => {
  test('a quote reaches stream clients on two edges within 50 ms of the ingest node’s client, the same frame', async () => {
    await caughtUp(edges, 'the edges');
    const pairs = { 'crypto.quotes': ['BTCUSD', 'ETHUSD'], 'forex.quotes': ['EURUSD', 'USDJPY'], 'stocks.quotes': ['US:AAPL', 'US:MSFT'] };
    await using atIngest = new TickWatcher(ingest, pairs);
    await using atEdge1 = new TickWatcher(edges[0]!, pairs);
    await using atEdge2 = new TickWatcher(edges[1]!, pairs);
    await Promise.all([atIngest.open, atEdge1.open, atEdge2.open]);
    const common = () => [...atIngest.frames.keys()].filter((k) => atEdge1.frames.has(k) && atEdge2.frames.has(k));
    await until(async () => common().length >= 400, 'the same 400 quotes on all three nodes', 20_000);
    const delays: number[] = [];
    for (const key of common()) {
      const first = atIngest.frames.get(key)!;
      for (const edge of [atEdge1, atEdge2]) {
        const frame = edge.frames.get(key)!;
        expect(frame.text).toBe(first.text);
        delays.push(frame.atMs - first.atMs);
      }
    }
    delays.sort((a, b) => a - b);
    const at = (q: number) => Math.round(delays[Math.min(delays.length - 1, Math.floor(q * delays.length))]!);
    // The bound: each quote within 50 ms; a shared CI core may stall a process now and then,
    // so 99% of them, and the distribution is shown on failure.
    expect({ within50ms: delays.filter((d) => d <= 50).length / delays.length >= 0.99, p50: at(0.5), p99: at(0.99), max: at(1) }).toMatchObject({ within50ms: true });
  }, 60_000);

  test('every completed minute bar is byte-identical on the ingest node and the edges', async () => {
    // The 15:30 minute is the first the ingest node made live; the edges applied it from the stream.
    for (const node of [ingest, ...edges]) {
      await until(async () => (await node.json('/crypto/agg/BTCUSD/prev?interval=1m')).body.bar_start >= FIRST_MINUTE, `the 15:30 bar sealed on port ${node.port}`, 40_000);
    }
    const completed = async (node: Node, route: string) => {
      const res = await fetch(`${node.base}${route}/1/minute/2026-03-04/2026-03-04?sort=asc&limit=5000`, { headers: { 'x-api-key': 'test-key-0123456789' } });
      const body = (await res.json()) as { results: { t: number }[] };
      // The edges hold only what the stream carried (no history): from the first live minute, sealed ones.
      return JSON.stringify(body.results.filter((b) => b.t >= FIRST_MINUTE && b.t < FIRST_MINUTE + 60_000));
    };
    for (const route of BAR_ROUTES) {
      const theirs = await completed(ingest, route);
      expect(theirs).not.toBe('[]');
      for (const edge of edges) expect({ route, bars: await completed(edge, route) }).toEqual({ route, bars: theirs });
    }
    for (const edge of edges) expect((await edge.health()).cluster).toMatchObject({ bar_mismatches: 0, seq_gaps: 0, skipped_messages: 0 });
  }, 60_000);

  test('an edge killed with -9 mid-stream restarts on its data dir and catches up: every seq once', async () => {
    const victim = edges[1]!;
    await until(async () => (await victim.health()).cluster.stream_seq > 0, 'the edge to apply messages');
    await victim.kill9();
    const restarted = await startNode(victim.dataDir, edgeArgs());
    edges[1] = restarted;
    expect(restarted.output()).toMatch(/edge: resuming the stream MDS_TICKS after sequence [1-9]\d*/);
    await caughtUp([restarted], 'the restarted edge');
    await expectSameRings(restarted);
    expect((await restarted.health()).cluster).toMatchObject({ role: 'edge', nats: 'connected', seq_gaps: 0, bar_mismatches: 0, skipped_messages: 0 });
  }, 60_000);

  test('nats-server stopped and started mid-stream: the nodes reconnect and resume with no gap; an edge started meanwhile catches up', async () => {
    await nats.stop();
    await until(async () => {
      const c = (await ingest.health()).cluster;
      return c.nats !== 'connected' && c.queued > 0;
    }, 'the ingest node to queue while NATS is away');
    const during = await ingest.health();
    expect(during.status).toBe('degraded');
    expect(during.reason).toContain('not connected to NATS');
    // An edge started while NATS is away serves (what it has: nothing yet) and says why it is degraded.
    const late = await startNode(tempDataDir(), edgeArgs());
    edges.push(late);
    expect((await late.json('/crypto/symbols')).status).toBe(200);
    const lateHealth = await late.health();
    expect(lateHealth).toMatchObject({ status: 'degraded', cluster: { role: 'edge', nats: 'connecting', stream_seq: 0 } });
    expect(lateHealth.reason).toContain('not connected to NATS');
    await until(async () => (await edges[0]!.health()).status === 'degraded', 'an edge to say NATS is away');

    await nats.start();
    await caughtUp(edges, 'every edge');
    for (const edge of edges) {
      await expectSameRings(edge);
      const h = await edge.health();
      expect(h.cluster).toMatchObject({ nats: 'connected', seq_gaps: 0, bar_mismatches: 0, skipped_messages: 0 });
      expect(h.status).toBe('ok');
    }
    expect((await ingest.health()).cluster).toMatchObject({ nats: 'connected', dropped_ticks: 0, publish_error: null });
    // The same in /metrics.
    const edgeMetrics = await metricsOf(edges[0]!);
    expect(edgeMetrics).toMatch(/^mds_cluster_edge_lag_seconds \d/m);
    expect(edgeMetrics).toContain('\nmds_cluster_bar_mismatches_total 0\n');
    expect(edgeMetrics).toContain('\nmds_cluster_nats_connected 1\n');
    expect(await metricsOf(ingest)).toMatch(/^mds_cluster_published_ticks_total [1-9]\d*$/m);
  }, 90_000);

  test('an edge started from a backup of the ingest node skips what the copy holds and catches up', async () => {
    const dir = tempDataDir();
    const backup = await runMds('backup', '--data-dir', ingest.dataDir, '--to', dir);
    expect(backup.code).toBe(0);
    const copy = await startNode(dir, edgeArgs());
    edges.push(copy);
    await caughtUp([copy], 'the edge made from a backup');
    await expectSameRings(copy);
    expect((await copy.health()).cluster).toMatchObject({ seq_gaps: 0, bar_mismatches: 0, skipped_messages: 0 });
    // It has the ingest node's history too (the stream alone carries none).
    const history = '/crypto/agg/BTCUSD/1/minute/2026-03-04/2026-03-04?sort=asc&limit=50';
    const [theirs, ours] = await Promise.all([ingest.json(history), copy.json(history)]);
    expect(ours.body.results.length).toBe(50);
    expect(ours.body.results).toEqual(theirs.body.results);
  }, 60_000);
  test('a new edge with an empty data dir starts from the snapshot the ingest node published', async () => {
    let snapshot: { stream_seq: number; bytes: number } | null = null;
    await until(async () => {
      snapshot = (await ingest.health()).cluster.snapshot;
      return snapshot !== null;
    }, 'the ingest node to publish its first snapshot', 30_000);
    expect(snapshot!.stream_seq).toBeGreaterThan(0);
    expect((await ingest.health()).cluster.snapshot_error).toBeNull();
    const fresh = await startNode(tempDataDir(), edgeArgs());
    edges.push(fresh);
    // From its first answer it has the ingest node's history, which the stream never carried.
    const history = '/crypto/agg/BTCUSD/1/minute/2026-03-04/2026-03-04?sort=asc&limit=50';
    const [theirs, ours] = await Promise.all([ingest.json(history), fresh.json(history)]);
    expect(ours.body.results.length).toBe(50);
    expect(ours.body.results).toEqual(theirs.body.results);
    expect((await fresh.health()).cluster.bootstrap).toMatchObject({ stream_seq: snapshot!.stream_seq, bytes: snapshot!.bytes });
    // Then it follows the stream from the snapshot's sequence on: every seq once.
    await caughtUp([fresh], 'the edge made from the snapshot');
    await expectSameRings(fresh);
    expect((await fresh.health()).cluster).toMatchObject({ seq_gaps: 0, bar_mismatches: 0, skipped_messages: 0 });
  }, 90_000);
});

describe('cluster starts', () => {
  test('an ingest node starts and serves with NATS unreachable, degraded until it connects', async () => {
    const port = await freePort();
    await using node = await startNode(tempDataDir(), ['--role', 'ingest', '--nats', `nats://127.0.0.1:${port}`, '--feed', 'none']);
    expect((await node.json('/crypto/symbols')).status).toBe(200);
    const h = await node.health();
    expect(h).toMatchObject({ status: 'degraded', cluster: { role: 'ingest', nats: 'connecting', published: 0 } });
    expect(h.reason).toContain('not connected to NATS');
    expect(await node.stop()).toBe(0);
  }, 30_000);

  test('a credentials file that cannot be read stops the start with a clear message', async () => {
    const r = await runMds('serve', '--role', 'edge', '--nats', 'nats://127.0.0.1:4222', '--nats-creds', '/nonexistent/mds.creds', '--data-dir', tempDataDir(), '--port', '0');
    expect(r.code).toBe(1);
    expect(r.err).toContain('--nats-creds /nonexistent/mds.creds cannot be read');
  });
});
