// The import of bar rows into a data dir with no server: staged whole, applied, coarser bars
// rolled up from the minutes like live bars; faults reported by line and rule; a file past the
// fault bound leaves nothing; re-importing changes nothing; skip and replace at stored bars.
import { describe, expect, test } from 'bun:test';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Bar } from '../../../src/domain/bar.ts';
import type { RowFault } from '../../../src/domain/bar-import.ts';
import { DAY_MS, MINUTE_MS } from '../../../src/domain/timeframes.ts';
import { importBarFile, type FileImportOptions } from '../../../src/ingest/importers/history/import-bar-file.ts';
import type { BarRows } from '../../../src/ingest/importers/history/stage-bars.ts';
import { CATALOG } from '../../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../../src/store/index.ts';
import { checkRollUps, storedBars } from '../../support/bar-rollups.ts';
import { tempDir } from '../../support/temp-dir.ts';

const DAY0 = Date.UTC(2026, 0, 5);
const NOW = Date.UTC(2026, 1, 1);

interface Row {
  symbol: string;
  t: number;
  o: number;
  h: number;
  l: number;
  c: number;
  v: number;
}

function rowsOf(rows: readonly Row[], batch = 1000): AsyncIterable<BarRows> {
  return (async function* () {
    for (let at = 0; at < rows.length; at += batch) {
      const part = rows.slice(at, at + batch);
      yield {
        length: part.length,
        line: part.map((_, i) => at + i + 2),
        symbol: part.map((r) => r.symbol),
        classHint: part.map(() => null),
        tMs: part.map((r) => r.t),
        o: part.map((r) => r.o),
        h: part.map((r) => r.h),
        l: part.map((r) => r.l),
        c: part.map((r) => r.c),
        v: part.map((r) => r.v),
        bytesRead: at + part.length,
      };
    }
  })();
}

/** A random walk of minutes for a symbol. */
function minutes(symbol: string, fromMs: number, n: number, seed = 1, stepMs = MINUTE_MS): Row[] {
  let price = 100 + seed;
  const out: Row[] = [];
  for (let i = 0; i < n; i++) {
    const o = price;
    price = Math.round((price + Math.sin(i * 0.7 + seed) * 0.5) * 100) / 100;
    const c = price;
    out.push({ symbol, t: fromMs + i * stepMs, o, h: Math.max(o, c) + 0.25, l: Math.min(o, c) - 0.25, c, v: ((i * 37 + seed) % 50) + 0.125 });
  }
  return out;
}

function options(faults: { line: number; fault: RowFault }[] = [], extra: Partial<FileImportOptions> = {}): FileImportOptions {
  return { timeframe: '1m', assetClass: null, createSymbols: false, dailyZones: [], nowMs: NOW, onConflict: 'skip', maxFaults: 0, serverPid: null, onFault: (line, fault) => faults.push({ line, fault }), ...extra };
}

function openSeeded(path: string): Store {
  const store = Store.open({ dataDir: path });
  seedRegistry(store, CATALOG);
  return store;
}

