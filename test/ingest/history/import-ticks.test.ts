// Ticks imported as history make the bars the live ingest path makes from the same ticks: a
// property over random trade and quote streams (trade-built crypto bars, mid-built forex bars),
// comparing every timeframe; and tick faults are reported by line.
import { describe, expect, test } from 'bun:test';
import fc from 'fast-check';
import { ManualClock } from '../../../src/clock.ts';
import type { RowFault } from '../../../src/domain/bar-import.ts';
import { TIMEFRAMES } from '../../../src/domain/timeframes.ts';
import type { FileImportOptions } from '../../../src/ingest/importers/history/import-bar-file.ts';
import { importTickFile, type TickRows } from '../../../src/ingest/importers/history/import-tick-file.ts';
import { Pipeline } from '../../../src/ingest/pipeline.ts';
import { CATALOG } from '../../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../../src/store/index.ts';
import { storedBars } from '../../support/bar-rollups.ts';
import { tempDir } from '../../support/temp-dir.ts';

const T0 = Date.UTC(2026, 0, 5, 22, 0);
const NOW = Date.UTC(2026, 1, 1);

interface Tick {
  symbol: 'BTCUSD' | 'EURUSD';
  t: number;
  /** Trade price or quote mid. */
  p: number;
  size: number;
  /** Both sizes of a quote; absent: not given. */
  quoteSize?: number;
}

function rowsOf(ticks: readonly Tick[]): AsyncIterable<TickRows> {
  return (async function* () {
    for (let at = 0; at < ticks.length; at += 500) {
      const part = ticks.slice(at, at + 500);
      const isQuote = (t: Tick) => t.symbol === 'EURUSD';
      yield {
        length: part.length,
        line: part.map((_, i) => at + i + 1),
        symbol: part.map((t) => t.symbol),
        classHint: part.map((t) => (isQuote(t) ? 'forex' : 'crypto')),
        kind: part.map((t) => (isQuote(t) ? 0 : 1)),
        tMs: part.map((t) => t.t),
        bid: part.map((t) => (isQuote(t) ? t.p - 0.0001 : NaN)),
        ask: part.map((t) => (isQuote(t) ? t.p + 0.0001 : NaN)),
        bidSize: part.map((t) => t.quoteSize ?? NaN),
        askSize: part.map((t) => t.quoteSize ?? NaN),
        price: part.map((t) => (isQuote(t) ? NaN : t.p)),
        size: part.map((t) => (isQuote(t) ? NaN : t.size)),
        bytesRead: 0,
      };
    }
  })();
}

const ticksArb = fc
  .array(fc.tuple(fc.constantFrom<'BTCUSD' | 'EURUSD'>('BTCUSD', 'EURUSD'), fc.integer({ min: 0, max: 400_000 }), fc.integer({ min: -500, max: 500 }), fc.integer({ min: 1, max: 4000 })), { minLength: 1, maxLength: 400 })
  .map((raw) => {
    // Times ascend over about 30 hours: gaps across minutes, hours and a UTC day.
    let t = T0;
    return raw.map(([symbol, gap, move, size]): Tick => {
      t += gap;
      return { symbol, t, p: symbol === 'BTCUSD' ? 60_000 + move : 1.1 + move / 10_000, size: size / 1000 };
    });
  });

function options(faults: { line: number; fault: RowFault }[] = []): FileImportOptions {
  return { timeframe: '1m', assetClass: null, createSymbols: false, dailyZones: [], nowMs: NOW, onConflict: 'skip', maxFaults: 0, serverPid: null, onFault: (line, fault) => faults.push({ line, fault }) };
}

