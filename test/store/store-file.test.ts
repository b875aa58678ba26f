import { describe, expect, test } from 'bun:test';
import { closeSync, copyFileSync, openSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkStoreFile, Store, UnusableStoreError } from '../../src/store/index.ts';
import { readLayout } from '../../src/store/lmdb-file.ts';
import { runMds } from '../support/cli.ts';
import { tempDir } from '../support/temp-dir.ts';

const READ_WHOLE_STORE = resolve(import.meta.dir, '../support/read-whole-store.ts');

async function storeIn(dataDir: string): Promise<void> {
  const store = Store.open({ dataDir });
  await store.putMeta('filler', 'x'.repeat(200_000));
  await store.close();
}

/**
 * A store whose last pages are free: a large value written at the end of the file, then deleted.
 * Cut those pages off and the file is what LMDB leaves when it frees pages it never wrote (pages
 * allocated and freed in one transaction), and what a full disk keeps that way.
 */
async function storeWithFreeTail(dataDir: string): Promise<void> {
  const store = Store.open({ dataDir });
  for (let i = 0; i < 5; i++) await store.putMeta('small', `before ${i}`);
  await store.putMeta('large', 'y'.repeat(300_000));
  await store.deleteMeta('large');
  for (let i = 0; i < 3; i++) await store.putMeta('small', `after ${i}`);
  await store.close();
}

/** The shortest length, in whole pages, at which the check accepts the store file. */
function shortestAccepted(dataDir: string, pageSize: number): number {
  const file = join(dataDir, 'mds.mdb');
  const full = statSync(file).size;
  let accepted = full;
  for (let cut = full - pageSize; cut >= 2 * pageSize; cut -= pageSize) {
    copyFileSync(join(dataDir, 'whole.mdb'), file);
    truncateSync(file, cut);
    try {
      checkStoreFile(dataDir);
      accepted = cut;
    } catch (err) {
      expect(err).toBeInstanceOf(UnusableStoreError);
      break;
    }
  }
  return accepted;
}

function pageSizeOf(file: string): number {
  const fd = openSync(file, 'r');
  try {
    return readLayout(fd)!.pageSize;
  } finally {
    closeSync(fd);
  }
}

/** Reads the whole file with lmdb-js in a child process, no check first. */
async function readWhole(file: string): Promise<{ code: number; signal: string | null; out: string }> {
  const proc = Bun.spawn([process.execPath, READ_WHOLE_STORE, file], { stdout: 'pipe', stderr: 'ignore' });
  const out = await new Response(proc.stdout).text();
  const code = await proc.exited;
  return { code, signal: proc.signalCode === null ? null : String(proc.signalCode), out };
}

