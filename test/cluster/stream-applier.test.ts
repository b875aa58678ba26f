// The replicated stream without NATS: an ingest path's output, written by the StreamWriter and
// applied by a StreamApplier to another store, gives the same bars, latest values, tick ring and
// composites; applying it again changes nothing; an edge that joins late matches from its first
// whole minute on. Symbol ids differ between the stores on purpose: messages name symbols.
import { describe, expect, test } from 'bun:test';
import { pack, unpack } from 'msgpackr';
import { ManualClock, OffsetClock } from '../../src/clock.ts';
import { StreamApplier } from '../../src/cluster/stream-applier.ts';
import { StreamWriter } from '../../src/cluster/stream-writer.ts';
import { EdgeReplica, setEdgeResumePoint } from '../../src/cluster/edge-replica.ts';
import { NatsLink } from '../../src/cluster/link.ts';
import type { AssetClass } from '../../src/domain/asset-classes.ts';
import { Pipeline } from '../../src/ingest/pipeline.ts';
import { ALL_INSTRUMENTS } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Rng } from '../../src/ingest/simulator/random.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

/** A Wednesday, US session open: every class trades. */
const START = Date.parse('2026-03-04T15:30:20Z');
const STEP_MS = 50;
const STEPS = 4000; // 200 s: three whole minutes and more
const SYMBOLS: [AssetClass, string][] = [
  ['crypto', 'BTCUSD'],
  ['forex', 'EURUSD'],
  ['stocks', 'US:AAPL'],
  ['indices', 'US500'],
  ['perpetuals', 'BTCUSDT'],
  ['crypto', 'TESTUSD'], // not in the catalog: the edge learns it from the stream
];

interface Message {
  subject: string;
  data: Uint8Array;
}

function openStore(dir: string, reversed = false): Store {
  const store = Store.open({ dataDir: dir });
  seedRegistry(store, reversed ? [...ALL_INSTRUMENTS].reverse() : ALL_INSTRUMENTS);
  return store;
}

/** Runs an ingest path on random ticks from three sources per symbol, sweeping every 500 ms; returns what the writer wrote. */
function runIngest(store: Store): { messages: Message[]; pipeline: Pipeline; clock: ManualClock } {
  store.registry.upsert([{ symbol: 'TESTUSD', assetClass: 'crypto', name: 'Test coin', market: null, baseSymbol: null, aliases: [], listed: true, decimals: 4 }]);
  const clock = new ManualClock(START);
  const pipeline = new Pipeline(store, clock);
  const messages: Message[] = [];
  const writer = new StreamWriter(pipeline, (subject, data) => messages.push({ subject, data }), () => clock.nowMs());
  const ids = SYMBOLS.map(([cls, symbol]) => {
    const entry = store.registry.resolve(cls, symbol)!;
    pipeline.addLine(entry);
    return entry.id;
  });
  const rng = new Rng(11);
  const mids = SYMBOLS.map(() => 100);
  for (let step = 1; step <= STEPS; step++) {
    const t = START + step * STEP_MS;
    clock.set(t);
    ids.forEach((symId, i) => {
      mids[i]! *= 1 + (rng.next() - 0.5) * 0.002;
      const source = Math.floor(rng.next() * 3);
      const mid = Math.round(mids[i]! * 10_000) / 10_000;
      pipeline.quote(symId, source, t, mid - 0.01 * (source + 1), mid + 0.01 * (source + 1), 1 + source, 2);
      if (rng.next() < 0.3) pipeline.trade(symId, source, t, mid, rng.next() < 0.1 ? null : 0.5);
    });
    if (step % 10 === 0) pipeline.sweep(t);
  }
  writer.close();
  return { messages, pipeline, clock };
}

/** A symbol's completed 1-minute bars as [t, o, h, l, c, v] rows. */
function minuteBars(store: Store, symId: number): number[][] {
  const { count, data } = store.barsInRange(symId, '1m', START - 60_000, START + STEPS * STEP_MS + 60_000);
  return Array.from({ length: count }, (_, i) => Array.from(data.subarray(i * 6, i * 6 + 6)));
}

