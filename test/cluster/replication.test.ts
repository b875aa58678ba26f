// One ingest node and edges over a real nats-server, all real `mds serve` processes with their own
// data dirs, run in order on one cluster as an operator's day would be: edges started before the
// ingest node has a snapshot wait (503 `bootstrapping`) and then serve its history; an import on
// the ingest node reaches the edges; an edge killed with -9, nats-server stopped and started, and
// the ingest node killed with -9 each end with the edges' completed bars byte-identical to the
// ingest node's. Timing (how fast a quote reaches an edge) is bench/cluster.ts's, not a test's.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runMds, until } from '../support/cli.ts';
import { ringOf, startNode, TickWatcher, type Node } from '../support/cluster-node.ts';
import { ensureNatsServer, freePort, startNats, type TestNats } from '../support/nats.ts';
import { TEST_KEY } from '../support/server.ts';

/** A Wednesday, US session open. */
const CLOCK_START = '2026-03-04T15:30:45Z';
const SIM_ARGS = ['--feed', 'sim', '--sim-rate', '3', '--seed', '7', '--history-days', '1', '--history-years', '0'];
/** One symbol per class: the series whose bars are compared. */
const BAR_ROUTES = ['/crypto/agg/BTCUSD', '/forex/agg/EURUSD', '/stocks/agg/US:AAPL', '/indices/agg/US500', '/etfs/agg/US500ETF', '/commodities/agg/XAUUSD', '/perpetuals/agg/BTCUSDT'];
const INTERVALS = ['1/minute', '5/minute', '1/hour', '1/day'];
const DAYS = '2026-03-03/2026-03-04';
/** The day the bar import writes (before the simulator's history). */
const IMPORT_DAY = '2026-02-20';
const RINGS: [string, string][] = [
  ['crypto.quotes', 'BTCUSD'],
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
let ingestDir: string;
/** Where the ingest node's service clock was at most (its --clock-start plus the wall time since its spawn). */
let ingestClock = { startMs: Date.parse(CLOCK_START), spawnedMs: 0 };
const edges: Node[] = [];
const others: Node[] = [];
const METRICS_TOKEN = 'cluster-metrics-token-0123';
const edgeArgs = (...more: string[]) => ['--role', 'edge', '--nats', nats.url, '--edge-max-lag-ms', '3000', '--metrics-token', METRICS_TOKEN, ...more];
const metricsOf = async (node: Node) => (await fetch(`${node.base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();

async function startIngest(clockStartMs: number): Promise<Node> {
  ingestClock = { startMs: clockStartMs, spawnedMs: Date.now() };
  return startNode(ingestDir, ['--role', 'ingest', '--nats', nats.url, '--metrics-token', METRICS_TOKEN, '--clock-start', new Date(clockStartMs).toISOString(), ...SIM_ARGS]);
}

/** The /health answer, or null while the port does not answer (a new edge hands its port over). */
async function healthOf(node: Node): Promise<{ status: number; body: any } | null> {
  try {
    const res = await fetch(`${node.base}/health`);
    return { status: res.status, body: await res.json() };
  } catch {
    return null;
  }
}

// Installing nats-server (when missing, as root) may take minutes: its own hook, before the cluster's.
beforeAll(() => ensureNatsServer(), 600_000);

beforeAll(async () => {
  nats = await startNats();
  ingestDir = tempDataDir();
}, 30_000);

afterAll(async () => {
  for (const node of [...edges, ...others, ingest]) await node?.stop();
  await nats?.[Symbol.asyncDispose]();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** Resolves once the ingest node has published its queue and history notes, and every node has applied the stream that far. */
async function caughtUp(nodes: Node[], what: string): Promise<void> {
  let target = 0;
  await until(async () => {
    const c = (await ingest.health()).cluster;
    target = c.stream_seq;
    return c.nats === 'connected' && c.queued === 0 && c.history_pending === 0 && target > 0;
  }, 'the ingest node to have published its queue and history', 60_000);
  const deadline = performance.now() + 60_000;
  for (;;) {
    const seqs = (await Promise.all(nodes.map((n) => n.health()))).map((h) => h.cluster.stream_seq as number);
    if (seqs.every((s) => s >= target)) return;
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what} to reach stream sequence ${target} (at ${seqs.join(', ')})`);
    await Bun.sleep(100);
  }
}

