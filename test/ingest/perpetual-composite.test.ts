// The perpetual composite rules (issue 8): median of live bids and of live asks, `source_count`,
// and the sources left out (stale, crossed or locked, far off the others); no live source → none.
import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../../src/clock.ts';
import { composite, COMPOSITE_RULES, type SourceQuote } from '../../src/ingest/consolidators/perpetual-composite.ts';
import { Pipeline } from '../../src/ingest/pipeline.ts';
import type { CompositeQuote } from '../../src/ingest/ticks.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const NOW = Date.parse('2026-03-07T12:00:00Z'); // a Saturday: perpetuals trade around the clock
const q = (bid: number, ask: number, ageMs = 0, size: number | null = 1): SourceQuote => ({ tsMs: NOW - ageMs, bid, ask, bidSize: size, askSize: size });

describe('composite of source quotes', () => {
  test('median of the bids and median of the asks of the live sources; sizes summed; source_count', () => {
    expect(composite([q(99.9, 100.1), q(100.0, 100.2, 500), q(99.8, 100.3, 2000)], NOW)).toEqual({ tsMs: NOW, bid: 99.9, ask: 100.2, bidSize: 3, askSize: 3, sourceCount: 3 });
  });

  test('an even number of sources: the medians are the means of the middle two', () => {
    expect(composite([q(99.9, 100.1), q(100.0, 100.2), q(99.8, 100.3), q(100.1, 100.4)], NOW)).toMatchObject({ bid: 99.95, ask: 100.25, sourceCount: 4 });
  });

  test('a stale source is left out and does not count; the timestamp is the newest counted quote', () => {
    const c = composite([q(99.9, 100.1, 3000), q(100.0, 100.2, 1000), q(50, 60, COMPOSITE_RULES.staleMs + 1)], NOW);
    expect(c).toEqual({ tsMs: NOW - 1000, bid: 99.95, ask: 100.15, bidSize: 2, askSize: 2, sourceCount: 2 });
  });

  test('a source exactly at the stale limit still counts', () => {
    expect(composite([q(99.9, 100.1, COMPOSITE_RULES.staleMs)], NOW)?.sourceCount).toBe(1);
  });

  test('a crossed source (bid > ask) and a locked one (bid = ask) are left out', () => {
    expect(composite([q(99.9, 100.1), q(100.2, 100.0), q(100.0, 100.0), q(100.0, 100.2)], NOW)).toMatchObject({ bid: 99.95, ask: 100.15, sourceCount: 2 });
  });

  test('a source far off the others is left out; one just inside the band counts', () => {
    const far = composite([q(99.9, 100.1), q(100.0, 100.2), q(99.95, 100.15), q(101.9, 102.1)], NOW);
    expect(far).toMatchObject({ bid: 99.95, ask: 100.15, sourceCount: 3 });
    const near = composite([q(99.9, 100.1), q(100.0, 100.2), q(99.95, 100.15), q(100.3, 100.5)], NOW);
    expect(near?.sourceCount).toBe(4);
  });

  test('one far-off source cannot drag the composite: it stays with the majority', () => {
    const c = composite([q(99.9, 100.1), q(100.0, 100.2), q(150, 150.2)], NOW)!;
    expect(c.sourceCount).toBe(2);
    expect(c.bid).toBe(99.95);
  });

  test('two sources far apart cannot tell which is right: neither counts, so there is no composite', () => {
    expect(composite([q(99.9, 100.1), q(109.9, 110.1)], NOW)).toBeNull();
  });

  test('a single live source is the composite, with source_count 1', () => {
    expect(composite([undefined, q(99.9, 100.1)], NOW)).toEqual({ tsMs: NOW, bid: 99.9, ask: 100.1, bidSize: 1, askSize: 1, sourceCount: 1 });
  });

  test('no live source: no composite (not the last value)', () => {
    expect(composite([], NOW)).toBeNull();
    expect(composite([q(99.9, 100.1, 60_000), q(100.0, 100.2, 60_000)], NOW)).toBeNull();
    expect(composite([q(100.2, 100.0), q(100, 100)], NOW)).toBeNull();
  });

  test('a source without sizes makes the composite sizes null, never a partial sum', () => {
    expect(composite([q(99.9, 100.1), q(100.0, 100.2, 0, null)], NOW)).toMatchObject({ bidSize: null, askSize: null, sourceCount: 2 });
  });

  test('fractional sizes are summed without binary noise', () => {
    expect(composite([q(99.9, 100.1, 0, 0.7), q(100.0, 100.2, 0, 0.7)], NOW)).toMatchObject({ bidSize: 1.4, askSize: 1.4 });
  });
});

