// Freshness of consolidated lines in process: fake feeds into the one ingest path on a manual
// clock. A line is live while a source's uncrossed quote is within the stale window (service
// clock); it goes stale when the last source is dropped (`FeedSink.stale`) or falls silent, and
// live again when one quotes. Each change is told once to listeners and kept in the latest state.
import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../../src/clock.ts';
import type { FeedInstrument } from '../../src/domain/feed.ts';
import { FeedSet } from '../../src/ingest/feeds.ts';
import { Pipeline } from '../../src/ingest/pipeline.ts';
import { CATALOG, PERPETUALS } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../src/store/index.ts';
import { FakeFeed } from '../support/fake-feed.ts';
import { tempDir } from '../support/temp-dir.ts';

const NOW = Date.parse('2026-03-07T12:00:00Z');
const STALE_MS = 10_000;
const BTC: FeedInstrument = { assetClass: 'crypto', symbol: 'BTCUSD', venueSymbol: 'BTC-USD' };
const EUR: FeedInstrument = { assetClass: 'forex', symbol: 'EURUSD', venueSymbol: 'EURUSD' };
const PERP: FeedInstrument = { assetClass: 'perpetuals', symbol: 'BTCUSDT', venueSymbol: 'BTCUSDT' };

interface Status {
  symbol: string;
  stale: boolean;
  sources: number;
  since: number;
}

async function withFeeds(feeds: FakeFeed[], run: (ctx: { statuses: Status[]; pipeline: Pipeline; clock: ManualClock; store: Store }) => void | Promise<void>): Promise<void> {
  using dir = tempDir();
  const store = Store.open({ dataDir: dir.path });
  try {
    seedRegistry(store, [...CATALOG, ...PERPETUALS]);
    const clock = new ManualClock(NOW);
    const set = new FeedSet(store, () => {});
    for (const f of feeds) set.add(f);
    const pipeline = new Pipeline(store, clock, { staleMs: STALE_MS, compositeRules: { staleMs: STALE_MS, maxDeviation: 0.005 } });
    const statuses: Status[] = [];
    pipeline.subscribe({ onQuote: () => {}, onTrade: () => {}, onStatus: (e, stale, sources, since) => statuses.push({ symbol: e.symbol, stale, sources, since }) });
    set.start(pipeline);
    await run({ statuses, pipeline, clock, store });
  } finally {
    await store.close();
  }
}

const freshness = (store: Store, symbol: string) => {
  const s = store.latest(store.registry.bySymbolName(symbol)!.id)!;
  return { stale: s.isStale, sources: s.liveSources, since: s.freshnessSinceMs };
};

describe('a line with one source', () => {
  test('goes live on its first quote and stale when the feed marks it stale, once each', async () => {
    const a = new FakeFeed('alpha', [BTC]);
    await withFeeds([a], ({ statuses, store, clock }) => {
      a.quote('BTCUSD', NOW, 100, 101);
      expect(statuses).toEqual([{ symbol: 'BTCUSD', stale: false, sources: 1, since: NOW }]);
      a.quote('BTCUSD', NOW + 5, 100.5, 101);
      expect(statuses).toHaveLength(1);
      clock.advance(2_000);
      a.stale('BTCUSD');
      expect(statuses[1]).toEqual({ symbol: 'BTCUSD', stale: true, sources: 0, since: NOW + 2_000 });
      expect(freshness(store, 'BTCUSD')).toEqual({ stale: true, sources: 0, since: NOW + 2_000 });
      // The last quote stands, marked.
      expect(store.latest(store.registry.bySymbolName('BTCUSD')!.id)!.quote).toMatchObject({ bid: 100.5, ask: 101 });
      a.stale('BTCUSD');
      expect(statuses).toHaveLength(2);
      clock.advance(1_000);
      a.quote('BTCUSD', NOW + 3_000, 100.5, 101);
      expect(statuses[2]).toEqual({ symbol: 'BTCUSD', stale: false, sources: 1, since: NOW + 3_000 });
      expect(freshness(store, 'BTCUSD')).toEqual({ stale: false, sources: 1, since: NOW + 3_000 });
    });
  });

  test('goes stale on the service clock when no quote comes within the stale window, with no feed event', async () => {
    const a = new FakeFeed('alpha', [BTC]);
    await withFeeds([a], ({ statuses, pipeline, clock, store }) => {
      a.quote('BTCUSD', NOW, 100, 101);
      clock.advance(STALE_MS);
      pipeline.sweep(clock.nowMs());
      expect(statuses).toHaveLength(1);
      clock.advance(400);
      pipeline.sweep(clock.nowMs());
      // Stale from the instant the newest quote left the window, not from the sweep.
      expect(statuses[1]).toEqual({ symbol: 'BTCUSD', stale: true, sources: 0, since: NOW + STALE_MS });
      expect(freshness(store, 'BTCUSD').stale).toBe(true);
      pipeline.sweep(clock.nowMs() + 500);
      expect(statuses).toHaveLength(2);
    });
  });

  test('a quote older than the stale window (a closing book replayed) does not make the line live', async () => {
    const a = new FakeFeed('alpha', [BTC]);
    await withFeeds([a], ({ statuses, store }) => {
      a.quote('BTCUSD', NOW - STALE_MS - 1, 100, 101);
      expect(statuses).toEqual([]);
      expect(freshness(store, 'BTCUSD').stale).toBe(true);
    });
  });

  test('a crossed quote is no live source', async () => {
    const a = new FakeFeed('alpha', [BTC]);
    await withFeeds([a], ({ statuses }) => {
      a.quote('BTCUSD', NOW, 101, 100);
      expect(statuses).toEqual([]);
    });
  });
});

