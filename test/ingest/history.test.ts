import { describe, expect, test } from 'bun:test';
import type { Bar } from '../../src/domain/bar.ts';
import type { InstrumentSpec, SymbolEntry } from '../../src/domain/instrument.ts';
import { DAY_MS, MINUTE_MS, TIMEFRAME_INFO, TIMEFRAMES, type Timeframe } from '../../src/domain/timeframes.ts';
import { CATALOG } from '../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../src/ingest/reference/seed-registry.ts';
import { fillGap, type HistoryPlan } from '../../src/ingest/simulator/history.ts';
import { backfillInstrument } from '../../src/ingest/simulator/history-steps.ts';
import { Rng } from '../../src/ingest/simulator/random.ts';
import { alignmentFor } from '../../src/market/bar-alignment.ts';
import { usRegularSessionAt } from '../../src/market/index.ts';
import { BAR_FIELDS, Store } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

const PLAN: HistoryPlan = { minuteDays: 2, years: 1 };
const END = Date.parse('2026-03-04T18:45:00Z');
/** With minuteDays 2 the 1-minute period starts at UTC midnight of the day before END. */
const MINUTE_FROM = Date.parse('2026-03-03T00:00:00Z');
const FAR = Date.parse('2030-01-01T00:00:00Z');
const COARSE = TIMEFRAMES.filter((tf) => tf !== '1m');
/** US regular sessions (EST) around END: 09:30–16:00 New York. */
const US_SESSIONS = ['2026-03-03', '2026-03-04', '2026-03-05'].map((d) => [Date.parse(`${d}T14:30:00Z`), Date.parse(`${d}T21:00:00Z`)] as const);

function specOf(symbol: string): InstrumentSpec {
  return CATALOG.find((s) => s.symbol === symbol)!;
}

/** Completed bars of a series from `fromMs` (kept within 64 chunks of the series, see report). */
function stored(store: Store, id: number, tf: Timeframe, fromMs: number): Bar[] {
  const d = store.barsInRange(id, tf, fromMs, FAR).data;
  const out: Bar[] = [];
  for (let i = 0; i < d.length; i += BAR_FIELDS) out.push({ t: d[i]!, o: d[i + 1]!, h: d[i + 2]!, l: d[i + 3]!, c: d[i + 4]!, v: Number.isNaN(d[i + 5]!) ? null : d[i + 5]! });
  return out;
}

/** Completed bars plus the bar in progress. */
function withOpen(store: Store, id: number, tf: Timeframe, fromMs: number): Bar[] {
  const open = store.openBar(id, tf);
  return open ? [...stored(store, id, tf, fromMs), open] : stored(store, id, tf, fromMs);
}

/** Naive roll-up of 1-minute bars into the buckets of `tf`: o first, h max, l min, c last, v sum. */
function naiveRollUp(minutes: readonly Bar[], bucketOf: (t: number) => number): Bar[] {
  const groups = new Map<number, Bar[]>();
  for (const m of minutes) groups.set(bucketOf(m.t), [...(groups.get(bucketOf(m.t)) ?? []), m]);
  return [...groups].map(([t, g]) => ({
    t,
    o: g[0]!.o,
    h: Math.max(...g.map((b) => b.h)),
    l: Math.min(...g.map((b) => b.l)),
    c: g.at(-1)!.c,
    v: g[0]!.v === null ? null : Math.round(g.reduce((sum, b) => sum + b.v!, 0) * 1e8) / 1e8,
  }));
}

/** Every minute of [fromMs, toMs) when the instrument trades: all of them for crypto, US sessions for US stocks. */
function tradingMinutes(symbol: string, fromMs: number, toMs: number): number[] {
  const out: number[] = [];
  for (let t = fromMs; t < toMs; t += MINUTE_MS) if (symbol === 'BTCUSD' || US_SESSIONS.some(([o, c]) => t >= o && t < c)) out.push(t);
  return out;
}

interface Backfilled {
  store: Store;
  entry: SymbolEntry;
  spec: InstrumentSpec;
}

