// A consistent copy of a data dir's LMDB environment, taken while a server may be writing to it:
// LMDB copies one read snapshot, so the copy holds every transaction committed before it began.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { open } from 'lmdb';

export const STORE_FILE = 'mds.mdb';

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
 * store). `compact` leaves free pages out: slower, smaller.
 */
export async function backupStore(dataDir: string, targetDir: string, compact: boolean): Promise<BackupResult> {
  const root = open({ path: join(dataDir, STORE_FILE), compression: false, maxDbs: 16 });
  const path = join(targetDir, STORE_FILE);
  try {
    await root.backup(path, compact);
  } finally {
    await root.close();
  }
  return { path, bytes: statSync(path).size };
}