/** Everything an edge serves of a symbol, by name. */
function served(store: Store, pipeline: Pipeline, cls: AssetClass, symbol: string, nowMs: number) {
  const entry = store.registry.resolve(cls, symbol)!;
  const { quoteSeq, tradeSeq, quote, trade } = store.latest(entry.id)!;
  return {
    bars: minuteBars(store, entry.id),
    inProgress: pipeline.bars.barInProgress(entry.id, '1m'),
    latest: { quoteSeq, tradeSeq, quote, trade },
    quotes: store.ticksSince(entry.id, 'quote', 0, 100_000),
    trades: store.ticksSince(entry.id, 'trade', 0, 100_000),
    composite: pipeline.compositeAt(entry.id, nowMs),
    lastTrade: pipeline.lastTrade(entry.id),
  };
}

describe('stream applier', () => {
  test('an edge fed the whole stream serves what the ingest node serves; a second pass is a no-op', async () => {
    using ingestDir = tempDir();
    using edgeDir = tempDir();
    const ingestStore = openStore(ingestDir.path);
    const ingest = runIngest(ingestStore);
    const edgeStore = openStore(edgeDir.path, true);
    const edgePipeline = new Pipeline(edgeStore, new ManualClock(START));
    const logs: string[] = [];
    const applier = new StreamApplier(edgeStore, edgePipeline, (line) => logs.push(line));
    for (const m of ingest.messages) applier.apply(m.subject, m.data);

    const nowMs = ingest.clock.nowMs();
    for (const [cls, symbol] of SYMBOLS) expect({ symbol, ...served(edgeStore, edgePipeline, cls, symbol, nowMs) }).toEqual({ symbol, ...served(ingestStore, ingest.pipeline, cls, symbol, nowMs) });
    // Ids differ (the edge's registry was filled in another order), and the venue's symbol was learned.
    expect(edgeStore.registry.resolve('crypto', 'BTCUSD')!.id).not.toBe(ingestStore.registry.resolve('crypto', 'BTCUSD')!.id);
    expect(logs).toContain('edge: learned crypto TESTUSD (Test coin) from the ingest node');
    expect(served(edgeStore, edgePipeline, 'crypto', 'BTCUSD', nowMs).bars.length).toBeGreaterThanOrEqual(3);
    expect(served(edgeStore, edgePipeline, 'perpetuals', 'BTCUSDT', nowMs).composite?.sourceCount).toBeGreaterThan(0);
    // The forex raw line travels as a line of its own.
    expect(served(edgeStore, edgePipeline, 'forex', 'EURUSD.RAW', nowMs)).toEqual(served(ingestStore, ingest.pipeline, 'forex', 'EURUSD.RAW', nowMs));
    expect({ mismatches: applier.barMismatches, gaps: applier.seqGaps, skipped: applier.skippedMessages, repeated: applier.repeatedTicks }).toEqual({ mismatches: 0, gaps: 0, skipped: 0, repeated: 0 });

    const applied = applier.appliedTicks;
    const before = SYMBOLS.map(([cls, symbol]) => served(edgeStore, edgePipeline, cls, symbol, nowMs));
    for (const m of ingest.messages) applier.apply(m.subject, m.data);
    expect(applier.appliedTicks).toBe(applied);
    expect(applier.repeatedTicks).toBe(applied);
    expect(SYMBOLS.map(([cls, symbol]) => served(edgeStore, edgePipeline, cls, symbol, nowMs))).toEqual(before);
    expect(applier.barMismatches).toBe(0);
    await ingestStore.close();
    await edgeStore.close();
  });

  test('an edge that joins mid-stream matches every bar from its first whole minute, and counts a bar that differs', async () => {
    using ingestDir = tempDir();
    using edgeDir = tempDir();
    const ingestStore = openStore(ingestDir.path);
    const ingest = runIngest(ingestStore);
    const edgeStore = openStore(edgeDir.path);
    const edgePipeline = new Pipeline(edgeStore, new ManualClock(START));
    const logs: string[] = [];
    const applier = new StreamApplier(edgeStore, edgePipeline, (line) => logs.push(line));
    // Joins 70 s in (symbol entries are where they were: at the start of the stream, not seen here).
    const joinAt = ingest.messages.findIndex((m, i) => i > ingest.messages.length * 0.35 && m.subject === 'mds.sweep');
    const stream = ingest.messages.slice(joinAt);
    for (const m of stream) applier.apply(m.subject, m.data);
    expect(applier.seqGaps).toBe(0);
    expect(applier.barMismatches).toBe(0);
    expect(applier.skippedMessages).toBeGreaterThan(0); // TESTUSD: its entry came before the join
    expect(logs.filter((l) => !l.includes('TESTUSD'))).toEqual([]);
    const btc = (store: Store) => minuteBars(store, store.registry.resolve('crypto', 'BTCUSD')!.id);
    const edgeBars = btc(edgeStore);
    // The edge's first minute is partial; every one after it equals the ingest node's.
    expect(edgeBars.slice(1)).toEqual(btc(ingestStore).slice(-(edgeBars.length - 1)));
    expect(edgeBars.length).toBeGreaterThanOrEqual(2);
    await ingestStore.close();
    await edgeStore.close();

    // The same stream with the ingest node's last BTCUSD bar changed: the edge sees the difference.
    using otherDir = tempDir();
    const other = openStore(otherDir.path);
    const otherLogs: string[] = [];
    const checker = new StreamApplier(other, new Pipeline(other, new ManualClock(START)), (line) => otherLogs.push(line));
    const lastBar = stream.findLastIndex((m) => m.subject === 'mds.bar.crypto.BTCUSD');
    const changed = unpack(stream[lastBar]!.data) as { bar: number[] };
    changed.bar[2]! += 1;
    for (const [i, m] of stream.entries()) checker.apply(m.subject, i === lastBar ? pack(changed) : m.data);
    expect(checker.barMismatches).toBe(1);
    expect(otherLogs.find((l) => l.includes('differs'))).toStartWith('error: edge: the BTCUSD minute bar at ');
    await other.close();
  });

  test("an edge's lines go stale and live again exactly when the ingest node's do, with status frames", async () => {
    using ingestDir = tempDir();
    using edgeDir = tempDir();
    const ingestStore = openStore(ingestDir.path);
    const clock = new ManualClock(START);
    const ingest = new Pipeline(ingestStore, clock);
    const messages: Message[] = [];
    const writer = new StreamWriter(ingest, (subject, data) => messages.push({ subject, data }), () => clock.nowMs());
    const btc = ingestStore.registry.resolve('crypto', 'BTCUSD')!;
    const eur = ingestStore.registry.resolve('forex', 'EURUSD')!;
    ingest.addLine(btc);
    ingest.addLine(eur);
    const edgeStore = openStore(edgeDir.path, true);
    const edge = new Pipeline(edgeStore, new ManualClock(START));
    const frames: string[] = [];
    edge.subscribe({ onQuote() {}, onTrade() {}, onStatus: (entry, isStale, sources) => frames.push(`${entry.symbol} ${isStale ? 'stale' : 'live'} ${sources}`) });
    const applier = new StreamApplier(edgeStore, edge, () => {});
    // A sweep writes the open batches (and is applied as one on the edge).
    const ship = () => {
      ingest.sweep(clock.nowMs());
      for (const m of messages.splice(0)) applier.apply(m.subject, m.data);
    };
    const edgeState = (symbol: string, cls: AssetClass) => {
      const s = edgeStore.latest(edgeStore.registry.resolve(cls, symbol)!.id)!;
      return { isStale: s.isStale, liveSources: s.liveSources };
    };

    // One venue quotes both lines: live on the edge too.
    ingest.quote(btc.id, 0, START, 100, 101, 1, 1);
    ingest.quote(eur.id, 0, START, 1.1, 1.2, 1, 1);
    ship();
    expect(edgeState('BTCUSD', 'crypto')).toEqual({ isStale: false, liveSources: 1 });
    // The venue drops BTCUSD (a feed's stale mark): the edge's line goes stale with it, EURUSD stays live.
    clock.set(START + 1000);
    ingest.dropSource(btc.id, 0);
    expect(ingestStore.latest(btc.id)!.isStale).toBe(true);
    ship();
    expect(edgeState('BTCUSD', 'crypto')).toEqual({ isStale: true, liveSources: 0 });
    expect(edgeState('EURUSD', 'forex')).toEqual({ isStale: false, liveSources: 1 });
    // EURUSD goes silent past the stale window: the ingest node's sweep marks it, and the edge follows.
    clock.set(START + 11_000);
    ingest.quote(btc.id, 0, START + 11_000, 100, 101, 1, 1);
    ship();
    expect(edgeState('EURUSD', 'forex')).toEqual({ isStale: true, liveSources: 0 });
    expect(edgeState('BTCUSD', 'crypto')).toEqual({ isStale: false, liveSources: 1 });
    // One frame per change, as on the ingest node (the forex raw line follows its one source).
    expect(frames).toEqual(['BTCUSD live 1', 'EURUSD live 1', 'EURUSD.RAW live 1', 'BTCUSD stale 0', 'BTCUSD live 1', 'EURUSD stale 0', 'EURUSD.RAW stale 0']);
    expect(applier.skippedMessages).toBe(0);
    writer.close();
    await ingestStore.close();
    await edgeStore.close();
  });

  test('the resume point is kept with the data and set for a bootstrap', async () => {
    using dir = tempDir();
    let store = Store.open({ dataDir: dir.path });
    expect(store.replicaPosition()).toBeNull();
    expect(store.putQuoteAt(1, 5, 1000, 1, 2, null, null)).toBe(true);
    store.setReplicaPosition({ streamSeq: 17, clockOffsetMs: -5 });
    await store.close();
    store = Store.open({ dataDir: dir.path });
    expect(store.replicaPosition()).toEqual({ streamSeq: 17, clockOffsetMs: -5 });
    expect(store.latest(1)?.quoteSeq).toBe(5);
    await setEdgeResumePoint(store, 4242);
    await store.close();
    store = Store.open({ dataDir: dir.path });
    expect(store.replicaPosition()).toEqual({ streamSeq: 4242, clockOffsetMs: -5 });
    await expect(setEdgeResumePoint(store, -1)).rejects.toThrow('a stream sequence is a whole number');
    await store.close();
  });

  // A snapshot's position carries no clock offset: an edge made from it keeps its own clock, and
  // time-based work (retention, on the machine's clock a March history is older than any limit)
  // waits for the first sweep. A stored offset is the ingest node's, followed at once.
  test('an edge from a snapshot waits for a sweep before its clock counts; a stored offset counts at once', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    // Never started: the replica only registers its listeners on it.
    const link = new NatsLink({ nats: 'nats://127.0.0.1:1', natsCreds: null, natsTlsCa: null, natsTlsCert: null, natsTlsKey: null }, 'edge-test', () => {});
    const pipeline = new Pipeline(store, new ManualClock(0), { log: () => {} });
    await setEdgeResumePoint(store, 99, null);
    expect(store.replicaPosition()).toEqual({ streamSeq: 99, clockOffsetMs: null });
    const fromSnapshot = new OffsetClock(-1000);
    const fresh = new EdgeReplica(link, store, fromSnapshot, pipeline, () => {}, 60_000);
    expect(Bun.peek.status(fresh.clockSynced)).toBe('pending');
    expect(fromSnapshot.offsetMs).toBe(-1000);
    await setEdgeResumePoint(store, 120, -86_400_000);
    const restarted = new OffsetClock(0);
    const again = new EdgeReplica(link, store, restarted, pipeline, () => {}, 60_000);
    await again.clockSynced;
    expect(restarted.offsetMs).toBe(-86_400_000);
    await store.close();
  });
});
