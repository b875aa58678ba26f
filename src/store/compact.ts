// Gives back the space of removed records (retention, old tick blocks): LMDB reuses freed pages but
// never shrinks its file, so a compacting copy without free pages replaces the store file. The copy
// goes to a temporary name beside it and is renamed over the store only once complete and synced.
import { closeSync, fsyncSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { checkStoreFile, STORE_FILE } from './store-file.ts';

export interface CompactResult {
  beforeBytes: number;
  afterBytes: number;
}

/** Compacts the store in `dataDir` in place; no server may have it open. */
export async function compactStore(dataDir: string): Promise<CompactResult> {
  // A truncated file would crash LMDB's map (SIGBUS): refused with a message like every command's.
  checkStoreFile(dataDir);
  const path = join(dataDir, STORE_FILE);
  const temporary = `${path}.compacting`;
  const beforeBytes = statSync(path).size;
  rmSync(temporary, { force: true });
  const root = open({ path, compression: false, maxDbs: 32 });
  try {
    await root.backup(temporary, true);
  } catch (err) {
    rmSync(temporary, { force: true });
    throw err;
  } finally {
    await root.close();
  }
  const fd = openSync(temporary, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temporary, path);
  // The lock file describes the old file's readers; LMDB makes a new one at the next open.
  rmSync(`${path}-lock`, { force: true });
  return { beforeBytes, afterBytes: statSync(path).size };
}
