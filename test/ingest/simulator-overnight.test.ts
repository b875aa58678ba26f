// The simulator's US overnight lines (issue 8): they quote and trade only inside the overnight
// session, through the normal pipeline under their own symbol ids, with thinner books and wider
// spreads than the regular session's lines of the same names.
import { describe, expect, test } from 'bun:test';
import { ManualClock } from '../../src/clock.ts';
import type { SymbolEntry } from '../../src/domain/instrument.ts';
import { Pipeline } from '../../src/ingest/pipeline.ts';
import { SIMULATED } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { Simulator } from '../../src/ingest/simulator/simulator.ts';
import { Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

interface Quote {
  id: number;
  symbol: string;
  assetClass: string;
  tsMs: number;
  bid: number;
  ask: number;
  bidSize: number | null;
}

/** Runs the simulator over the catalog and the overnight lines, stepping every 200 ms from `fromIso`; returns the consolidated quotes and trades. */
async function simulate(fromIso: string, steps: number): Promise<{ quotes: Quote[]; trades: { symbol: string; assetClass: string; tsMs: number }[] }> {
  using dir = tempDir();
  const store = Store.open({ dataDir: dir.path });
  seedRegistry(store, SIMULATED);
  const from = Date.parse(fromIso);
  const clock = new ManualClock(from);
  const pipeline = new Pipeline(store, clock);
  const quotes: Quote[] = [];
  const trades: { symbol: string; assetClass: string; tsMs: number }[] = [];
  pipeline.subscribe({
    onQuote: (e: SymbolEntry, _seq, q) => quotes.push({ id: e.id, symbol: e.symbol, assetClass: e.assetClass, tsMs: q.tsMs, bid: q.bid, ask: q.ask, bidSize: q.bidSize }),
    onTrade: (e: SymbolEntry, _seq, tsMs) => trades.push({ symbol: e.symbol, assetClass: e.assetClass, tsMs }),
  });
  const simulator = new Simulator(store, SIMULATED, pipeline, clock, { seed: 11 });
  for (let i = 0; i < steps; i++) {
    const t = from + i * 200;
    clock.set(t);
    simulator.step(t);
  }
  await store.close();
  return { quotes, trades };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const relSpread = (q: Quote) => (q.ask - q.bid) / ((q.ask + q.bid) / 2);

describe('simulated overnight lines', () => {
  test('quote and trade only inside the overnight session', async () => {
    const day = await simulate('2026-03-04T15:30:00Z', 100); // Wednesday 10:30 New York
    expect(day.quotes.filter((q) => q.assetClass === 'overnight')).toEqual([]);
    expect(day.quotes.some((q) => q.assetClass === 'stocks' && q.symbol === 'US:AAPL')).toBe(true);
    const night = await simulate('2026-03-05T03:00:00Z', 100); // Wednesday 22:00 New York
    expect(night.quotes.some((q) => q.assetClass === 'overnight' && q.symbol === 'US:AAPL')).toBe(true);
    expect(night.quotes.some((q) => q.assetClass === 'overnight' && q.symbol === 'US500ETF')).toBe(true);
    expect(night.trades.some((t) => t.assetClass === 'overnight')).toBe(true);
    // US stocks are closed at night; the ETF class market (04:00-20:00) too.
    expect(night.quotes.filter((q) => q.assetClass === 'stocks' && q.symbol.startsWith('US:'))).toEqual([]);
    const friday = await simulate('2026-03-07T03:00:00Z', 50); // Friday 22:00 New York: no session
    expect(friday.quotes.filter((q) => q.assetClass === 'overnight')).toEqual([]);
  });

  test('their own symbol ids, best bid below best offer, wider spreads and smaller sizes than the regular session', async () => {
    const night = (await simulate('2026-03-05T03:00:00Z', 150)).quotes.filter((q) => q.assetClass === 'overnight' && q.symbol === 'US:AAPL');
    const day = (await simulate('2026-03-04T15:30:00Z', 150)).quotes.filter((q) => q.assetClass === 'stocks' && q.symbol === 'US:AAPL');
    expect(night.length).toBeGreaterThan(10);
    expect(day.length).toBeGreaterThan(10);
    expect(night[0]!.id).not.toBe(day[0]!.id);
    for (const q of night) expect(q.bid).toBeLessThan(q.ask);
    expect(median(night.map(relSpread))).toBeGreaterThan(2 * median(day.map(relSpread)));
    expect(median(night.map((q) => q.bidSize ?? 0))).toBeLessThan(median(day.map((q) => q.bidSize ?? 0)));
  });
});