describe('perpetual composite lines of the ingest path', () => {
  async function withBtc(run: (c: Pipeline, id: number, quotes: CompositeQuote[], trades: number[][], store: Store) => void): Promise<void> {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    store.registry.upsert([{ symbol: 'BTCUSDT', assetClass: 'perpetuals', name: 'Bitcoin perpetual (USDT)', market: null, baseSymbol: null, aliases: [], listed: true, decimals: 2 }]);
    const composites = new Pipeline(store, new ManualClock(NOW));
    const quotes: CompositeQuote[] = [];
    const trades: number[][] = [];
    composites.subscribe({ onQuote: (_e, _s, c, n) => quotes.push({ ...c, sourceCount: n ?? NaN }), onTrade: (_e, _s, tsMs, price, size, n) => trades.push([tsMs, price, size ?? NaN, n ?? NaN]) });
    run(composites, store.registry.bySymbolName('BTCUSDT')!.id, quotes, trades, store);
    await store.close();
  }
  const vq = (venue: number, tsMs: number, bid: number, ask: number) => ({ venue, tsMs, bid, ask, bidSize: 1, askSize: 1 });

  test('every change is stored and published with its source_count; an unchanged composite is not', async () => {
    await withBtc((c, id, quotes, _t, store) => {
      c.onVenueQuote(id, vq(0, NOW, 100, 101));
      c.onVenueQuote(id, vq(1, NOW + 1, 100, 101));
      c.onVenueQuote(id, vq(2, NOW + 2, 100.2, 101.2));
      c.onVenueQuote(id, vq(2, NOW + 3, 100.2, 101.2));
      expect(quotes).toEqual([
        { tsMs: NOW, bid: 100, ask: 101, bidSize: 1, askSize: 1, sourceCount: 1 },
        { tsMs: NOW + 1, bid: 100, ask: 101, bidSize: 2, askSize: 2, sourceCount: 2 },
        { tsMs: NOW + 2, bid: 100, ask: 101, bidSize: 3, askSize: 3, sourceCount: 3 },
      ]);
      expect(store.latest(id)?.quote).toEqual({ tsMs: NOW + 2, bid: 100, ask: 101, bidSize: 3, askSize: 3 });
    });
  });

  test('a crossed source leaves the composite; the others carry it with a lower source_count', async () => {
    await withBtc((c, id, quotes) => {
      c.onVenueQuote(id, vq(0, NOW, 100, 101));
      c.onVenueQuote(id, vq(1, NOW, 100.2, 101.2));
      c.onVenueQuote(id, vq(1, NOW + 10, 101.5, 101.2));
      expect(quotes.at(-1)).toEqual({ tsMs: NOW + 10, bid: 100, ask: 101, bidSize: 1, askSize: 1, sourceCount: 1 });
    });
  });

  test('read as of now: sources that went stale since no longer count, and with none live there is no composite', async () => {
    await withBtc((c, id) => {
      c.onVenueQuote(id, vq(0, NOW, 100, 101));
      c.onVenueQuote(id, vq(1, NOW + 5000, 100.2, 101.2));
      expect(c.compositeAt(id, NOW + 5000)?.sourceCount).toBe(2);
      expect(c.compositeAt(id, NOW + 5000 + COMPOSITE_RULES.staleMs - 4000)).toMatchObject({ bid: 100.2, ask: 101.2, sourceCount: 1 });
      expect(c.compositeAt(id, NOW + 5000 + COMPOSITE_RULES.staleMs + 1)).toBeNull();
    });
  });

  test('no live source publishes nothing; the first live quote after it is published again', async () => {
    await withBtc((c, id, quotes) => {
      c.onVenueQuote(id, vq(0, NOW, 100, 101));
      c.onVenueQuote(id, vq(0, NOW + 1, 101, 100)); // the only source crosses
      expect(quotes).toHaveLength(1);
      c.onVenueQuote(id, vq(0, NOW + 2, 100, 101));
      expect(quotes.map((x) => x.tsMs)).toEqual([NOW, NOW + 2]);
    });
  });

  test('a trade passes only from a source that counts, with the source_count at that instant', async () => {
    await withBtc((c, id, _q, trades, store) => {
      c.onVenueQuote(id, vq(0, NOW, 100, 101));
      c.onVenueQuote(id, vq(1, NOW, 100.2, 101.2));
      c.onVenueQuote(id, vq(2, NOW, 130, 131)); // far off
      c.onVenueTrade(id, { venue: 0, tsMs: NOW + 1, price: 100.5, size: 2 });
      c.onVenueTrade(id, { venue: 2, tsMs: NOW + 2, price: 130.5, size: 2 }); // far-off source
      c.onVenueTrade(id, { venue: 3, tsMs: NOW + 3, price: 100.5, size: 2 }); // never quoted
      c.onVenueTrade(id, { venue: 1, tsMs: NOW + COMPOSITE_RULES.staleMs + 1, price: 100.7, size: 2 }); // stale by then
      expect(trades).toEqual([[NOW + 1, 100.5, 2, 2]]);
      expect(c.lastTrade(id)).toEqual({ tsMs: NOW + 1, price: 100.5, size: 2, sourceCount: 2 });
      expect(store.latest(id)?.trade).toMatchObject({ tsMs: NOW + 1, price: 100.5, size: 2 });
    });
  });

  test('timestamps never go back, and composites within one millisecond share it (no drift ahead of time)', async () => {
    await withBtc((c, id, quotes) => {
      c.onVenueQuote(id, vq(0, NOW, 100, 101));
      c.onVenueQuote(id, vq(1, NOW, 100.4, 101.4));
      c.onVenueQuote(id, vq(2, NOW, 100.6, 101.6));
      c.onVenueQuote(id, vq(0, NOW + 3, 100.9, 101.9));
      expect(quotes.map((x) => [x.tsMs, x.bid])).toEqual([
        [NOW, 100],
        [NOW, 100.2],
        [NOW, 100.4],
        [NOW + 3, 100.6],
      ]);
    });
  });
});
