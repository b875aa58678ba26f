// A consistent copy of a data dir's LMDB environment, taken while a server may be writing to it:
// LMDB copies one read snapshot, so the copy holds every transaction committed before it began.
import { closeSync, existsSync, fsyncSync, openSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';
import { checkStoreFile, PARTIAL_STORE_FILE, STORE_FILE } from './store-file.ts';

export interface BackupResult {
  /** The copy's file. */
  path: string;
  bytes: number;
}

/** True when `dataDir` holds a store. */
export function hasStore(dataDir: string): boolean {
  return existsSync(join(dataDir, STORE_FILE));
}

/**
 * Copies the environment in `dataDir` to `targetDir/mds.mdb` (the directory must exist and hold no
 * store). `compact` leaves free pages out: slower, smaller. The copy is written under a temporary
 * name, synced and only then renamed: an interrupted backup leaves no `mds.mdb` that looks whole.
 */
export async function backupStore(dataDir: string, targetDir: string, compact: boolean): Promise<BackupResult> {
  checkStoreFile(dataDir);
  const root = open({ path: join(dataDir, STORE_FILE), compression: false, maxDbs: 32 });
  const partial = join(targetDir, PARTIAL_STORE_FILE);
  const path = join(targetDir, STORE_FILE);
  try {
    await root.backup(partial, compact);
  } finally {
    await root.close();
  }
  syncFile(partial);
  renameSync(partial, path);
  syncFile(targetDir);
  return { path, bytes: statSync(path).size };
}

function syncFile(path: string): void {
  const fd = openSync(path, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