describe('import ticks', () => {
  test('bars from imported ticks equal the bars the live path builds from the same ticks', async () => {
    await fc.assert(
      fc.asyncProperty(ticksArb, async (ticks) => {
        using liveDir = tempDir();
        using importDir = tempDir();
        const live = Store.open({ dataDir: liveDir.path });
        seedRegistry(live, CATALOG);
        const clock = new ManualClock(T0);
        const pipeline = new Pipeline(live, clock);
        const source = pipeline.sourceIndex('venue');
        for (const tick of ticks) {
          clock.set(tick.t);
          // The live path seals by time every half second; here before each tick.
          pipeline.bars.sealDue(tick.t);
          const id = live.registry.bySymbolName(tick.symbol)!.id;
          if (tick.symbol === 'EURUSD') pipeline.quote(id, source, tick.t, tick.p - 0.0001, tick.p + 0.0001, null, null);
          else pipeline.trade(id, source, tick.t, tick.p, tick.size);
        }
        pipeline.bars.sealDue(NOW);

        const imported = Store.open({ dataDir: importDir.path });
        seedRegistry(imported, CATALOG);
        const done = await importTickFile(imported, 'ticks.csv', rowsOf(ticks), options());
        expect(done.ticks).toMatchObject({ ticks: ticks.length, faults: 0 });
        for (const symbol of ['BTCUSD', 'EURUSD']) {
          const a = live.registry.bySymbolName(symbol)!.id;
          const b = imported.registry.bySymbolName(symbol)!.id;
          for (const tf of TIMEFRAMES) expect({ symbol, tf, bars: storedBars(imported, b, tf, 0) }).toEqual({ symbol, tf, bars: storedBars(live, a, tf, 0) });
        }
        await live.close();
        await imported.close();
      }),
      { numRuns: 10 },
    );
  }, 30_000);

  test('ticks out of order, crossed quotes and unknown symbols are faults with their lines', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    seedRegistry(store, CATALOG);
    const ticks: Tick[] = [
      { symbol: 'BTCUSD', t: T0 + 1000, p: 100, size: 1 },
      { symbol: 'BTCUSD', t: T0, p: 100, size: 1 },
      { symbol: 'BTCUSD', t: T0 + 2000, p: -5, size: 1 },
      { symbol: 'BTCUSD', t: T0 + 70_000, p: 101, size: 1 },
    ];
    const faults: { line: number; fault: RowFault }[] = [];
    const refused = await importTickFile(store, 't.csv', rowsOf(ticks), options(faults));
    expect(refused.outcome).toBe('rejected');
    expect(faults.map((f) => [f.line, f.fault.rule])).toEqual([[2, 'order']]);
    expect(storedBars(store, store.registry.bySymbolName('BTCUSD')!.id, '1m', 0)).toEqual([]);
    faults.length = 0;
    const done = await importTickFile(store, 't.csv', rowsOf(ticks), { ...options(faults), maxFaults: 5 });
    expect(faults.map((f) => [f.line, f.fault.rule])).toEqual([
      [2, 'order'],
      [3, 'finite'],
    ]);
    expect(done.outcome).toBe('applied');
    expect(storedBars(store, store.registry.bySymbolName('BTCUSD')!.id, '1m', 0).map((b) => [b.t, b.o, b.c])).toEqual([
      [T0, 100, 100],
      [T0 + 60_000, 101, 101],
    ]);
    await store.close();
  });

  test('a quote with a size of 0 is an empty side: a fault with its line, never a bid_size 0', async () => {
    using dir = tempDir();
    const store = Store.open({ dataDir: dir.path });
    seedRegistry(store, CATALOG);
    const ticks: Tick[] = [
      { symbol: 'EURUSD', t: T0, p: 1.1, size: 0, quoteSize: 1_000_000 },
      { symbol: 'EURUSD', t: T0 + 1000, p: 1.2, size: 0, quoteSize: 0 },
      { symbol: 'EURUSD', t: T0 + 2000, p: 1.1, size: 0 },
    ];
    const faults: { line: number; fault: RowFault }[] = [];
    const done = await importTickFile(store, 't.csv', rowsOf(ticks), { ...options(faults), maxFaults: 5 });
    expect(faults.map((f) => [f.line, f.fault.rule])).toEqual([[2, 'finite']]);
    expect(faults[0]!.fault.message).toContain('a side of size 0 is empty');
    expect(done.outcome).toBe('applied');
    expect(done.ticks).toMatchObject({ quotes: 2 });
    await store.close();
  });
});
