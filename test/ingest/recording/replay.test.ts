// Replay determinism: a scripted feed with named parts runs live on a manual clock, recorded; the
// recording replayed into fresh stores (at max speed twice, and paced at N× real time) gives the
// very bars, open bars and latest state the live run stored, late ticks, stale marks and all.
import { describe, expect, test } from 'bun:test';
import { ManualClock, systemClock } from '../../../src/clock.ts';
import { ASSET_CLASSES } from '../../../src/domain/asset-classes.ts';
import type { Feed, FeedHealth, FeedInstrument, FeedSink } from '../../../src/domain/feed.ts';
import { TIMEFRAMES } from '../../../src/domain/timeframes.ts';
import { FeedSet } from '../../../src/ingest/feeds.ts';
import { Pipeline } from '../../../src/ingest/pipeline.ts';
import { Recorder } from '../../../src/ingest/recording/recorder.ts';
import { listRecordingFiles } from '../../../src/ingest/recording/recording-file.ts';
import { scanRecording } from '../../../src/ingest/recording/recording-reader.ts';
import { ReplayClock } from '../../../src/ingest/recording/replay-clock.ts';
import { ReplayFeed } from '../../../src/ingest/recording/replay-feed.ts';
import { CATALOG, PERPETUALS } from '../../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../../src/ingest/reference/seed-registry.ts';
import { Rng } from '../../../src/ingest/simulator/random.ts';
import { Store } from '../../../src/store/index.ts';
import { storedBars } from '../../support/bar-rollups.ts';
import { until } from '../../support/cli.ts';
import { tempDir } from '../../support/temp-dir.ts';

const T0 = Date.parse('2026-03-04T15:58:10Z');
const INSTRUMENTS: FeedInstrument[] = [
  { assetClass: 'crypto', symbol: 'BTCUSD', venueSymbol: 'BTC-USD' },
  { assetClass: 'forex', symbol: 'EURUSD', venueSymbol: 'EUR/USD' },
  { assetClass: 'perpetuals', symbol: 'BTCUSDT', venueSymbol: 'BTC-PERP' },
  { assetClass: 'crypto', symbol: 'ZZTUSD', venueSymbol: 'ZZT-USD', name: 'Zeta Token / US Dollar', decimals: 4 },
];
const MID = [70_000, 1.085, 70_010, 0.25];
const PARTS = ['desk-1', 'desk-2', 'desk-3'];

/** A feed with three named parts that the test drives by hand. */
class ScriptFeed implements Feed {
  readonly id = 'desk';
  parts: FeedSink[] = [];
  instruments(): readonly FeedInstrument[] {
    return INSTRUMENTS;
  }
  start(sink: FeedSink): void {
    this.parts = PARTS.map((p) => sink.source!(p));
  }
  stop(): void {}
  health(): FeedHealth {
    return { id: this.id, state: 'live', connectedSinceMs: null, lastMessageMs: null, messagesPerSecond: 0, reconnects: 0, parseErrors: 0, instruments: INSTRUMENTS.length, reason: null };
  }
}

/**
 * Six minutes of ticks: quotes and trades from every part, stale marks, sweeps every 500 ms as the
 * ingest path's timer makes them. ZZTUSD trades once near each minute's end and then once late, with
 * the minute's time, arriving 1 to 2.5 s after it: kept when no sweep has sealed that minute yet
 * (within the 1.5 s grace), dropped otherwise. So its bars depend on where the sweeps fell.
 */
function runScript(feed: ScriptFeed, pipeline: Pipeline, clock: ManualClock): void {
  const rng = new Rng(42);
  const ZZT = 3;
  let nextSweepMs = T0 + 500;
  let minuteEndMs = Math.ceil(T0 / 60_000) * 60_000;
  let hasTraded = false;
  let lateAtMs = minuteEndMs + 1000 + Math.floor(rng.next() * 1500);
  const end = T0 + 6 * 60_000;
  while (clock.nowMs() < end) {
    clock.advance(Math.floor(rng.next() * 120) + 1);
    while (nextSweepMs <= clock.nowMs()) {
      pipeline.sweep(nextSweepMs);
      nextSweepMs += 500;
    }
    const part = feed.parts[Math.floor(rng.next() * PARTS.length)]!;
    if (!hasTraded && clock.nowMs() >= minuteEndMs - 2000) {
      part.trade(ZZT, clock.nowMs(), 0.25, 10);
      hasTraded = true;
    }
    if (clock.nowMs() >= lateAtMs) {
      part.trade(ZZT, minuteEndMs - 100, Math.round(rng.next() * 1e4) / 1e4, 5);
      minuteEndMs += 60_000;
      lateAtMs = minuteEndMs + 1000 + Math.floor(rng.next() * 1500);
      hasTraded = false;
    }
    const i = Math.floor(rng.next() * (INSTRUMENTS.length - 1));
    const mid = MID[i]! * (1 + rng.normal() * 0.0005);
    const roll = rng.next();
    const tsMs = clock.nowMs() - Math.floor(rng.next() * 40);
    if (roll > 0.995) part.stale(i);
    else if (roll > 0.8) part.trade(i, tsMs, Math.round(mid * 1e4) / 1e4, rng.next() < 0.1 ? null : Math.round(rng.next() * 1e6) / 1e4);
    else part.quote(i, tsMs, Math.round(mid * 0.9999 * 1e5) / 1e5, Math.round(mid * 1.0001 * 1e5) / 1e5, rng.next() < 0.1 ? null : 1 + Math.floor(rng.next() * 9), 1 + Math.floor(rng.next() * 9));
  }
}