async function withBackfill(symbol: string, run: (b: Backfilled) => void | Promise<void>): Promise<void> {
  using dir = tempDir();
  const store = Store.open({ dataDir: dir.path });
  const spec = specOf(symbol);
  seedRegistry(store, [spec]);
  const entry = store.registry.bySymbolName(symbol)!;
  backfillInstrument(store, entry, spec, END, PLAN, 1234);
  await run({ store, entry, spec });
  await store.close();
}

function expectRollUpsConsistent({ store, entry }: Backfilled): void {
  const align = alignmentFor(entry);
  const minutes = stored(store, entry.id, '1m', MINUTE_FROM);
  expect(minutes.length).toBeGreaterThan(0);
  for (const tf of COARSE) {
    expect({ tf, bars: withOpen(store, entry.id, tf, MINUTE_FROM) }).toEqual({ tf, bars: naiveRollUp(minutes, (t) => align.barStart(t, tf)) });
  }
}

/** The last bar of each timeframe is in progress exactly when it ends after `endMs`. */
function openTimeframes({ store, entry }: Backfilled, endMs: number): Timeframe[] {
  const align = alignmentFor(entry);
  const lastMinute = stored(store, entry.id, '1m', MINUTE_FROM).at(-1)!;
  const open: Timeframe[] = [];
  for (const tf of TIMEFRAMES) {
    const t = align.barStart(lastMinute.t, tf);
    if (align.barEnd(t, tf) > endMs) {
      expect({ tf, t: store.openBar(entry.id, tf)?.t }).toEqual({ tf, t });
      expect(store.lastCompletedBarT(entry.id, tf)!).toBeLessThan(t);
      open.push(tf);
    } else {
      expect({ tf, open: store.openBar(entry.id, tf) }).toEqual({ tf, open: undefined });
      expect({ tf, last: store.lastCompletedBarT(entry.id, tf) }).toEqual({ tf, last: t });
    }
  }
  return open;
}

describe.each(['BTCUSD', 'US:AAPL'])('backfillInstrument (%s)', (symbol) => {
  test('every 5m/15m/1h/4h/1d bar over the 1-minute period equals the roll-up of the stored 1-minute bars', async () => {
    await withBackfill(symbol, (b) => expectRollUpsConsistent(b));
  });

  test('1-minute bars cover exactly the trading minutes of the 1-minute period', async () => {
    await withBackfill(symbol, ({ store, entry }) => {
      const minutes = stored(store, entry.id, '1m', MINUTE_FROM - DAY_MS).map((b) => b.t);
      expect(minutes).toEqual(tradingMinutes(symbol, MINUTE_FROM, END));
      if (symbol === 'US:AAPL') for (const t of minutes) expect(usRegularSessionAt(t)!.closeMs).toBeGreaterThanOrEqual(t + MINUTE_MS);
    });
  });

  test('bars of every timeframe satisfy l <= min(o, c) <= max(o, c) <= h', async () => {
    await withBackfill(symbol, ({ store, entry }) => {
      for (const tf of TIMEFRAMES) {
        const bars = withOpen(store, entry.id, tf, END - (TIMEFRAME_INFO[tf].maxSpanDays + 2) * DAY_MS);
        expect({ tf, some: bars.length > 0 }).toEqual({ tf, some: true });
        const broken = bars.filter((b) => !(b.l <= Math.min(b.o, b.c) && Math.max(b.o, b.c) <= b.h && b.l > 0));
        expect({ tf, broken }).toEqual({ tf, broken: [] });
      }
    });
  });

  test('daily bars reach back the planned year and end with the day in progress', async () => {
    await withBackfill(symbol, ({ store, entry }) => {
      const days = withOpen(store, entry.id, '1d', END - 400 * DAY_MS);
      expect(days[0]!.t).toBeLessThanOrEqual(END - 360 * DAY_MS);
      expect(days.at(-1)!.t).toBe(Date.parse('2026-03-04T00:00:00Z'));
      expect(days.map((d) => d.t)).toEqual([...new Set(days.map((d) => d.t))].sort((a, b) => a - b));
    });
  });

  test('the last bar of each timeframe is left in progress when it ends after endMs (1h, 4h, 1d at 18:45Z)', async () => {
    await withBackfill(symbol, (b) => expect(openTimeframes(b, END)).toEqual(['1h', '4h', '1d']));
  });

  test('fillGap after moving endMs forward continues from the last close with no duplicate or missing minute', async () => {
    const end2 = symbol === 'BTCUSD' ? END + 5 * 60 * MINUTE_MS : Date.parse('2026-03-05T16:07:00Z');
    await withBackfill(symbol, (b) => {
      const { store, entry, spec } = b;
      const before = stored(store, entry.id, '1m', MINUTE_FROM);
      const added = fillGap(store, entry, spec, end2, 7, new Rng(99));
      const after = stored(store, entry.id, '1m', MINUTE_FROM);
      expect(after.map((m) => m.t)).toEqual(tradingMinutes(symbol, MINUTE_FROM, end2));
      expect(added).toBe(after.length - before.length);
      expect(added).toBeGreaterThan(0);
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after[before.length]!.o).toBe(before.at(-1)!.c);
      expectRollUpsConsistent(b);
      expect(openTimeframes(b, end2)).toContain('1d');
    });
  });
});

