// An import is whole or nothing, in the store and in every backup (issue 29, part 3): the process
// applying it (a server, or `mds import` alone) is held at a chosen point of its apply by the test
// hook MDS_TEST_APPLY_HOLD and killed there with SIGKILL; `mds backup` then copies the data dir,
// and a server on the copy and one on the original each finish the import: every bar of it is
// served, and /health says the store is half-applied until the apply is finished.
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { backupStore, Store } from '../../src/store/index.ts';
import { runMds, runMdsWith, until } from '../support/cli.ts';

const MAIN = resolve(import.meta.dir, '../../src/main.ts');
const KEY = 'test-key-0123456789';
const DAY = '2024-01-02';
const DAY_MS = Date.parse(`${DAY}T00:00:00Z`);
/** One series each: the apply merges one staged block per symbol, so a hold after N blocks leaves N symbols applied. */
const SYMBOLS = ['BTCUSD', 'ETHUSD', 'SOLUSD'];
const MINUTES = 150;
/** 2024 is past the default retention of minutes: kept, or a retention pass would race the checks. */
const RETAIN = ['--retain', '1m=forever,5m=forever,15m=forever,1h=forever,4h=forever'];

let work: string;
let file: string;
beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'mds-atomic-'));
  const lines = ['time,symbol,open,high,low,close,volume'];
  for (const [k, symbol] of SYMBOLS.entries()) {
    for (let i = 0; i < MINUTES; i++) {
      const o = 100 * (k + 1) + i;
      lines.push(`${new Date(DAY_MS + i * 60_000).toISOString()},${symbol},${o},${o + 2},${o - 1},${o + 1},1`);
    }
  }
  file = join(work, 'three-symbols.csv');
  writeFileSync(file, `${lines.join('\n')}\n`);
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Served {
  base: string;
  proc: ReturnType<typeof Bun.spawn>;
  json<T = any>(path: string): Promise<T>;
  [Symbol.asyncDispose](): Promise<void>;
}

function env(extra: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('MDS_') && v !== undefined) out[k] = v;
  return { ...out, ...extra };
}

/** `mds serve` as a child process (no feed), resolved once it listens; `hold` arms the apply hold. */
async function serve(dataDir: string, hold?: string): Promise<Served> {
  const proc = Bun.spawn([process.execPath, MAIN, 'serve', '--port', '0', '--host', '127.0.0.1', '--feed', 'none', '--dev-key', KEY, '--data-dir', dataDir, ...RETAIN], {
    stdout: 'pipe',
    stderr: 'pipe',
    env: env(hold ? { MDS_TEST_APPLY_HOLD: hold } : {}),
  });
  const reader = (proc.stdout as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let out = '';
  let port = 0;
  while (port === 0) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`mds serve exited before listening:\n${out}\n${await new Response(proc.stderr as ReadableStream).text()}`);
    out += decoder.decode(value);
    port = Number(/serving REST on http:\/\/[^:]+:(\d+)/.exec(out)?.[1] ?? 0);
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  void new Response(proc.stderr as ReadableStream).text();
  const base = `http://127.0.0.1:${port}`;
  return {
    base,
    proc,
    json: async <T>(path: string) => (await (await fetch(base + path, { headers: { 'x-api-key': KEY } })).json()) as T,
    [Symbol.asyncDispose]: async () => {
      if (proc.exitCode === null) proc.kill('SIGKILL');
      await proc.exited;
    },
  };
}

/** The import's bars a server serves, per symbol: [minutes, hours]. */
async function served(server: Served): Promise<[number, number][]> {
  const out: [number, number][] = [];
  for (const symbol of SYMBOLS) {
    const minutes = await server.json<{ results_count: number }>(`/crypto/agg/${symbol}/1/minute/${DAY}/${DAY}`);
    const hours = await server.json<{ results_count: number }>(`/crypto/agg/${symbol}/1/hour/${DAY}/${DAY}`);
    out.push([minutes.results_count, hours.results_count]);
  }
  return out;
}

const WHOLE = SYMBOLS.map((): [number, number] => [MINUTES, 3]);

interface Health {
  status: string;
  reason: string | null;
  half_applied_imports?: { id: number; source: string; state: string; error: string | null }[];
}

/** Arms a hold at `blocks` blocks: returns the hold setting and a wait for the held point. */
function armHold(name: string, blocks: number): { setting: string; held: () => Promise<number>; release: () => void } {
  const path = join(work, name);
  writeFileSync(path, '');
  return {
    setting: `${path}:${blocks}`,
    held: async () => {
      await until(async () => existsSync(`${path}.held`), `the apply to be held at ${name}`, 30_000);
      return Number(readFileSync(`${path}.held`, 'utf8'));
    },
    release: () => rmSync(path, { force: true }),
  };
}