async function barsOf(node: Node, path: string): Promise<{ t: number }[]> {
  const res = await fetch(`${node.base}${path}`, { headers: { 'x-api-key': TEST_KEY } });
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return ((await res.json()) as { results?: { t: number }[] }).results ?? [];
}

/**
 * Every completed bar of BAR_ROUTES over `days`, in each interval, is the same JSON on the edges as
 * on the ingest node. Completed: before the edge's last bar (the one it may still be making; the
 * ingest node, ahead of every edge, has sealed whatever the edge has).
 */
async function expectSameBars(nodes: Node[], days = DAYS): Promise<void> {
  await caughtUp(nodes, 'the edges');
  const [from, to] = days.split('/');
  for (const route of BAR_ROUTES) {
    for (const interval of INTERVALS) {
      const path = `${route}/${interval}/${from}/${to}?sort=asc&limit=5000`;
      const ours = await Promise.all(nodes.map((n) => barsOf(n, path)));
      const theirs = await barsOf(ingest, path);
      const lastOf = (list: { t: number }[]) => (list.length === 0 ? Infinity : list[list.length - 1]!.t);
      ours.forEach((bars, i) => {
        const cut = lastOf(bars);
        // The edge's last bar is the ingest node's, or the one before it (sealed there since).
        if (cut !== Infinity && theirs.length > 1) expect({ path, cut }).toEqual({ path, cut: cut === lastOf(theirs) ? cut : theirs[theirs.length - 2]!.t });
        const before = (list: { t: number }[]) => JSON.stringify(list.filter((b) => b.t < cut));
        expect({ node: nodes[i]!.port, path, bars: before(bars) }).toEqual({ node: nodes[i]!.port, path, bars: before(theirs) });
      });
    }
  }
  // Not empty: the history is there on both.
  expect((await barsOf(nodes[0]!, `/crypto/agg/BTCUSD/1/minute/${from}/${to}?limit=5000`)).length).toBeGreaterThan(100);
}

/** The rings of RINGS on `node` equal the ingest node's over what both hold: every seq once, the same frames. */
async function expectSameRings(node: Node): Promise<void> {
  for (const [channel, symbol] of RINGS) {
    // The edge first: the ingest node is ahead of it, so its ring then holds all the edge's.
    const ours = await ringOf(node, channel, symbol, 0);
    const theirs = await ringOf(ingest, channel, symbol, 0);
    const seqs = ours.map((f) => JSON.parse(f).seq as number);
    expect(seqs.length).toBeGreaterThan(10);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    const from = theirs.findIndex((f) => JSON.parse(f).seq === seqs[0]);
    expect({ channel, symbol, frames: ours }).toEqual({ channel, symbol, frames: theirs.slice(from, from + ours.length) });
  }
}