describe('import bars (no server)', () => {
  test('minutes of several symbols are stored, and every coarser bar is their roll-up', async () => {
    using dir = tempDir();
    const store = openSeeded(dir.path);
    const rows = [...minutes('BTCUSDT', DAY0, 3 * 1440, 1), ...minutes('ETHUSD', DAY0 + 90 * MINUTE_MS, 2000, 2)];
    const done = await importBarFile(store, 'a.csv', rowsOf(rows), options([], { assetClass: 'crypto' }));
    expect(done.outcome).toBe('applied');
    expect(done.report).toMatchObject({ rows: rows.length, staged: rows.length, faults: 0, series: 2 });
    const btc = store.registry.resolve('crypto', 'BTCUSD')!;
    expect(storedBars(store, btc.id, '1m', 0)).toHaveLength(3 * 1440);
    expect(storedBars(store, btc.id, '1d', 0).map((b) => b.t)).toEqual([DAY0, DAY0 + DAY_MS, DAY0 + 2 * DAY_MS]);
    expect(done.result!.written).toMatchObject({ '1m': rows.length, '1d': 3 + 2, '4h': 18 + 9 });
    const rollups = checkRollUps(store, DAY0);
    expect(rollups.mismatches).toEqual([]);
    expect(rollups.series).toBe(2);
    // Nothing staged is left behind.
    expect(store.imports.get(done.importId)?.state).toBe('applied');
    expect(existsSync(join(dir.path, 'imports', `${done.importId}.stage`))).toBe(false);

    const again = await importBarFile(store, 'a.csv', rowsOf(rows), options([], { assetClass: 'crypto' }));
    expect(again.result).toMatchObject({ added: 0, replaced: 0, kept: 0, unchanged: rows.length, written: {} });
    await store.close();
  });

  test('bars written are counted once per bar, across the staged blocks of a series (issue 28)', async () => {
    using dir = tempDir();
    const store = openSeeded(dir.path);
    // 20,003 minutes: three staged blocks of 8,192, whose edges fall inside 5m, 1h and 1d bars.
    const rows = [...minutes('BTCUSD', DAY0 + 7 * MINUTE_MS, 20_003, 3), ...minutes('ETHUSD', DAY0, 9_000, 5)];
    const counts = (): Record<string, number> => {
      const out: Record<string, number> = {};
      for (const symbol of ['BTCUSD', 'ETHUSD']) {
        const id = store.registry.resolve('crypto', symbol)!.id;
        for (const tf of ['1m', '5m', '15m', '1h', '4h', '1d'] as const) out[tf] = (out[tf] ?? 0) + storedBars(store, id, tf, 0).length;
      }
      return out;
    };
    const first = await importBarFile(store, 'a.csv', rowsOf(rows, 4096), options([], { assetClass: 'crypto' }));
    // New series: every bar stored is one the import wrote.
    expect(first.result!.written).toEqual(counts());
    // Every price changed, replaced: again every stored bar is written once.
    const changed = rows.map((r) => ({ ...r, o: r.o + 1, h: r.h + 1, l: r.l + 1, c: r.c + 1 }));
    const second = await importBarFile(store, 'b.csv', rowsOf(changed, 4096), options([], { assetClass: 'crypto', onConflict: 'replace' }));
    expect(second.result!.written).toEqual(counts());
    await store.close();
  });

  test('files in any split, any order of files, give the same bars as one file', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 1, max: 2999 }), { maxLength: 4 }), fc.boolean(), async (cuts, reverse) => {
        using a = tempDir();
        using b = tempDir();
        const rows = minutes('BTCUSD', DAY0 + 13 * MINUTE_MS, 3000, 4);
        const one = openSeeded(a.path);
        await importBarFile(one, 'all.csv', rowsOf(rows), options());
        const many = openSeeded(b.path);
        const bounds = [0, ...new Set(cuts)].sort((x, y) => x - y).concat(rows.length);
        const parts = bounds.slice(0, -1).map((from, i) => rows.slice(from, bounds[i + 1]));
        for (const part of reverse ? parts.reverse() : parts) await importBarFile(many, 'part.csv', rowsOf(part, 333), options());
        const id = one.registry.resolve('crypto', 'BTCUSD')!.id;
        for (const tf of ['1m', '5m', '15m', '1h', '4h', '1d'] as const) expect(storedBars(many, id, tf, 0)).toEqual(storedBars(one, id, tf, 0));
        expect(checkRollUps(many, DAY0).mismatches).toEqual([]);
        await one.close();
        await many.close();
      }),
      { numRuns: 12 },
    );
  });

  test('bad rows are reported by line and rule; past the bound the file leaves nothing', async () => {
    using dir = tempDir();
    const store = openSeeded(dir.path);
    const rows = minutes('BTCUSD', DAY0, 100);
    rows[3] = { ...rows[3]!, l: rows[3]!.h + 1 };
    rows[5] = { ...rows[5]!, t: rows[5]!.t + 30_000 };
    rows[7] = { ...rows[7]!, t: rows[6]!.t };
    rows[9] = { ...rows[9]!, v: -1 };
    rows[11] = { ...rows[11]!, c: Number.NaN };
    rows[13] = { ...rows[13]!, symbol: 'NOPEUSD' };
    rows[14] = { ...rows[14]!, symbol: 'NOPEUSD' };
    rows.push({ ...rows[0]!, t: NOW });
    const faults: { line: number; fault: RowFault }[] = [];
    const done = await importBarFile(store, 'bad.csv', rowsOf(rows), options(faults, { assetClass: 'crypto', maxFaults: 3 }));
    expect(done.outcome).toBe('rejected');
    expect(faults.map((f) => [f.line, f.fault.rule])).toEqual([
      [5, 'ohlc'],
      [7, 'aligned'],
      [9, 'order'],
      [11, 'volume'],
    ]);
    expect(faults[2]!.fault.message).toContain('a second bar for BTCUSD at 2026-01-05T00:06:00Z (first on line 8)');
    const id = store.registry.resolve('crypto', 'BTCUSD')!.id;
    expect(storedBars(store, id, '1m', 0)).toEqual([]);
    expect(store.imports.get(done.importId)).toBeUndefined();

    faults.length = 0;
    const within = await importBarFile(store, 'bad.csv', rowsOf(rows), options(faults, { assetClass: 'crypto', maxFaults: 100 }));
    expect(within.outcome).toBe('applied');
    expect(faults.map((f) => [f.line, f.fault.rule])).toEqual([
      [5, 'ohlc'],
      [7, 'aligned'],
      [9, 'order'],
      [11, 'volume'],
      [13, 'finite'],
      [15, 'symbol'],
      [102, 'complete'],
    ]);
    expect(within.report).toMatchObject({ rows: 101, faults: 8, staged: 93 });
    expect(storedBars(store, id, '1m', 0)).toHaveLength(93);
    await store.close();
  });

  test('unknown symbols are added with --create-symbols, only once the file passed', async () => {
    using dir = tempDir();
    const store = openSeeded(dir.path);
    const rows = minutes('ZZZUSD', DAY0, 10);
    const refused = await importBarFile(store, 'z.csv', rowsOf([...rows, { ...rows[0]!, l: 1e9 }]), options([], { assetClass: 'crypto', createSymbols: true }));
    expect(refused.outcome).toBe('rejected');
    expect(store.registry.resolve('crypto', 'ZZZUSD')).toBeUndefined();
    const done = await importBarFile(store, 'z.csv', rowsOf(rows), options([], { assetClass: 'crypto', createSymbols: true }));
    expect(done.outcome).toBe('applied');
    const entry = store.registry.resolve('crypto', 'ZZZUSD')!;
    expect(entry).toMatchObject({ symbol: 'ZZZUSD', assetClass: 'crypto', listed: true, decimals: 2 });
    expect(storedBars(store, entry.id, '1m', 0)).toHaveLength(10);
    await store.close();
  });

  test('at stored bars, skip keeps them and replace overwrites; a daily bar not rolled up from minutes is kept under skip', async () => {
    using dir = tempDir();
    const store = openSeeded(dir.path);
    const id = store.registry.resolve('crypto', 'BTCUSD')!.id;
    // A daily bar from elsewhere (a daily import) for DAY0, and some minutes of DAY0.
    const daily: Bar = { t: DAY0, o: 1, h: 500, l: 0.5, c: 2, v: 9 };
    await importBarFile(store, 'd.csv', rowsOf([{ symbol: 'BTCUSD', ...daily, v: 9 }]), options([], { timeframe: '1d' }));
    expect(storedBars(store, id, '1d', 0)).toEqual([daily]);
    const first = minutes('BTCUSD', DAY0, 60, 1);
    const skip = await importBarFile(store, 'm.csv', rowsOf(first), options());
    expect(skip.result!.kept).toBe(1);
    expect(storedBars(store, id, '1d', 0)).toEqual([daily]);
    const changed = first.map((r) => ({ ...r, h: r.h + 1 }));
    const again = await importBarFile(store, 'm.csv', rowsOf(changed), options());
    expect(again.result).toMatchObject({ added: 0, replaced: 0, kept: 60, written: {} });
    expect(storedBars(store, id, '1m', 0).map((b) => b.h)).toEqual(first.map((r) => r.h));
    const replaced = await importBarFile(store, 'm.csv', rowsOf(changed), options([], { onConflict: 'replace' }));
    expect(replaced.result).toMatchObject({ replaced: 60 });
    expect(storedBars(store, id, '1m', 0).map((b) => b.h)).toEqual(changed.map((r) => r.h));
    expect(checkRollUps(store, DAY0).mismatches).toEqual([]);
    await store.close();
  });

  test('daily rows dated at New York midnight become the UTC-dated daily bar; US minutes outside the session are left out', async () => {
    using dir = tempDir();
    const store = openSeeded(dir.path);
    const aapl = store.registry.resolve('stocks', 'US:AAPL')!;
    // 2026-01-05 00:00 New York = 05:00Z.
    const ny = { symbol: 'AAPL', t: DAY0 + 5 * 3_600_000, o: 10, h: 11, l: 9, c: 10.5, v: 1000 };
    const daily = await importBarFile(store, 'day.csv', rowsOf([ny, { ...ny, t: ny.t + DAY_MS + 3_600_000 }]), options([], { timeframe: '1d', maxFaults: 1 }));
    expect(daily.report).toMatchObject({ staged: 1, faults: 1, byRule: { aligned: 1 } });
    expect(storedBars(store, aapl.id, '1d', 0).map((b) => b.t)).toEqual([DAY0]);
    // 13:00Z–15:00Z: the session opens 14:30Z.
    const rows = minutes('AAPL', DAY0 + 13 * 3_600_000, 120);
    const done = await importBarFile(store, 'min.csv', rowsOf(rows), options());
    expect(done.report).toMatchObject({ outsideSession: 90, staged: 30 });
    expect(storedBars(store, aapl.id, '1m', 0)[0]!.t).toBe(DAY0 + 14.5 * 3_600_000);
    await store.close();
  });
});
