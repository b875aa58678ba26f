// The test harness itself: what a suite run leaves on the machine, and what of the host it reads.
// A suite that leaves its data dirs behind fills the disk run after run, and a server that warns
// of a nearly full disk answers /health differently: both made whole runs fail on a busy machine.
import { describe, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer, startServer } from './support/server.ts';
import { tempDir } from './support/temp-dir.ts';

describe('test servers', () => {
  test('stop() removes the data dir the harness made; a kept or given one stays', async () => {
    const made = await startServer({ args: ['--feed', 'none'] });
    expect(existsSync(join(made.dataDir, 'mds.mdb'))).toBe(true);
    await made.stop();
    expect(existsSync(made.dataDir)).toBe(false);

    const kept = await startServer({ args: ['--feed', 'none'], keepDataDir: true });
    await kept.stop();
    expect(existsSync(join(kept.dataDir, 'mds.mdb'))).toBe(true);
    rmSync(kept.dataDir, { recursive: true, force: true });

    const given = mkdtempSync(join(tmpdir(), 'mds-harness-'));
    try {
      const server = await startServer({ dataDir: given, args: ['--feed', 'none'] });
      await server[Symbol.asyncDispose]();
      expect(existsSync(join(given, 'mds.mdb'))).toBe(true);
    } finally {
      rmSync(given, { recursive: true, force: true });
    }
  });

  test('the free-disk check is off, whatever the host has free: in process and in a child', async () => {
    await using server = await startServer({ args: ['--feed', 'none'] });
    expect((await server.json('/health')).body.disk).toMatchObject({ space: 'ok', min_free_bytes: 0 });
    using dir = tempDir();
    await using child = await spawnServer(dir.path, ['--feed', 'none']);
    expect((await child.json('/health')).body.disk).toMatchObject({ space: 'ok', min_free_bytes: 0 });
    // The test's own flag still wins.
    await using strict = await startServer({ args: ['--feed', 'none', '--min-free-disk', '1KiB'] });
    expect((await strict.json('/health')).body.disk.min_free_bytes).toBe(1024);
  });
});
