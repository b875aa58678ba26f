// An import cut short: a file staged but not applied (the process that was to apply it died) is
// applied by the next server at its start; a staging whose import process died is dropped, and
// nothing of it reaches the bars.
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RowFault } from '../../../src/domain/bar-import.ts';
import { importBarFile } from '../../../src/ingest/importers/history/import-bar-file.ts';
import type { BarRows } from '../../../src/ingest/importers/history/stage-bars.ts';
import { ALL_INSTRUMENTS } from '../../../src/ingest/reference/catalog.ts';
import { seedRegistry } from '../../../src/ingest/reference/seed-registry.ts';
import { Store } from '../../../src/store/index.ts';
import { until } from '../../support/cli.ts';
import { startServer } from '../../support/server.ts';

const DAY_MS = Date.UTC(2024, 0, 2);

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const proc = Bun.spawn(['true']);
  await proc.exited;
  return proc.pid;
}

function minutes(n: number): AsyncIterable<BarRows> {
  return (async function* () {
    const idx = Array.from({ length: n }, (_, i) => i);
    yield {
      length: n,
      line: idx.map((i) => i + 2),
      symbol: idx.map(() => 'ETHUSD'),
      classHint: idx.map(() => 'crypto' as const),
      tMs: idx.map((i) => DAY_MS + i * 60_000),
      o: idx.map((i) => 2000 + i),
      h: idx.map((i) => 2002 + i),
      l: idx.map((i) => 1999 + i),
      c: idx.map((i) => 2001 + i),
      v: idx.map(() => 1),
      bytesRead: 0,
    };
  })();
}

const options = (serverPid: number) => ({ timeframe: '1m' as const, assetClass: null, createSymbols: false, dailyZones: [], nowMs: Date.now(), onConflict: 'skip' as const, maxFaults: 0, serverPid, onFault: (_line: number, _fault: RowFault) => {} });

describe('imports cut short', () => {
  test('a staged file is applied by the next server start; a dead import staging is dropped', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mds-recover-'));
    try {
      const store = Store.open({ dataDir });
      seedRegistry(store, ALL_INSTRUMENTS);
      // Staged while a server was to apply it, and that server died before it did.
      const staged = await importBarFile(store, 'staged.csv', minutes(90), options(await deadPid()));
      expect(staged.outcome).toBe('pending');
      expect(store.imports.get(staged.importId)?.state).toBe('staged');
      // An import process that died while staging: its record and half a staging file.
      const dead = store.imports.begin('half.csv', 'skip', await deadPid(), Date.now());
      store.imports.stageBlock(dead.id, new Float64Array([DAY_MS + 600 * 60_000, 1, 1, 1, 1, 1]), 1);
      await store.close();
      expect(existsSync(join(dataDir, 'imports', `${dead.id}.stage`))).toBe(true);

      // Minutes of 2024 are past the default retention: keep them, or the first retention pass races the apply.
      await using server = await startServer({ dataDir, args: ['--feed', 'none', '--retain', '1m=forever,5m=forever,15m=forever,1h=forever'] });
      const bars = async () => ((await (await server.get('/crypto/agg/ETHUSD/1/minute/2024-01-02/2024-01-02?sort=asc')).json()) as { results_count: number }).results_count;
      await until(async () => (await bars()) === 90, 'the staged import to be applied at start');
      expect(server.logs.some((l) => l.includes('half.csv') && l.includes('is gone; dropping what it staged'))).toBe(true);
      await until(async () => !existsSync(join(dataDir, 'imports', `${dead.id}.stage`)), 'the dead staging to be removed');
      // The outcome is recorded and the staging removed once the bars are written.
      await until(async () => !existsSync(join(dataDir, 'imports', `${staged.importId}.stage`)), 'the applied staging to be removed');
      const hour = (await (await server.get('/crypto/agg/ETHUSD/1/hour/2024-01-02/2024-01-02?sort=asc')).json()) as { results: { o: number; c: number }[] };
      expect(hour.results.map((b) => [b.o, b.c])).toEqual([
        [2000, 2060],
        [2060, 2090],
      ]);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