describe('fillGap', () => {
  test('with no new minutes (market closed) completes the daily bar in progress once its day has ended', async () => {
    await withBackfill('US:AAPL', (b) => {
      const { store, entry, spec } = b;
      expect(fillGap(store, entry, spec, Date.parse('2026-03-04T23:00:00Z'), 7, new Rng(5))).toBe(135);
      expect(store.openBar(entry.id, '1d')?.t).toBe(Date.parse('2026-03-04T00:00:00Z'));
      expect(fillGap(store, entry, spec, Date.parse('2026-03-05T01:00:00Z'), 7, new Rng(6))).toBe(0);
      expect(store.openBar(entry.id, '1d')).toBeUndefined();
      expect(store.lastCompletedBarT(entry.id, '1d')).toBe(Date.parse('2026-03-04T00:00:00Z'));
      expectRollUpsConsistent(b);
    });
  });

  test('a minute left in progress by the last run is completed into every timeframe, not into 1m alone', async () => {
    await withBackfill('BTCUSD', (b) => {
      const { store, entry, spec } = b;
      // As the bar builder leaves it: the minute in progress at END, not yet in any coarse bar.
      const leftover = { t: END, o: 70_000, h: 70_100, l: 69_900, c: 70_050, v: 2.5 };
      store.setOpenBar(entry.id, '1m', leftover);
      expect(fillGap(store, entry, spec, END + 7 * MINUTE_MS, 7, new Rng(3))).toBe(6);
      expect(store.openBar(entry.id, '1m')).toBeUndefined();
      expect(stored(store, entry.id, '1m', END)[0]).toEqual(leftover);
      expectRollUpsConsistent(b);
    });
  });

  // Regression: appending to a chunk already on disk after a reopen used to throw a RangeError
  // (src/store/bars.ts loadChunk copied getBinaryFast's shared buffer by its byteLength).
  test('after reopening the store, fillGap continues the history from the last stored minute', async () => {
    using dir = tempDir();
    const spec = specOf('BTCUSD');
    let store = Store.open({ dataDir: dir.path });
    seedRegistry(store, [spec]);
    backfillInstrument(store, store.registry.bySymbolName('BTCUSD')!, spec, END, PLAN, 1234);
    await store.close();
    store = Store.open({ dataDir: dir.path });
    const entry = store.registry.bySymbolName('BTCUSD')!;
    expect(() => fillGap(store, entry, spec, END + 30 * MINUTE_MS, 7, new Rng(99))).not.toThrow();
    expect(stored(store, entry.id, '1m', MINUTE_FROM).map((m) => m.t)).toEqual(tradingMinutes('BTCUSD', MINUTE_FROM, END + 30 * MINUTE_MS));
    expectRollUpsConsistent({ store, entry, spec });
    await store.close();
  });
});
