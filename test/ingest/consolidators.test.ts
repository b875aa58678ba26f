import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { ManualClock } from '../../src/clock.ts';
import { applyPolicy, bestBidOffer, medianComposite, type PolicyInput } from '../../src/ingest/consolidators/policies.ts';
import { QuoteConsolidator } from '../../src/ingest/consolidators/quote-consolidator.ts';
import { Pipeline } from '../../src/ingest/pipeline.ts';
import type { ConsolidatedQuote, VenueQuote } from '../../src/ingest/ticks.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const NOW = Date.UTC(2026, 2, 4, 12);
const STALE_MS = 10_000;

function vq(venue: number, bid: number, ask: number, over: Partial<VenueQuote> = {}): VenueQuote {
  return { venue, tsMs: NOW, bid, ask, bidSize: 10 + venue, askSize: 20 + venue, ...over };
}

function input(venues: (VenueQuote | undefined)[]): PolicyInput {
  return { venues, nowMs: NOW, staleMs: STALE_MS };
}

describe('medianComposite', () => {
  test('with an odd number of live venues takes the middle bid and the middle ask, sizes summed', () => {
    const venues = [vq(0, 100, 103), vq(1, 102, 105), vq(2, 101, 104)];
    expect(medianComposite(input(venues))).toEqual({ bid: 101, ask: 104, bidSize: 10 + 11 + 12, askSize: 20 + 21 + 22 });
  });

  test('with an even number of live venues averages the two middle bids and the two middle asks', () => {
    const venues = [vq(0, 103, 107), vq(1, 100, 104), vq(2, 102, 106), vq(3, 101, 105)];
    expect(medianComposite(input(venues))).toEqual({ bid: 101.5, ask: 105.5, bidSize: 10 + 11 + 12 + 13, askSize: 20 + 21 + 22 + 23 });
  });

  test('drops venues silent longer than staleMs (a venue exactly staleMs old still counts)', () => {
    const venues = [vq(0, 100, 101), vq(1, 90, 91, { tsMs: NOW - STALE_MS - 1 }), vq(2, 102, 103, { tsMs: NOW - STALE_MS })];
    expect(medianComposite(input(venues))).toEqual({ bid: 101, ask: 102, bidSize: 10 + 12, askSize: 20 + 22 });
  });

  test('ignores venues whose own quote is crossed or locked (bid >= ask), sizes included', () => {
    const venues = [vq(0, 100, 101), vq(1, 105, 104), vq(2, 102, 103), vq(3, 103, 103)];
    expect(medianComposite(input(venues))).toEqual({ bid: 101, ask: 102, bidSize: 10 + 12, askSize: 20 + 22 });
  });

  test('returns null when no venue is live', () => {
    expect(medianComposite(input([]))).toBeNull();
    expect(medianComposite(input([undefined, vq(1, 100, 101, { tsMs: NOW - STALE_MS - 1 }), vq(2, 101, 100)]))).toBeNull();
  });

  test('a null size on any live venue makes that side null; a stale venue with a null size does not', () => {
    const venues = [vq(0, 100, 101, { bidSize: null }), vq(1, 100, 101), vq(2, 100, 101, { tsMs: NOW - STALE_MS - 1, askSize: null })];
    expect(medianComposite(input(venues))).toEqual({ bid: 100, ask: 101, bidSize: null, askSize: 20 + 21 });
  });

  test('one outlier venue cannot move the composite outside the range of the other venues when >= 3 are live', () => {
    const honest = fc.record({ bid: fc.integer({ min: 9_900, max: 10_100 }), spread: fc.integer({ min: 1, max: 20 }) });
    fc.assert(
      fc.property(
        fc.array(honest, { minLength: 2, maxLength: 6 }),
        fc.boolean(),
        fc.integer({ min: 1, max: 1_000 }),
        fc.integer({ min: 0, max: 7 }),
        (quotes, high, spread, slot) => {
          const venues = quotes.map((q, i) => vq(i, q.bid, q.bid + q.spread));
          const outlierBid = high ? 1_000_000 : 1;
          venues.splice(Math.min(slot, venues.length), 0, vq(9, outlierBid, outlierBid + spread));
          const c = medianComposite(input(venues));
          const bids = quotes.map((q) => q.bid);
          const asks = quotes.map((q) => q.bid + q.spread);
          expect(c).not.toBeNull();
          expect(c!.bid).toBeGreaterThanOrEqual(Math.min(...bids));
          expect(c!.bid).toBeLessThanOrEqual(Math.max(...bids));
          expect(c!.ask).toBeGreaterThanOrEqual(Math.min(...asks));
          expect(c!.ask).toBeLessThanOrEqual(Math.max(...asks));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('bestBidOffer', () => {
  test('takes the highest bid and the lowest ask, summing sizes only of venues at those prices', () => {
    const venues = [
      vq(0, 100, 103, { bidSize: 5, askSize: 1 }),
      vq(1, 100, 102, { bidSize: 7, askSize: 2 }),
      vq(2, 99, 102, { bidSize: 9, askSize: 3 }),
    ];
    expect(bestBidOffer(input(venues))).toEqual({ bid: 100, ask: 102, bidSize: 12, askSize: 5 });
  });

  test('leaves stale and self-crossed venues out of the best prices', () => {
    const venues = [vq(0, 100, 103), vq(1, 101.5, 101.8, { tsMs: NOW - STALE_MS - 1 }), vq(2, 102, 101), vq(3, 99, 102)];
    expect(bestBidOffer(input(venues))).toEqual({ bid: 100, ask: 102, bidSize: 10, askSize: 23 });
  });

  test('when venues cross each other, falls back to the freshest venue’s own book', () => {
    const venues = [
      vq(0, 101, 102, { tsMs: NOW - 2_000 }),
      vq(1, 103, 104, { tsMs: NOW - 500, bidSize: 3, askSize: 4 }),
      vq(2, 100.5, 101.5, { tsMs: NOW - 1_000 }),
    ];
    expect(bestBidOffer(input(venues))).toEqual({ bid: 103, ask: 104, bidSize: 3, askSize: 4 });
  });

  test('a null size at the best price makes that side null; a null size away from it does not', () => {
    const venues = [vq(0, 100, 102, { bidSize: null }), vq(1, 99, 101, { bidSize: null, askSize: 6 })];
    expect(bestBidOffer(input(venues))).toEqual({ bid: 100, ask: 101, bidSize: null, askSize: 6 });
  });
});

describe('applyPolicy', () => {
  test('dispatches best to bestBidOffer and median to medianComposite', () => {
    const venues = [vq(0, 100, 104), vq(1, 101, 103), vq(2, 99, 105)];
    expect(applyPolicy('best', input(venues))).toEqual(bestBidOffer(input(venues)));
    expect(applyPolicy('median', input(venues))).toEqual(medianComposite(input(venues)));
    expect(applyPolicy('best', input(venues))).not.toEqual(applyPolicy('median', input(venues)));
  });
});

/** Plain reference policies over quote objects (arrays, filter, sort), to check the flat-book ones against. */
function naivePolicy(policy: 'median' | 'best', venues: (VenueQuote | undefined)[]): Omit<ConsolidatedQuote, 'tsMs'> | null {
  const live = venues.filter((q): q is VenueQuote => q !== undefined && NOW - q.tsMs <= STALE_MS && q.bid < q.ask);
  if (live.length === 0) return null;
  const sum = (qs: VenueQuote[], pick: (q: VenueQuote) => number | null) => (qs.some((q) => pick(q) === null) ? null : qs.reduce((t, q) => t + pick(q)!, 0));
  if (policy === 'median') {
    const med = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      const m = s.length >> 1;
      return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
    };
    const bid = med(live.map((q) => q.bid));
    const ask = med(live.map((q) => q.ask));
    return bid < ask ? { bid, ask, bidSize: sum(live, (q) => q.bidSize), askSize: sum(live, (q) => q.askSize) } : null;
  }
  const bid = Math.max(...live.map((q) => q.bid));
  const ask = Math.min(...live.map((q) => q.ask));
  if (!(bid < ask)) {
    const f = live.reduce((a, q) => (q.tsMs > a.tsMs ? q : a));
    return { bid: f.bid, ask: f.ask, bidSize: f.bidSize, askSize: f.askSize };
  }
  return { bid, ask, bidSize: sum(live.filter((q) => q.bid === bid), (q) => q.bidSize), askSize: sum(live.filter((q) => q.ask === ask), (q) => q.askSize) };
}

describe('policies against a plain reference', () => {
  const venue = fc.option(
    fc.record({
      age: fc.oneof(fc.integer({ min: 0, max: 3 }), fc.constantFrom(STALE_MS, STALE_MS + 1)), // ties and the stale edge
      bid: fc.integer({ min: 990, max: 1010 }),
      spread: fc.integer({ min: -2, max: 6 }),
      bidSize: fc.option(fc.integer({ min: 1, max: 9 }), { freq: 6 }),
      askSize: fc.option(fc.integer({ min: 1, max: 9 }), { freq: 6 }),
    }),
    { freq: 6 },
  );
  test('median and best bid/offer equal the reference for any set of venues (stale, crossed, missing, null sizes)', () => {
    fc.assert(
      fc.property(fc.array(venue, { maxLength: 8 }), (raw) => {
        const venues = raw.map((v, i) => (v === null ? undefined : vq(i, v.bid / 10, (v.bid + v.spread) / 10, { tsMs: NOW - v.age, bidSize: v.bidSize, askSize: v.askSize })));
        expect(medianComposite(input(venues))).toEqual(naivePolicy('median', venues));
        expect(bestBidOffer(input(venues))).toEqual(naivePolicy('best', venues));
      }),
      { numRuns: 500 },
    );
  });
});

describe('QuoteConsolidator', () => {
  const make = (policy: 'median' | 'best' | 'raw', gate?: (q: Omit<ConsolidatedQuote, 'tsMs'>, tsMs: number) => boolean) =>
    new QuoteConsolidator({ policy, decimals: 2, staleMs: STALE_MS, gate });

  test('the raw policy publishes each venue’s own prices with null sizes, not a composite', () => {
    const c = make('raw');
    expect(c.onQuote(vq(0, 100, 101))).toEqual({ tsMs: NOW, bid: 100, ask: 101, bidSize: null, askSize: null });
    expect(c.onQuote(vq(1, 200, 202, { tsMs: NOW + 1 }))).toEqual({ tsMs: NOW + 1, bid: 200, ask: 202, bidSize: null, askSize: null });
    expect(c.onQuote(vq(0, 101, 100, { tsMs: NOW + 2 }))).toBeNull();
  });

  test('a quote that leaves the line unchanged returns null; a size change is published', () => {
    const c = make('median');
    expect(c.onQuote(vq(0, 100, 101))).toEqual({ tsMs: NOW, bid: 100, ask: 101, bidSize: 10, askSize: 20 });
    expect(c.onQuote(vq(0, 100, 101, { tsMs: NOW + 5 }))).toBeNull();
    expect(c.onQuote(vq(0, 100, 101, { tsMs: NOW + 6, bidSize: 11 }))).toEqual({ tsMs: NOW + 6, bid: 100, ask: 101, bidSize: 11, askSize: 20 });
  });

  test('a held-back quote is not remembered: once the gate opens the same line is published', () => {
    let open = false;
    const c = make('best', () => open);
    expect(c.onQuote(vq(0, 100, 101))).toBeNull();
    open = true;
    expect(c.onQuote(vq(0, 100, 101, { tsMs: NOW + 1 }))).toEqual({ tsMs: NOW + 1, bid: 100, ask: 101, bidSize: 10, askSize: 20 });
  });

  test('after resumeAfter, a quote stamped at or before the resumed time is published just after it', () => {
    const c = make('best');
    c.resumeAfter(NOW + 1_000);
    expect(c.onQuote(vq(0, 100, 101))?.tsMs).toBe(NOW + 1_001);
  });

  test('published timestamps are strictly increasing per symbol even when venue timestamps repeat or go backwards', () => {
    const quote = fc.record({
      venue: fc.integer({ min: 0, max: 3 }),
      dt: fc.integer({ min: -3_000, max: 3_000 }),
      bid: fc.integer({ min: 9_990, max: 10_010 }),
      spread: fc.integer({ min: -2, max: 5 }),
      bidSize: fc.option(fc.integer({ min: 1, max: 5 }), { freq: 8 }),
    });
    fc.assert(
      fc.property(fc.constantFrom('median' as const, 'best' as const, 'raw' as const), fc.array(quote, { minLength: 1, maxLength: 80 }), (policy, quotes) => {
        const c = make(policy);
        let last = -Infinity;
        let published = 0;
        for (const q of quotes) {
          const tsMs = NOW + Math.round(q.dt / 1000) * 1000;
          const out = c.onQuote({ venue: q.venue, tsMs, bid: q.bid / 100, ask: (q.bid + q.spread) / 100, bidSize: q.bidSize, askSize: 1 });
          if (!out) continue;
          published++;
          expect(out.tsMs).toBeGreaterThan(last);
          expect(out.tsMs).toBeGreaterThanOrEqual(tsMs);
          last = out.tsMs;
        }
        if (quotes.some((q) => q.spread > 0)) expect(published).toBeGreaterThan(0);
      }),
      { numRuns: 300 },
    );
  });
});

describe('timestamps without the strict rule (every class but forex)', () => {
  test('never go back, repeat within a millisecond, and follow the venues\' time however fast the line changes', () => {
    const c = new QuoteConsolidator({ policy: 'best', decimals: 2, staleMs: 10_000, strictTimestamps: false });
    const out: number[] = [];
    // 5,000 changes in one millisecond, then one a millisecond later, then one stamped earlier.
    for (let k = 0; k < 5_000; k++) out.push(c.quoteFrom(0, NOW, 100 + k / 100, 200, 1, 1)!.tsMs);
    out.push(c.quoteFrom(0, NOW + 1, 99, 200, 1, 1)!.tsMs);
    out.push(c.quoteFrom(0, NOW - 10, 98, 200, 1, 1)!.tsMs);
    expect(new Set(out.slice(0, 5_000))).toEqual(new Set([NOW]));
    expect(out.slice(5_000)).toEqual([NOW + 1, NOW + 1]);
  });

  test('through the pipeline: crypto lines may share a millisecond, forex lines never do', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    try {
      store.registry.upsert([
        { symbol: 'BTCUSD', assetClass: 'crypto', name: 'Bitcoin', market: null, baseSymbol: null, aliases: [], listed: true, decimals: 2 },
        { symbol: 'EURUSD', assetClass: 'forex', name: 'Euro / US Dollar', market: null, baseSymbol: null, aliases: [], listed: true, decimals: 5 },
      ]);
      const pipeline = new Pipeline(store, new ManualClock(NOW));
      const seen: Record<string, number[]> = { crypto: [], forex: [] };
      pipeline.subscribe({ onQuote: (entry, _seq, q) => seen[entry.assetClass]?.push(q.tsMs), onTrade: () => {} });
      const btc = store.registry.bySymbolName('BTCUSD')!.id;
      const eur = store.registry.bySymbolName('EURUSD')!.id;
      for (let k = 0; k < 50; k++) {
        pipeline.quote(btc, 0, NOW, 60_000 + k, 60_100, 1, 1);
        pipeline.quote(eur, 0, NOW, 1.08 + k / 10_000, 1.1, 1, 1);
      }
      expect(seen.crypto).toEqual(Array(50).fill(NOW));
      expect(seen.forex).toEqual(Array.from({ length: 50 }, (_, k) => NOW + k));
    } finally {
      await store.close();
    }
  });
});

describe('ETF spread gate (through Pipeline)', () => {
  const IN_SESSION = Date.parse('2026-03-04T15:30:00Z');
  const AFTER_HOURS = Date.parse('2026-03-04T23:00:00Z');

  async function withEtf(run: (pipeline: Pipeline, store: Store, symId: number, published: ConsolidatedQuote[]) => void): Promise<void> {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    store.registry.upsert([{ symbol: 'US500ETF', assetClass: 'etfs', name: 'US 500 Index ETF', market: 'US', baseSymbol: null, aliases: [], listed: true, decimals: 2 }]);
    const pipeline = new Pipeline(store, new ManualClock(IN_SESSION));
    const published: ConsolidatedQuote[] = [];
    pipeline.subscribe({ onQuote: (_e, _s, q) => published.push({ ...q }), onTrade: () => {} });
    run(pipeline, store, store.registry.bySymbolName('US500ETF')!.id, published);
    await store.close();
  }

  test('outside the regular session a quote wider than 0.5% of mid is held back and the session quote stays latest', async () => {
    await withEtf((pipeline, store, id, published) => {
      pipeline.onVenueQuote(id, vq(0, 679.9, 680.1, { tsMs: IN_SESSION }));
      const sessionQuote = { tsMs: IN_SESSION, bid: 679.9, ask: 680.1, bidSize: 10, askSize: 20 };
      expect(published).toEqual([sessionQuote]);
      pipeline.onVenueQuote(id, vq(0, 677, 681, { tsMs: AFTER_HOURS })); // 4 / 679 = 0.59%
      expect(published).toEqual([sessionQuote]);
      expect(store.latest(id)?.quote).toEqual(sessionQuote);
    });
  });

  test('outside the regular session a quote within 0.5% of mid is published', async () => {
    await withEtf((pipeline, store, id, published) => {
      pipeline.onVenueQuote(id, vq(0, 678.5, 681.5, { tsMs: AFTER_HOURS })); // 3 / 680 = 0.44%
      const q = { tsMs: AFTER_HOURS, bid: 678.5, ask: 681.5, bidSize: 10, askSize: 20 };
      expect(published).toEqual([q]);
      expect(store.latest(id)?.quote).toEqual(q);
    });
  });

  test('inside the regular session a wide quote is published', async () => {
    await withEtf((pipeline, store, id, published) => {
      pipeline.onVenueQuote(id, vq(0, 670, 690, { tsMs: IN_SESSION }));
      const q = { tsMs: IN_SESSION, bid: 670, ask: 690, bidSize: 10, askSize: 20 };
      expect(published).toEqual([q]);
      expect(store.latest(id)?.quote).toEqual(q);
    });
  });
});
