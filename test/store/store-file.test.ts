import { describe, expect, test } from 'bun:test';
import { statSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkStoreFile, Store, UnusableStoreError } from '../../src/store/index.ts';
import { tempDir } from '../support/temp-dir.ts';

async function storeIn(dataDir: string): Promise<void> {
  const store = Store.open({ dataDir });
  await store.putMeta('filler', 'x'.repeat(200_000));
  await store.close();
}

describe('checkStoreFile', () => {
  test('accepts a whole store, a missing one and an empty file (LMDB starts a new environment in both)', async () => {
    using whole = tempDir();
    await storeIn(whole.path);
    expect(() => checkStoreFile(whole.path)).not.toThrow();
    using none = tempDir();
    expect(() => checkStoreFile(none.path)).not.toThrow();
    using empty = tempDir();
    writeFileSync(join(empty.path, 'mds.mdb'), '');
    expect(() => checkStoreFile(empty.path)).not.toThrow();
  });

  test('refuses a store cut short anywhere past its meta pages, and Store.open refuses it too', async () => {
    using dir = tempDir();
    await storeIn(dir.path);
    const file = join(dir.path, 'mds.mdb');
    const size = statSync(file).size;
    for (const cut of [size - 4096, Math.floor(size / 2 / 4096) * 4096, 8192, 4096, 100]) {
      truncateSync(file, cut);
      expect(() => checkStoreFile(dir.path)).toThrow(UnusableStoreError);
    }
    expect(() => Store.open({ dataDir: dir.path })).toThrow(/is truncated|is not an mds store/);
  });

  test('refuses a file that is no LMDB environment', () => {
    using dir = tempDir();
    writeFileSync(join(dir.path, 'mds.mdb'), Buffer.alloc(16_384, 7));
    expect(() => checkStoreFile(dir.path)).toThrow(`${join(dir.path, 'mds.mdb')} is not an mds store (no LMDB header); point --data-dir at an mds data dir`);
  });
});