function openStore(path: string): Store {
  const store = Store.open({ dataDir: path });
  seedRegistry(store, [...CATALOG, ...PERPETUALS]);
  return store;
}

/** Every bar (completed and open, every timeframe) and the latest state of every symbol with data. */
function contents(store: Store): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const cls of ASSET_CLASSES) {
    for (const entry of store.registry.all(cls)) {
      const latest = store.latest(entry.id);
      const bars = Object.fromEntries(TIMEFRAMES.map((tf) => [tf, { done: storedBars(store, entry.id, tf, 0), open: store.openBar(entry.id, tf) ?? null }]));
      if (latest || TIMEFRAMES.some((tf) => bars[tf]!.done.length > 0 || bars[tf]!.open)) out[`${cls}:${entry.symbol}`] = { latest, bars };
    }
  }
  return out;
}

async function recordLive(dataDir: string, recDir: string): Promise<Record<string, unknown>> {
  const store = openStore(dataDir);
  const clock = new ManualClock(T0);
  const recorder = new Recorder({ dir: recDir, clock, log: () => {} });
  const set = new FeedSet(store, () => {});
  const feed = new ScriptFeed();
  set.add(feed);
  const pipeline = new Pipeline(store, clock, { onSweep: (t) => recorder.sweep(t) });
  set.start(pipeline, recorder);
  runScript(feed, pipeline, clock);
  await recorder.close();
  await store.flush();
  const seen = contents(store);
  await store.close();
  return seen;
}

async function replay(dataDir: string, recDir: string, speed: number | 'max'): Promise<{ seen: Record<string, unknown>; health: FeedHealth; sweeps: number }> {
  const store = openStore(dataDir);
  const summary = scanRecording(listRecordingFiles(recDir) as string[], (note) => {
    throw new Error(note);
  });
  const clock = new ReplayClock(summary.firstAtMs!, systemClock);
  const feed = new ReplayFeed({ summary, speed, loop: false, clock, real: systemClock, log: () => {} });
  const set = new FeedSet(store, () => {});
  set.add(feed);
  const pipeline = new Pipeline(store, clock);
  let sweeps = 0;
  // The recorded sweeps only: the timed ones that a server starts at the end would seal by real time.
  feed.drive({ sweep: (t) => (sweeps++, pipeline.sweep(t)), start: () => {} });
  set.start(pipeline);
  await feed.done;
  await store.flush();
  const seen = contents(store);
  await store.close();
  return { seen, health: feed.health(), sweeps };
}

describe('replay', () => {
  test('replaying a recording into fresh stores gives the bars, open bars and latest state of the live run, every time and at any speed', async () => {
    using live = tempDir();
    using rec = tempDir();
    using first = tempDir();
    using second = tempDir();
    using paced = tempDir();
    const wanted = await recordLive(live.path, rec.path);
    expect(Object.keys(wanted).sort()).toEqual(['crypto:BTCUSD', 'crypto:ZZTUSD', 'forex:EURUSD', 'forex:EURUSD.RAW', 'perpetuals:BTCUSDT']);
    const once = await replay(first.path, rec.path, 'max');
    const again = await replay(second.path, rec.path, 'max');
    const slow = await replay(paced.path, rec.path, 5000);
    expect(once.seen).toEqual(wanted);
    expect(again.seen).toEqual(wanted);
    expect(slow.seen).toEqual(wanted);
    expect(once.sweeps).toBeGreaterThan(600);
    expect(once.health).toEqual({ id: 'replay', state: 'stopped', connectedSinceMs: null, lastMessageMs: expect.any(Number), messagesPerSecond: 0, reconnects: 0, parseErrors: 0, instruments: 4, reason: expect.stringMatching(/^the recording was replayed to its end: \d+ ticks from 2 files$/), ticks: expect.any(Number), conflated: 0, dropped: 0 });
    expect(once.health.ticks).toBe(again.health.ticks!);
  });

  test('with loop it plays again and again, each pass shifted by the recording\'s length in whole minutes, until stopped', async () => {
    using live = tempDir();
    using rec = tempDir();
    using again = tempDir();
    await recordLive(live.path, rec.path);
    const store = openStore(again.path);
    try {
      const summary = scanRecording(listRecordingFiles(rec.path) as string[], () => {});
      const clock = new ReplayClock(summary.firstAtMs!, systemClock);
      const feed = new ReplayFeed({ summary, speed: 'max', loop: true, clock, real: systemClock, log: () => {} });
      const set = new FeedSet(store, () => {});
      set.add(feed);
      const pipeline = new Pipeline(store, clock);
      feed.drive({ sweep: (t) => pipeline.sweep(t), start: () => {} });
      set.start(pipeline);
      const perPass = scanRecording(summary.files, () => {}).records;
      await until(async () => feed.health().ticks! > perPass * 2, 'three passes');
      await set.stop();
      await feed.done;
      expect(feed.health()).toMatchObject({ state: 'stopped', reason: null });
      // Seven minutes a pass (the recording spans six and a bit): the third pass is past T0 + 14 min.
      const btc = store.registry.resolve('crypto', 'BTCUSD')!;
      expect(clock.nowMs()).toBeGreaterThan(T0 + 14 * 60_000);
      expect(storedBars(store, btc.id, '1m', T0 + 7 * 60_000).length).toBeGreaterThan(6);
    } finally {
      await store.close();
    }
  });
});
