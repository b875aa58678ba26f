// The feed boundary in process: fake feeds into the one ingest path. Several feeds on one symbol
// are consolidated (spot: best bid and offer, stale and outlier venues dropped, a crossed book
// resolved; perpetuals: the median composite with source_count), and a failing feed fails alone.
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
const BTC: FeedInstrument = { assetClass: 'crypto', symbol: 'BTCUSD', venueSymbol: 'BTC-USD' };
const BTC_PERP: FeedInstrument = { assetClass: 'perpetuals', symbol: 'BTCUSDT', venueSymbol: 'BTCUSDT' };

interface Published {
  symbol: string;
  tsMs: number;
  bid: number;
  ask: number;
  sourceCount: number | null;
}

async function withFeeds(feeds: FakeFeed[], run: (ctx: { quotes: Published[]; trades: Published[]; pipeline: Pipeline; set: FeedSet; clock: ManualClock; store: Store; logs: string[] }) => void | Promise<void>): Promise<void> {
  using dir = tempDir();
  const store = Store.open({ dataDir: dir.path });
  try {
    seedRegistry(store, [...CATALOG, ...PERPETUALS]);
    const clock = new ManualClock(NOW);
    const logs: string[] = [];
    const set = new FeedSet(store, (line) => logs.push(line));
    for (const f of feeds) set.add(f);
    const pipeline = new Pipeline(store, clock);
    const quotes: Published[] = [];
    const trades: Published[] = [];
    pipeline.subscribe({
      onQuote: (e, _s, q, n) => quotes.push({ symbol: e.symbol, tsMs: q.tsMs, bid: q.bid, ask: q.ask, sourceCount: n }),
      onTrade: (e, _s, tsMs, price, _size, n) => trades.push({ symbol: e.symbol, tsMs, bid: price, ask: price, sourceCount: n }),
    });
    set.start(pipeline);
    await run({ quotes, trades, pipeline, set, clock, store, logs });
  } finally {
    await store.close();
  }
}

const last = (xs: Published[]) => xs[xs.length - 1]!;

describe('spot consolidation across feeds', () => {
  test('two feeds on one symbol: the best bid and the best offer across them', async () => {
    const a = new FakeFeed('alpha', [BTC]);
    const b = new FakeFeed('beta', [BTC]);
    await withFeeds([a, b], ({ quotes }) => {
      a.quote('BTCUSD', NOW, 100, 101);
      expect(last(quotes)).toMatchObject({ symbol: 'BTCUSD', bid: 100, ask: 101, sourceCount: null });
      b.quote('BTCUSD', NOW + 1, 100.5, 101.5);
      expect(last(quotes)).toMatchObject({ bid: 100.5, ask: 101, tsMs: NOW + 1 });
    });
  });

  test('a feed that marks its line stale leaves the consolidated line at once', async () => {
    const a = new FakeFeed('alpha', [BTC]);
    const b = new FakeFeed('beta', [BTC]);
    await withFeeds([a, b], ({ quotes, clock }) => {
      a.quote('BTCUSD', NOW, 100, 101);
      b.quote('BTCUSD', NOW, 100.5, 101.5);
      expect(last(quotes)).toMatchObject({ bid: 100.5, ask: 101 });
      clock.set(NOW + 200);
      b.stale('BTCUSD');
      expect(last(quotes)).toMatchObject({ bid: 100, ask: 101, tsMs: NOW + 200 });
    });
  });

  test('a feed silent longer than the stale limit no longer counts', async () => {
    const a = new FakeFeed('alpha', [BTC]);
    const b = new FakeFeed('beta', [BTC]);
    await withFeeds([a, b], ({ quotes }) => {
      b.quote('BTCUSD', NOW, 100.5, 101.5);
      a.quote('BTCUSD', NOW + 10_001, 100, 101);
      expect(last(quotes)).toMatchObject({ bid: 100, ask: 101 });
    });
  });

  test('with three or more venues, one whose mid is more than 1% off the median is left out', async () => {
    const feeds = ['alpha', 'beta', 'gamma'].map((id) => new FakeFeed(id, [BTC]));
    const [a, b, c] = feeds as [FakeFeed, FakeFeed, FakeFeed];
    await withFeeds(feeds, ({ quotes }) => {
      a.quote('BTCUSD', NOW, 100, 101);
      b.quote('BTCUSD', NOW, 100.2, 101.2);
      c.quote('BTCUSD', NOW + 1, 103, 104); // 2.7% above the median mid
      expect(last(quotes)).toMatchObject({ bid: 100.2, ask: 101 });
      c.quote('BTCUSD', NOW + 2, 100.4, 100.9); // back in line: it counts again
      expect(last(quotes)).toMatchObject({ bid: 100.4, ask: 100.9 });
    });
  });

  test('a crossed consolidated book is replaced by the freshest venue’s own book', async () => {
    const a = new FakeFeed('alpha', [BTC]);
    const b = new FakeFeed('beta', [BTC]);
    await withFeeds([a, b], ({ quotes }) => {
      a.quote('BTCUSD', NOW, 100, 101);
      b.quote('BTCUSD', NOW + 1, 101.5, 102); // beta's bid is above alpha's ask
      const q = last(quotes);
      expect(q.bid).toBeLessThan(q.ask);
      expect(q).toMatchObject({ bid: 101.5, ask: 102 });
    });
  });

  test('trades of every feed form the consolidated tape', async () => {
    const a = new FakeFeed('alpha', [BTC]);
    const b = new FakeFeed('beta', [BTC]);
    await withFeeds([a, b], ({ trades }) => {
      a.trade('BTCUSD', NOW, 100.5);
      b.trade('BTCUSD', NOW + 1, 100.7);
      expect(trades.map((t) => t.bid)).toEqual([100.5, 100.7]);
    });
  });
});

