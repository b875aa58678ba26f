import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../../src/clock.ts';
import type { InstrumentSpec, SymbolEntry } from '../../src/domain/instrument.ts';
import { HOUR_MS } from '../../src/domain/timeframes.ts';
import { Pipeline } from '../../src/ingest/pipeline.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { sigmaOver } from '../../src/ingest/simulator/price-model.ts';
import { Simulator } from '../../src/ingest/simulator/simulator.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

type Tick =
  | { kind: 'quote'; symbol: string; assetClass: string; seq: number; tsMs: number; bid: number; ask: number; bidSize: number | null; askSize: number | null }
  | { kind: 'trade'; symbol: string; assetClass: string; seq: number; tsMs: number; price: number; size: number | null };

/** Runs the simulator over a fresh store seeded with the catalog, stepping at each instant; returns what a listener received. */
async function simulate(seed: number, instants: readonly number[], rates: { quotesPerSecond?: number; tradesPerSecond?: number } = {}): Promise<Tick[]> {
  using dir = tempDir();
  const store = Store.open({ dataDir: dir.path });
  seedRegistry(store, CATALOG);
  const clock = new ManualClock(instants[0]!);
  const pipeline = new Pipeline(store, clock);
  const ticks: Tick[] = [];
  const id = (e: SymbolEntry) => ({ symbol: e.symbol, assetClass: e.assetClass });
  pipeline.subscribe({
    onQuote: (e, seq, q) => ticks.push({ kind: 'quote', ...id(e), seq, ...q }),
    onTrade: (e, seq, tsMs, price, size) => ticks.push({ kind: 'trade', ...id(e), seq, tsMs, price, size }),
  });
  const simulator = new Simulator(store, CATALOG, pipeline, clock, { seed, ...rates });
  for (const t of instants) {
    clock.set(t);
    simulator.step(t);
  }
  await store.close();
  return ticks;
}

function every(fromIso: string, count: number, stepMs: number): number[] {
  const from = Date.parse(fromIso);
  return Array.from({ length: count }, (_, i) => from + i * stepMs);
}

const SPEC_BY_SYMBOL = new Map<string, InstrumentSpec>(CATALOG.map((s) => [s.symbol, s]));

describe('Simulator', () => {
  test('the same seed and the same instants give identical ticks; another seed gives different ones', async () => {
    const instants = every('2026-03-04T15:00:00Z', 30, 100);
    const a = await simulate(42, instants);
    const b = await simulate(42, instants);
    const c = await simulate(43, instants);
    expect(a.length).toBeGreaterThan(100);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  test('a higher rate (as --sim-rate asks) gives proportionally more venue ticks, beyond one per venue per step', async () => {
    const instants = every('2026-03-04T15:00:00Z', 20, 100);
    const base = await simulate(5, instants);
    const fast = await simulate(5, instants, { quotesPerSecond: 4 * 20, tradesPerSecond: 20 });
    const count = (ticks: Tick[], kind: Tick['kind']) => ticks.filter((t) => t.kind === kind).length;
    // 20x the venue quotes: consolidated quotes grow too (each venue update moves the composite or the best quote).
    expect(count(fast, 'quote')).toBeGreaterThan(count(base, 'quote') * 8);
    expect(count(fast, 'trade')).toBeGreaterThan(count(base, 'trade') * 10);
  });

  const isStockOf = (market: string) => (t: Tick) => t.assetClass === 'stocks' && t.symbol.startsWith(`${market}:`);
  test.each([
    ['DE stocks', 'after the Xetra close', isStockOf('DE'), '2026-03-04T20:00:00Z', '2026-03-04T10:00:00Z'],
    ['JP stocks', 'during the Tokyo lunch break', isStockOf('JP'), '2026-03-04T03:00:00Z', '2026-03-04T01:00:00Z'],
    ['US stocks', 'on Good Friday (NYSE closed)', isStockOf('US'), '2026-04-03T15:00:00Z', '2026-04-02T15:00:00Z'],
    ['forex', 'on Saturday', (t: Tick) => t.assetClass === 'forex', '2026-03-07T12:00:00Z', '2026-03-04T12:00:00Z'],
  ])('%s produce nothing %s, but do tick while their market is open', async (_group, _when, isInGroup, closedIso, openIso) => {
    const whileClosed = await simulate(7, every(closedIso, 50, 200));
    const whileOpen = await simulate(7, every(openIso, 50, 200));
    expect(whileClosed.filter(isInGroup)).toEqual([]);
    expect(whileClosed.length).toBeGreaterThan(0);
    expect(whileOpen.filter(isInGroup).length).toBeGreaterThan(0);
  });

  test('crypto ticks on a Sunday, quotes and trades, while stocks do not', async () => {
    const ticks = await simulate(7, every('2026-03-08T12:00:00Z', 50, 200));
    const crypto = ticks.filter((t) => t.assetClass === 'crypto');
    expect(crypto.some((t) => t.kind === 'quote')).toBe(true);
    expect(crypto.some((t) => t.kind === 'trade')).toBe(true);
    expect(ticks.filter((t) => t.assetClass === 'stocks')).toEqual([]);
  });

  test('forex quote timestamps are strictly increasing per symbol, also when the clock repeats or steps back', async () => {
    const base = every('2026-03-04T12:00:00Z', 60, 50);
    const instants = base.flatMap((t, i) => (i % 10 === 3 ? [t, t, t - 120] : [t]));
    const ticks = await simulate(11, instants);
    const lastBySymbol = new Map<string, { tsMs: number; seq: number }>();
    let checked = 0;
    for (const t of ticks) {
      if (t.assetClass !== 'forex' || t.kind !== 'quote') continue;
      const last = lastBySymbol.get(t.symbol);
      if (last) {
        expect(t.tsMs).toBeGreaterThan(last.tsMs);
        expect(t.seq).toBe(last.seq + 1);
        checked++;
      }
      lastBySymbol.set(t.symbol, { tsMs: t.tsMs, seq: t.seq });
    }
    expect(checked).toBeGreaterThan(200);
    expect([...lastBySymbol.keys()].some((s) => s.endsWith('.RAW'))).toBe(true);
  });

  test('over a simulated hour every price stays within a few sigma of the catalog level', async () => {
    const ticks = await simulate(5, every('2026-03-04T15:00:00Z', 721, 5_000));
    const classes = new Set<string>();
    const outliers: { symbol: string; price: number; level: number }[] = [];
    for (const t of ticks) {
      const spec = SPEC_BY_SYMBOL.get(t.symbol.replace(/\.RAW$/, ''))!;
      const price = t.kind === 'trade' ? t.price : (t.bid + t.ask) / 2;
      const tolerance = 6 * sigmaOver(spec, HOUR_MS) + (2 * spec.spreadBps) / 10_000 + (2 * 10 ** -spec.decimals) / spec.price;
      const drift = Math.abs(Math.log(price / spec.price));
      if (drift > tolerance) outliers.push({ symbol: t.symbol, price, level: spec.price });
      classes.add(t.assetClass);
    }
    expect(outliers).toEqual([]);
    expect(ticks.length).toBeGreaterThan(10_000);
    expect([...classes].sort()).toEqual(['commodities', 'crypto', 'etfs', 'forex', 'indices', 'stocks']);
  });
});