/** Starts a server on `dataDir` held before its first block; proves /health says half-applied, releases, and proves the import whole. */
async function provesFinished(dataDir: string, importId: number, name: string): Promise<void> {
  const hold = armHold(name, 0);
  await using server = await serve(dataDir, hold.setting);
  expect(await hold.held()).toBe(importId);
  const health = await server.json<Health>('/health');
  expect(health).toMatchObject({ status: 'degraded', half_applied_imports: [{ id: importId, source: file, state: 'resuming', error: null }] });
  expect(health.reason).toContain(`history import ${importId} (${file}) is half-applied: a stop cut it short`);
  hold.release();
  await until(async () => (await server.json<Health>('/health')).status === 'ok', 'the cut-short import to be finished', 30_000);
  expect((await server.json<Health>('/health')).half_applied_imports).toBeUndefined();
  expect(await served(server)).toEqual(WHOLE);
}

describe('an import killed during its apply is whole in the store and in a backup', () => {
  test.each([0, 2])('server killed with SIGKILL after %i of 3 blocks applied', async (blocks) => {
    const dataDir = mkdtempSync(join(work, 'data-'));
    const copyDir = join(work, `copy-server-${blocks}`);
    const hold = armHold(`server-${blocks}`, blocks);
    let importId: number;
    {
      await using server = await serve(dataDir, hold.setting);
      const importing = runMds('import', 'bars', file, '--data-dir', dataDir);
      importId = await hold.held();
      // Held: the store holds exactly the first `blocks` symbols, and says an import is being applied.
      expect(await served(server)).toEqual(SYMBOLS.map((_, k): [number, number] => (k < blocks ? [MINUTES, 3] : [0, 0])));
      expect(await server.json<Health>('/health')).toMatchObject({ status: 'ok', half_applied_imports: [{ id: importId, state: 'applying' }] });
      server.proc.kill('SIGKILL');
      await server.proc.exited;
      const r = await importing;
      expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: expect.stringContaining('staged, but the server stopped before applying it') });
    }
    const backup = await runMds('backup', '--data-dir', dataDir, '--to', copyDir);
    expect(backup.code).toBe(0);
    expect(backup.out).toContain('1 history import(s) were being applied');
    expect(readdirSync(join(copyDir, 'imports'))).toEqual([`${importId}.stage`]);
    await provesFinished(copyDir, importId, `copy-${blocks}`);
    await provesFinished(dataDir, importId, `original-${blocks}`);
  }, 120_000);

  test('mds import alone (it applies the file itself) killed with SIGKILL after 1 of 3 blocks', async () => {
    const dataDir = mkdtempSync(join(work, 'data-'));
    const copyDir = join(work, 'copy-alone');
    const hold = armHold('alone', 1);
    const importing = Bun.spawn([process.execPath, MAIN, 'import', 'bars', file, '--data-dir', dataDir], { stdout: 'pipe', stderr: 'pipe', env: env({ MDS_TEST_APPLY_HOLD: hold.setting }) });
    const importId = await hold.held();
    importing.kill('SIGKILL');
    expect(await importing.exited).not.toBe(0);
    const backup = await runMds('backup', '--data-dir', dataDir, '--to', copyDir);
    expect(backup.code).toBe(0);
    expect(readdirSync(join(copyDir, 'imports'))).toEqual([`${importId}.stage`]);
    await provesFinished(copyDir, importId, 'alone-copy');
    // The next import alone on the original owns the writes: it finishes the cut-short one first.
    const next = join(work, 'next.csv');
    writeFileSync(next, `time,symbol,open,high,low,close,volume\n${DAY}T06:00:00Z,BTCUSD,1,2,0.5,1.5,1\n`);
    const r = await runMds('import', 'bars', next, '--data-dir', dataDir);
    expect(r.code).toBe(0);
    expect(r.err).toContain(`import ${importId} (${file}): half-applied when the process applying it stopped; finishing it from its staging file`);
    expect(r.err).toMatch(new RegExp(`import ${importId} \\(.*\\): finished in \\d+ ms`));
    await using server = await serve(dataDir);
    expect((await server.json<Health>('/health')).half_applied_imports).toBeUndefined();
    expect((await served(server)).slice(1)).toEqual(WHOLE.slice(1));
    expect((await served(server))[0]).toEqual([MINUTES + 1, 4]);
  }, 120_000);

  test("a half-applied import whose staging file is lost says so in /health until the same file is imported again", async () => {
    const dataDir = mkdtempSync(join(work, 'data-'));
    const hold = armHold('lost', 1);
    const importing = Bun.spawn([process.execPath, MAIN, 'import', 'bars', file, '--data-dir', dataDir], { stdout: 'pipe', stderr: 'pipe', env: env({ MDS_TEST_APPLY_HOLD: hold.setting }) });
    const importId = await hold.held();
    importing.kill('SIGKILL');
    await importing.exited;
    // What a backup taken before backups carried staging files held: the journal, not the file.
    rmSync(join(dataDir, 'imports', `${importId}.stage`));
    await using server = await serve(dataDir);
    // Resuming first (a stop cut it short), then failed: its blocks are gone.
    await until(async () => (await server.json<Health>('/health')).half_applied_imports?.[0]?.state === 'failed', 'the failed apply to show in /health', 30_000);
    const health = await server.json<Health>('/health');
    expect(health.half_applied_imports).toEqual([{ id: importId, source: file, state: 'failed', error: `its staging file imports/${importId}.stage is gone: import the file again to complete it` }]);
    expect(health.status).toBe('degraded');
    expect(health.reason).toStartWith(`history import ${importId} (${file}) is half-applied: applying it failed`);
    expect((await served(server))[0]).toEqual([MINUTES, 3]);
    const again = await runMdsWith({}, 'import', 'bars', file, '--data-dir', dataDir);
    expect(again.code).toBe(0);
    expect(await server.json<Health>('/health')).toMatchObject({ status: 'ok', reason: null });
    expect(await served(server)).toEqual(WHOLE);
  }, 120_000);
});