describe('perpetual composite across feeds', () => {
  test('source_count falls when a source goes stale, by its mark or by silence', async () => {
    const feeds = ['alpha', 'beta', 'gamma'].map((id) => new FakeFeed(id, [BTC_PERP]));
    const [a, b, c] = feeds as [FakeFeed, FakeFeed, FakeFeed];
    await withFeeds(feeds, ({ quotes, pipeline, store, clock }) => {
      a.quote('BTCUSDT', NOW, 100, 101);
      b.quote('BTCUSDT', NOW, 100.2, 101.2);
      c.quote('BTCUSDT', NOW, 100.4, 101.4);
      expect(last(quotes)).toMatchObject({ symbol: 'BTCUSDT', bid: 100.2, ask: 101.2, sourceCount: 3 });
      clock.set(NOW + 100);
      c.stale('BTCUSDT');
      expect(last(quotes)).toMatchObject({ bid: 100.1, ask: 101.1, sourceCount: 2 });
      const id = store.registry.bySymbolName('BTCUSDT')!.id;
      expect(pipeline.compositeAt(id, NOW + 100)?.sourceCount).toBe(2);
      // Silence: alpha quotes again later; beta's quote is past the stale window by then.
      a.quote('BTCUSDT', NOW + 10_001 + 1, 100, 101);
      expect(last(quotes)).toMatchObject({ bid: 100, ask: 101, sourceCount: 1 });
      a.stale('BTCUSDT');
      expect(pipeline.compositeAt(id, NOW + 10_002)).toBeNull();
    });
  });

  test('a trade counts only from a source that counts in the composite', async () => {
    const a = new FakeFeed('alpha', [BTC_PERP]);
    const b = new FakeFeed('beta', [BTC_PERP]);
    await withFeeds([a, b], ({ trades }) => {
      a.quote('BTCUSDT', NOW, 100, 101);
      b.trade('BTCUSDT', NOW + 1, 100.5); // beta never quoted
      a.trade('BTCUSDT', NOW + 2, 100.6);
      expect(trades).toEqual([{ symbol: 'BTCUSDT', tsMs: NOW + 2, bid: 100.6, ask: 100.6, sourceCount: 1 }]);
    });
  });
});

describe('feed registration', () => {
  test('a feed that throws or rejects on start is failed with the reason; the others run', async () => {
    const thrower = new FakeFeed('thrower', [BTC], { failStart: 'throw' });
    const rejecter = new FakeFeed('rejecter', [BTC], { failStart: 'reject' });
    const good = new FakeFeed('good', [BTC]);
    await withFeeds([thrower, rejecter, good], async ({ set, quotes, logs }) => {
      good.quote('BTCUSD', NOW, 100, 101);
      expect(quotes).toHaveLength(1);
      await Promise.resolve();
      const health = set.health();
      expect(health.map((h) => [h.id, h.state])).toEqual([
        ['thrower', 'failed'],
        ['rejecter', 'failed'],
        ['good', 'live'],
      ]);
      expect(health[0]!.reason).toBe('start failed: thrower cannot connect');
      expect(health[1]!.reason).toBe('start failed: rejecter refused the login');
      expect(logs.some((l) => l.includes('feed rejecter failed'))).toBe(true);
    });
  });

  test('an instrument the catalog lacks is learned with its name and decimals; without them, or with a bad symbol, it is skipped', async () => {
    const feed = new FakeFeed('alpha', [
      { assetClass: 'crypto', symbol: 'ZZTUSD', venueSymbol: 'ZZT-USD', name: 'Zeta Token / US Dollar', decimals: 4 },
      { assetClass: 'crypto', symbol: 'QQXUSD', venueSymbol: 'QQX-USD' },
      { assetClass: 'crypto', symbol: 'bad symbol', venueSymbol: 'X', name: 'Bad', decimals: 2 },
    ]);
    await withFeeds([feed], ({ store, quotes, logs }) => {
      const learned = store.registry.resolve('crypto', 'ZZTUSD');
      expect(learned).toMatchObject({ name: 'Zeta Token / US Dollar', decimals: 4, listed: true });
      expect(store.registry.resolve('crypto', 'QQXUSD')).toBeUndefined();
      feed.quote('ZZTUSD', NOW, 0.1234, 0.1236);
      feed.quote('QQXUSD', NOW, 1, 2);
      expect(quotes.map((q) => q.symbol)).toEqual(['ZZTUSD']);
      expect(logs.filter((l) => l.includes('not served'))).toHaveLength(2);
    });
  });
});