describe('checkStoreFile', () => {
  test('accepts a whole store and a missing one', async () => {
    using whole = tempDir();
    await storeIn(whole.path);
    expect(() => checkStoreFile(whole.path)).not.toThrow();
    using none = tempDir();
    expect(() => checkStoreFile(none.path)).not.toThrow();
  });

  test('accepts a file that ends before its last page when every page past the end is free, as LMDB reads it', async () => {
    using dir = tempDir();
    await storeWithFreeTail(dir.path);
    const file = join(dir.path, 'mds.mdb');
    copyFileSync(file, join(dir.path, 'whole.mdb'));
    const pageSize = pageSizeOf(file);
    const full = statSync(file).size;
    const shortest = shortestAccepted(dir.path, pageSize);
    // The deleted value's pages (300 KB) are free at the end of the file.
    expect(full - shortest).toBeGreaterThanOrEqual(250_000);

    // The shortest accepted file: LMDB reads every record and writes again, with no SIGBUS.
    copyFileSync(join(dir.path, 'whole.mdb'), file);
    truncateSync(file, shortest);
    expect(await readWhole(file)).toMatchObject({ code: 0, signal: null });
    copyFileSync(join(dir.path, 'whole.mdb'), file);
    truncateSync(file, shortest);
    {
      const store = Store.open({ dataDir: dir.path });
      expect(store.getMeta<string>('small')).toBe('after 2');
      // Writing reuses the free pages past the end: the file grows back over them.
      await store.putMeta('large again', 'z'.repeat(300_000));
      await store.close();
    }
    expect(() => checkStoreFile(dir.path)).not.toThrow();
    {
      const store = Store.open({ dataDir: dir.path });
      expect(store.getMeta<string>('large again')).toBe('z'.repeat(300_000));
      expect(store.getMeta<string>('small')).toBe('after 2');
      await store.close();
    }

    // One page shorter cuts a page in use: refused, and LMDB itself, unchecked, dies reading it.
    copyFileSync(join(dir.path, 'whole.mdb'), file);
    truncateSync(file, shortest - pageSize);
    expect(() => checkStoreFile(dir.path)).toThrow(`${file} is truncated: ${shortest - pageSize} bytes of the ${full} its LMDB header names (an interrupted copy?)`);
    const unchecked = await readWhole(file);
    expect(unchecked.out).not.toContain('records');
    expect(unchecked.signal ?? `exit ${unchecked.code}`).toMatch(/^SIG(BUS|SEGV)$/);
  }, 30_000);

  test('refuses a store cut short anywhere past its meta pages, and Store.open refuses it too', async () => {
    using dir = tempDir();
    await storeIn(dir.path);
    const file = join(dir.path, 'mds.mdb');
    const size = statSync(file).size;
    // The filler value is the data at the end of this store: none of its pages is free.
    for (const cut of [size - 4096, Math.floor(size / 2 / 4096) * 4096, 8192, 4096, 100]) {
      truncateSync(file, cut);
      expect(() => checkStoreFile(dir.path)).toThrow(UnusableStoreError);
    }
    expect(() => Store.open({ dataDir: dir.path })).toThrow(/is truncated|is not an mds store/);
  });

  test('refuses a short file whose free-page list is garbage', async () => {
    using dir = tempDir();
    await storeWithFreeTail(dir.path);
    const file = join(dir.path, 'mds.mdb');
    copyFileSync(file, join(dir.path, 'whole.mdb'));
    const pageSize = pageSizeOf(file);
    const shortest = shortestAccepted(dir.path, pageSize);
    copyFileSync(join(dir.path, 'whole.mdb'), file);
    truncateSync(file, shortest);
    const fd = openSync(file, 'r+');
    try {
      const freeRoot = Number(readLayout(fd)!.newest.freeRoot);
      writeSync(fd, Buffer.alloc(pageSize, 0x5a), 0, pageSize, freeRoot * pageSize);
    } finally {
      closeSync(fd);
    }
    expect(() => checkStoreFile(dir.path)).toThrow(/mds\.mdb is damaged: its free-page list \(tree page \d+\) does not hold that page \(an interrupted copy\?\); mds does not open it/);
  });

  test('refuses a file that is no LMDB environment', () => {
    using dir = tempDir();
    writeFileSync(join(dir.path, 'mds.mdb'), Buffer.alloc(16_384, 7));
    expect(() => checkStoreFile(dir.path)).toThrow(`${join(dir.path, 'mds.mdb')} is not an mds store (no LMDB header); point --data-dir at an mds data dir`);
  });

  test('refuses an empty file: every command exits 2 and leaves it empty', async () => {
    using dir = tempDir();
    const file = join(dir.path, 'mds.mdb');
    writeFileSync(file, '');
    const message = `${file} is empty: no LMDB header, so not an mds store (an interrupted copy?); mds does not start a new store over it. Restore the data dir from a complete backup, or delete the file to start a new store here`;
    expect(() => checkStoreFile(dir.path)).toThrow(message);
    const r = await runMds('keys', 'list', '--data-dir', dir.path);
    expect({ code: r.code, err: r.err }).toEqual({ code: 2, err: `mds: ${message}\n` });
    expect(statSync(file).size).toBe(0);
  });
});