describe('a line with several sources', () => {
  test('stays live while one source is left and goes stale with the last; one quote brings it back', async () => {
    const a = new FakeFeed('alpha', [BTC]);
    const b = new FakeFeed('beta', [BTC]);
    await withFeeds([a, b], ({ statuses, clock }) => {
      a.quote('BTCUSD', NOW, 100, 101);
      b.quote('BTCUSD', NOW, 100.2, 101.2);
      expect(statuses).toHaveLength(1);
      a.stale('BTCUSD');
      expect(statuses).toHaveLength(1);
      clock.advance(10);
      b.stale('BTCUSD');
      expect(statuses[1]).toEqual({ symbol: 'BTCUSD', stale: true, sources: 0, since: NOW + 10 });
      a.quote('BTCUSD', NOW + 10, 100, 101);
      expect(statuses[2]).toEqual({ symbol: 'BTCUSD', stale: false, sources: 1, since: NOW + 10 });
    });
  });

  test('going live counts every source that quotes within the window', async () => {
    const a = new FakeFeed('alpha', [BTC]);
    const b = new FakeFeed('beta', [BTC]);
    await withFeeds([a, b], ({ statuses, pipeline, clock }) => {
      a.quote('BTCUSD', NOW, 100, 101);
      b.quote('BTCUSD', NOW, 100.2, 101.2);
      clock.advance(STALE_MS + 1);
      pipeline.sweep(clock.nowMs());
      expect(statuses.map((s) => s.stale)).toEqual([false, true]);
      b.quote('BTCUSD', clock.nowMs(), 100.2, 101.2);
      a.quote('BTCUSD', clock.nowMs(), 100, 101);
      expect(statuses[2]).toMatchObject({ stale: false, sources: 1 });
    });
  });

  test('the forex raw line follows its one source: stale when that source is dropped, though the composite lives on', async () => {
    const a = new FakeFeed('alpha', [EUR]);
    const b = new FakeFeed('beta', [EUR]);
    await withFeeds([a, b], ({ statuses }) => {
      a.quote('EURUSD', NOW, 1.1, 1.1002);
      b.quote('EURUSD', NOW, 1.1001, 1.1003);
      expect(statuses.map((s) => [s.symbol, s.stale])).toEqual([['EURUSD.RAW', false], ['EURUSD', false]]);
      a.stale('EURUSD');
      expect(statuses.slice(2).map((s) => [s.symbol, s.stale])).toEqual([['EURUSD.RAW', true]]);
    });
  });

  test('a perpetual composite line goes stale with its last source', async () => {
    const a = new FakeFeed('alpha', [PERP]);
    await withFeeds([a], ({ statuses }) => {
      a.quote('BTCUSDT', NOW, 100, 101);
      a.stale('BTCUSDT');
      expect(statuses.map((s) => [s.symbol, s.stale])).toEqual([['BTCUSDT', false], ['BTCUSDT', true]]);
    });
  });
});

describe('a restart', () => {
  test('serves the stored line as stale from the start until a source quotes', async () => {
    using dir = tempDir();
    let store = Store.open({ dataDir: dir.path });
    seedRegistry(store, [...CATALOG, ...PERPETUALS]);
    const a = new FakeFeed('alpha', [BTC]);
    const set = new FeedSet(store, () => {});
    set.add(a);
    set.start(new Pipeline(store, new ManualClock(NOW)));
    a.quote('BTCUSD', NOW, 100, 101);
    expect(freshness(store, 'BTCUSD').stale).toBe(false);
    await store.close();
    store = Store.open({ dataDir: dir.path });
    try {
      new Pipeline(store, new ManualClock(NOW + 60_000));
      expect(freshness(store, 'BTCUSD')).toEqual({ stale: true, sources: 0, since: NOW + 60_000 });
    } finally {
      await store.close();
    }
  });
});