describe('copies and stagings around an import', () => {
  test('a snapshot (one file, for an edge) waits until an import being applied is whole', async () => {
    const dataDir = mkdtempSync(join(work, 'data-'));
    const snapshotDir = mkdtempSync(join(work, 'snapshot-'));
    const hold = armHold('snapshot', 1);
    await using server = await serve(dataDir, hold.setting);
    const importing = runMds('import', 'bars', file, '--data-dir', dataDir);
    const importId = await hold.held();
    const waitedFor: number[][] = [];
    // The first copy holds the import half-applied: the snapshot says whom it waits for, and the
    // apply is released only then, so the copy it keeps is taken after the apply.
    const snapshot = backupStore(dataDir, snapshotDir, {
      compact: true,
      imports: 'wait',
      onWaiting: (ids) => {
        waitedFor.push(ids);
        hold.release();
      },
    });
    const { path } = await snapshot;
    expect(waitedFor).toEqual([[importId]]);
    expect((await importing).code).toBe(0);
    expect(readdirSync(snapshotDir)).toEqual(['mds.mdb']);
    await using copy = await serve(snapshotDir);
    expect(path).toBe(join(snapshotDir, 'mds.mdb'));
    expect((await copy.json<Health>('/health')).half_applied_imports).toBeUndefined();
    expect(await served(copy)).toEqual(WHOLE);
  }, 120_000);

  test("a killed import's staging is dropped while the server runs, and never enters a backup", async () => {
    const dataDir = mkdtempSync(join(work, 'data-'));
    const copyDir = join(work, 'copy-staging');
    await using server = await serve(dataDir);
    // An import process still staging: its record and the first block of its staging file.
    const importer = Bun.spawn(['sleep', '600']);
    const store = Store.open({ dataDir });
    const staging = store.imports.begin('big.csv', 'skip', importer.pid, Date.now());
    store.imports.stageBlock(staging.id, new Float64Array([DAY_MS, 1, 2, 0.5, 1.5, 1]), 1);
    store.imports.closeStage(staging.id);
    await store.close();
    const stageFile = join(dataDir, 'imports', `${staging.id}.stage`);

    const backup = await runMds('backup', '--data-dir', dataDir, '--to', copyDir);
    expect(backup.code).toBe(0);
    expect(readdirSync(copyDir)).toEqual(['mds.mdb']);
    const copy = Store.open({ dataDir: copyDir });
    expect(copy.imports.get(staging.id)).toBeUndefined();
    await copy.close();

    // Alive: kept. Gone: its staging is dropped by the running server, not at its next start.
    expect(existsSync(stageFile)).toBe(true);
    importer.kill('SIGKILL');
    await importer.exited;
    await until(async () => !existsSync(stageFile), 'the dead import staging to be dropped', 30_000);
    const after = Store.open({ dataDir });
    expect(after.imports.get(staging.id)).toBeUndefined();
    await after.close();
    expect((await server.json<Health>('/health')).status).toBe('ok');
  }, 120_000);
});