describe('replication over NATS JetStream', () => {
  test('an edge started before the ingest node has a snapshot answers 503 bootstrapping, then serves its history', async () => {
    const early = await startNode(tempDataDir(), edgeArgs(), { bootstrapping: true });
    edges.push(early);
    const waiting = await early.health();
    expect(waiting).toMatchObject({ status: 'bootstrapping', bootstrap: { state: expect.stringMatching(/^(connecting|waiting)$/), timeout_s: 600, bytes: 0 } });
    expect(waiting.reason).toContain('store snapshot');
    expect((await fetch(`${early.base}/health`)).status).toBe(503);
    // No market data from an empty store.
    const bars = await fetch(`${early.base}/crypto/agg/BTCUSD/1/minute/2026-03-04/2026-03-04`, { headers: { 'x-api-key': TEST_KEY } });
    expect(bars.status).toBe(503);
    expect(((await bars.json()) as { error: string }).error).toContain('bootstrapping');

    ingest = await startIngest(Date.parse(CLOCK_START));
    let seen: { status: number; body: any } | null = null;
    await until(async () => {
      seen = await healthOf(early);
      return seen !== null && seen.status === 200;
    }, 'the early edge to serve', 60_000);
    expect(seen!.body.cluster).toMatchObject({ role: 'edge', history_complete: true, bootstrap: { stream_seq: expect.any(Number) } });
    // The ingest node's history build is its own: the edge's /health does not carry its progress.
    expect((await healthOf(ingest))!.body.history).toBeDefined();
    expect(seen!.body.history).toBeUndefined();
    expect(early.output()).toContain('new edge: restored a');
    await expectSameBars([early]);
  }, 120_000);

  test('past --edge-bootstrap-timeout an edge serves what the stream holds and says in /health and /coverage that its history is partial', async () => {
    // A NATS of its own that never gets a snapshot.
    await using lone = await startNats();
    const late = await startNode(tempDataDir(), ['--role', 'edge', '--nats', lone.url, '--edge-bootstrap-timeout', '1']);
    others.push(late);
    const h = await late.health();
    expect(h).toMatchObject({ status: 'degraded', cluster: { role: 'edge', history_complete: false, bootstrap: null } });
    expect(h.reason).toContain('without the ingest node');
    const coverage = await late.json('/coverage/crypto/BTCUSD?timeframe=1m');
    expect(coverage.status).toBe(200);
    expect(coverage.body.partial_history).toContain('--edge-bootstrap-timeout 1 s');
    // Across a restart too: the store remembers.
    await late.stop();
    const again = await startNode(late.dataDir, ['--role', 'edge', '--nats', lone.url]);
    others.push(again);
    expect((await again.health()).cluster.history_complete).toBe(false);
    await again.stop();
  }, 60_000);

  test('an edge made from the published snapshot streams the same frames and bars as the ingest node', async () => {
    const fresh = await startNode(tempDataDir(), edgeArgs());
    edges.push(fresh);
    expect((await fresh.health()).cluster.bootstrap).not.toBeNull();
    await caughtUp(edges, 'the edges');
    const pairs = { 'crypto.quotes': ['BTCUSD', 'ETHUSD'], 'forex.quotes': ['EURUSD'] };
    await using atIngest = new TickWatcher(ingest, pairs);
    await using atEdge1 = new TickWatcher(edges[0]!, pairs);
    await using atEdge2 = new TickWatcher(edges[1]!, pairs);
    await Promise.all([atIngest.open, atEdge1.open, atEdge2.open]);
    const common = () => [...atIngest.frames.keys()].filter((k) => atEdge1.frames.has(k) && atEdge2.frames.has(k));
    await until(async () => common().length >= 100, 'the same 100 quotes on all three nodes', 30_000);
    for (const key of common()) {
      const first = atIngest.frames.get(key)!.text;
      expect([atEdge1.frames.get(key)!.text, atEdge2.frames.get(key)!.text]).toEqual([first, first]);
    }
    await expectSameBars(edges);
    await expectSameRings(fresh);
    for (const edge of edges) expect((await edge.health()).cluster).toMatchObject({ seq_gaps: 0, skipped_messages: 0 });
  }, 120_000);

  test('imports on the ingest node (bars, fundamentals, bonds, calendar) reach the edges as the ingest node serves them', async () => {
    const work = tempDataDir();
    const day = Date.parse(`${IMPORT_DAY}T00:00:00Z`);
    const lines = ['time,symbol,open,high,low,close,volume'];
    for (let i = 0; i < 600; i++) lines.push(`${new Date(day + i * 60_000).toISOString()},BTCUSD,${42_000 + i},${42_005 + i},${41_995 + i},${42_001 + i},${(i % 7) + 0.5}`);
    const barsFile = join(work, 'bars.csv');
    writeFileSync(barsFile, `${lines.join('\n')}\n`);
    const imported = await runMds('import', 'bars', barsFile, '--data-dir', ingestDir);
    expect({ code: imported.code, err: imported.err }).toMatchObject({ code: 0 });
    const examples = resolve(import.meta.dir, '../../examples');
    for (const [what, file] of [['fundamentals', 'fundamentals.csv'], ['bonds', 'bonds.csv'], ['calendar', 'economic-calendar.csv']]) {
      const r = await runMds('import', what!, join(examples, file!), '--data-dir', ingestDir);
      expect({ what, code: r.code, err: r.err }).toMatchObject({ what, code: 0 });
    }
    await caughtUp(edges, 'the edges');
    const path = `/crypto/agg/BTCUSD/1/minute/${IMPORT_DAY}/${IMPORT_DAY}?sort=asc&limit=5000`;
    expect((await barsOf(ingest, path)).length).toBe(600);
    await expectSameBars(edges, `${IMPORT_DAY}/${IMPORT_DAY}`);
    for (const route of ['/fundamentals/stocks/US:NKE', '/bonds/history/DE:10Y?from=2026-02-01&to=2026-02-28', '/calendar/economic?from=2026-04-01&to=2026-04-30']) {
      const theirs = await ingest.json(route);
      expect({ route, status: theirs.status }).toEqual({ route, status: 200 });
      for (const edge of edges) expect({ route, body: (await edge.json(route)).body }).toEqual({ route, body: theirs.body });
    }
    for (const edge of edges) expect((await edge.health()).cluster.history_messages).toBeGreaterThan(0);
  }, 120_000);

  test('an edge killed with -9 restarts on its data dir and ends with the same bars and every seq once', async () => {
    const victim = edges[1]!;
    await victim.kill9();
    const restarted = await startNode(victim.dataDir, edgeArgs());
    edges[1] = restarted;
    expect(restarted.output()).toMatch(/edge: resuming the stream MDS_TICKS after sequence [1-9]\d*/);
    await expectSameBars(edges);
    await expectSameRings(restarted);
    expect((await restarted.health()).cluster).toMatchObject({ role: 'edge', nats: 'connected', seq_gaps: 0, skipped_messages: 0 });
  }, 120_000);

  test('nats-server stopped and started: the nodes resume with no gap; a new edge started meanwhile bootstraps and catches up', async () => {
    await nats.stop();
    await until(async () => {
      const c = (await ingest.health()).cluster;
      return c.nats !== 'connected' && c.queued > 0;
    }, 'the ingest node to queue while NATS is away');
    const during = await ingest.health();
    expect(during.status).toBe('degraded');
    expect(during.reason).toContain('not connected to NATS');
    await until(async () => (await edges[0]!.health()).status === 'degraded', 'an edge to say NATS is away');
    // A new edge waits for NATS and the snapshot, bootstrapping.
    const late = await startNode(tempDataDir(), edgeArgs(), { bootstrapping: true });
    edges.push(late);
    expect(await late.health()).toMatchObject({ status: 'bootstrapping', bootstrap: { state: 'connecting' } });

    await nats.start();
    await until(async () => (await healthOf(late))?.status === 200, 'the new edge to serve', 60_000);
    await expectSameBars(edges);
    for (const edge of edges) {
      await expectSameRings(edge);
      const h = await edge.health();
      expect(h.cluster).toMatchObject({ nats: 'connected', seq_gaps: 0, skipped_messages: 0 });
      expect(h.status).toBe('ok');
    }
    expect((await ingest.health()).cluster).toMatchObject({ nats: 'connected', dropped_ticks: 0, publish_error: null });
    const edgeMetrics = await metricsOf(edges[0]!);
    expect(edgeMetrics).toMatch(/^mds_cluster_edge_lag_seconds \d/m);
    expect(edgeMetrics).toContain('\nmds_cluster_nats_connected 1\n');
    expect(await metricsOf(ingest)).toMatch(/^mds_cluster_published_ticks_total [1-9]\d*$/m);
  }, 150_000);

  test('the ingest node killed with -9 and started again: its gap filling reaches the edges, whose completed bars equal its own', async () => {
    // Its clock at most where it was, plus 90 s it was away: the restart fills that gap.
    const restartAt = ingestClock.startMs + (Date.now() - ingestClock.spawnedMs) + 90_000;
    await ingest.kill9();
    ingest = await startIngest(restartAt);
    expect(ingest.output()).toContain('resuming: filling the gap since the last run');
    await expectSameBars(edges);
    // The filled minutes are there on both (not just equal by being absent).
    const gap = `/crypto/agg/BTCUSD/1/minute/${new Date(restartAt - 120_000).toISOString().slice(0, 10)}/${new Date(restartAt).toISOString().slice(0, 10)}?sort=desc&limit=10`;
    expect((await barsOf(edges[0]!, gap)).length).toBe(10);
  }, 150_000);

  test('an edge started from a backup of the ingest node skips what the copy holds and catches up', async () => {
    const dir = tempDataDir();
    const backup = await runMds('backup', '--data-dir', ingestDir, '--to', dir);
    expect(backup.code).toBe(0);
    const copy = await startNode(dir, edgeArgs());
    edges.push(copy);
    await expectSameBars([copy]);
    await expectSameRings(copy);
    expect((await copy.health()).cluster).toMatchObject({ seq_gaps: 0, skipped_messages: 0, history_complete: true });
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
  }, 30_000);
});
