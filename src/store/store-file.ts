// Checks a data dir's store file before lmdb-js maps it. A file that ends before a page LMDB uses
// (an interrupted copy) is mapped past its end, and the first read there kills the process with
// SIGBUS; a clear refusal instead, naming what is wrong and what to do. A file that ends early
// where every missing page is free is whole, and opens (see checkStoreFile).
import { closeSync, existsSync, fstatSync, openSync } from 'node:fs';
import { join } from 'node:path';
import { DamagedFileError, firstUsedPageFrom, readLayout } from './lmdb-file.ts';

export const STORE_FILE = 'mds.mdb';
/** Where `mds backup` writes its copy until it is complete (then renamed to STORE_FILE). */
export const PARTIAL_STORE_FILE = 'mds.mdb.partial';

/** A data dir whose store cannot be opened safely (the CLI exits 2 with its message). */
export class UnusableStoreError extends Error {}

/** A check that raced a writer re-reads this often before it refuses. */
const ATTEMPTS = 3;

/**
 * Throws UnusableStoreError unless the data dir's store file is missing (LMDB starts a new
 * environment) or one LMDB opens and reads safely: an LMDB header, and every page up to the last
 * one its newest meta names either in the file or listed free. LMDB leaves pages it allocated
 * and freed in the same transaction unwritten, so a whole file may end before its last page
 * (lmdb.h: "the file may be shorter if the freeDB lists the final pages"); a full disk keeps it so.
 */
export function checkStoreFile(dataDir: string): void {
  const path = join(dataDir, STORE_FILE);
  if (!existsSync(path)) {
    if (existsSync(join(dataDir, PARTIAL_STORE_FILE))) {
      throw new UnusableStoreError(`${dataDir} holds only an unfinished backup (${PARTIAL_STORE_FILE}: the copy was interrupted); take the backup again, or remove the file to start a new store here`);
    }
    return;
  }
  const fd = openSync(path, 'r');
  try {
    for (let attempt = 1; ; attempt++) {
      const damage = findDamage(fd, path);
      if (damage === null) return;
      // A server writing meanwhile may have moved on (its new meta, freed pages reused): look again.
      if (attempt === ATTEMPTS || damage.txnId === (readLayout(fd)?.newest.txnId ?? null)) throw new UnusableStoreError(damage.message);
    }
  } finally {
    closeSync(fd);
  }
}

function findDamage(fd: number, path: string): { message: string; txnId: number | null } | null {
  // The meta pages first, the size after: a server on the data dir writes a commit's pages
  // before the meta page naming them, so the file is never shorter than a meta page read earlier.
  const layout = readLayout(fd);
  const size = fstatSync(fd).size;
  if (size === 0) {
    // LMDB would take an empty file for a new environment; mds refuses it like any file without a
    // header: it is no store mds made (its first commit writes the header), and starting a new
    // store over it would hide a failed copy or restore.
    return { message: `${path} is empty: no LMDB header, so not an mds store (an interrupted copy?); mds does not start a new store over it. Restore the data dir from a complete backup, or delete the file to start a new store here`, txnId: null };
  }
  if (layout === null) return { message: `${path} is not an mds store (no LMDB header); point --data-dir at an mds data dir`, txnId: null };
  const { pageSize, newest } = layout;
  const needed = Math.max(2 * pageSize, (newest.lastPage + 1) * pageSize);
  const refusal = (what: string) => ({
    message: `${path} ${what} (an interrupted copy?); mds does not open it. Restore the data dir from a complete backup, or move the file away to start a new store`,
    txnId: newest.txnId,
  });
  const truncated = refusal(`is truncated: ${size} bytes of the ${needed} its LMDB header names`);
  if (size >= needed) return null;
  if (size < 2 * pageSize) return truncated;
  try {
    return firstUsedPageFrom(fd, layout, size, Math.floor(size / pageSize)) === null ? null : truncated;
  } catch (err) {
    if (!(err instanceof DamagedFileError)) throw err;
    return err.isPastEnd ? truncated : refusal(`is damaged: ${err.message}`);
  }
}
