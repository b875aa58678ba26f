// `mds backup` over a running server: the copy, started as a data dir of its own, serves the same
// completed bars, keys and latest values; bad targets and data dirs are usage errors (exit 2).
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, type TestServer } from '../support/server.ts';
import { runMds } from '../support/cli.ts';
import { tempDir, type TempDir } from '../support/temp-dir.ts';

/** A whole past day of minutes: completed bars never change, so the copy must answer the same bytes. */
const PAST_DAY = '/crypto/agg/BTCUSD/1/minute/2026-03-03/2026-03-03?limit=5000&sort=asc';

let server: TestServer;
let target: TempDir;
beforeAll(async () => {
  // Its data dir outlives the stop in the first test: the later ones back it up again.
  server = await startServer({ keepDataDir: true });
  target = tempDir('mds-backup-');
});
afterAll(async () => {
  await server.stop();
  rmSync(server.dataDir, { recursive: true, force: true });
  target[Symbol.dispose]();
});

describe('mds backup', () => {
  test('copies the store of a running server into a data dir that serves the same data', async () => {
    const created = await runMds('keys', 'create', '--plan', 'pro', '--json', '--data-dir', server.dataDir);
    expect(created.code).toBe(0);
    const { key } = JSON.parse(created.out) as { key: string };
    const original = await server.json(PAST_DAY);
    expect(original.status).toBe(200);
    expect(original.body.results_count).toBe(1440);
    const backup = await runMds('backup', '--data-dir', server.dataDir, '--to', target.path);
    expect(backup.code).toBe(0);
    expect(backup.out).toContain(`wrote ${join(target.path, 'mds.mdb')}`);
    // Written under a temporary name and renamed once complete: nothing else is left.
    expect(readdirSync(target.path)).toEqual(['mds.mdb']);
    const quoteBefore = await server.json('/crypto/quote/BTCUSD');
    await server.stop();

    const copy = await startServer({ dataDir: target.path, args: ['--feed', 'none'] });
    try {
      expect((await copy.json(PAST_DAY)).body).toEqual(original.body);
      const quote = await copy.json('/crypto/quote/BTCUSD');
      expect(quote.status).toBe(200);
      expect(quote.body.timestamp).toBeLessThanOrEqual(quoteBefore.body.timestamp);
      expect((await copy.get('/crypto/quote/BTCUSD', { key })).status).toBe(200);
    } finally {
      await copy.stop();
    }
  });

  test('refuses a target that holds files, a data dir without a store, and a missing --to (exit 2)', async () => {
    using full = tempDir('mds-backup-full-');
    writeFileSync(join(full.path, 'notes.txt'), 'keep me');
    using empty = tempDir('mds-backup-none-');
    const cases: [string[], string][] = [
      [['--data-dir', server.dataDir, '--to', full.path], 'is not empty'],
      [['--data-dir', empty.path, '--to', join(empty.path, 'copy')], 'no store in'],
      [['--data-dir', server.dataDir], 'backup needs --to DIR'],
    ];
    for (const [args, message] of cases) {
      const r = await runMds('backup', ...args);
      expect(r.code).toBe(2);
      expect(r.err).toContain(message);
    }
  });

  test('a truncated store (an interrupted copy) is refused by serve, keys, import and backup with a clear message and exit 2, not a crash', async () => {
    using dir = tempDir('mds-truncated-');
    expect((await runMds('keys', 'create', '--plan', 'pro', '--data-dir', dir.path)).code).toBe(0);
    // What a killed copy leaves: the two LMDB meta pages, naming pages the file does not have.
    truncateSync(join(dir.path, 'mds.mdb'), 8192);
    using out = tempDir('mds-truncated-copy-');
    using fundamentals = tempDir('mds-truncated-file-');
    const file = join(fundamentals.path, 'f.csv');
    writeFileSync(file, 'symbol\n');
    const commands = [
      ['serve', '--port', '0', '--host', '127.0.0.1', '--feed', 'none'],
      ['keys', 'list'],
      ['import', 'fundamentals', file],
      ['backup', '--to', join(out.path, 'copy')],
    ];
    for (const command of commands) {
      const r = await runMds(...command, '--data-dir', dir.path);
      const message = `mds: ${join(dir.path, 'mds.mdb')} is truncated: 8192 bytes of the 45056 its LMDB header names (an interrupted copy?); mds does not open it. Restore the data dir from a complete backup, or move the file away to start a new store\n`;
      // The size the header names depends on what the store held; the rest is word for word.
      expect({ command: command[0], code: r.code, err: r.err.replace(/of the \d+ its/, 'of the 45056 its') }).toEqual({ command: command[0], code: 2, err: message });
    }
    expect(existsSync(join(out.path, 'copy'))).toBe(false);
  });

  test('a data dir holding only an unfinished backup is refused, not started as a new empty store (exit 2)', async () => {
    using dir = tempDir('mds-partial-');
    writeFileSync(join(dir.path, 'mds.mdb.partial'), Buffer.alloc(8192));
    const r = await runMds('keys', 'list', '--data-dir', dir.path);
    expect(r.code).toBe(2);
    expect(r.err).toContain('holds only an unfinished backup (mds.mdb.partial');
    expect(existsSync(join(dir.path, 'mds.mdb'))).toBe(false);
  });
});
