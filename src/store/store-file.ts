// Checks a data dir's store file before lmdb-js maps it. A file shorter than its own meta pages say
// (an interrupted copy) is mapped past its end, and the first read there kills the process with
// SIGBUS; a clear refusal instead, naming what is wrong and what to do.
import { closeSync, existsSync, fstatSync, openSync, readSync } from 'node:fs';
import { join } from 'node:path';

export const STORE_FILE = 'mds.mdb';
/** Where `mds backup` writes its copy until it is complete (then renamed to STORE_FILE). */
export const PARTIAL_STORE_FILE = 'mds.mdb.partial';

/** A data dir whose store cannot be opened safely (the CLI exits 2 with its message). */
export class UnusableStoreError extends Error {}

// LMDB's data file starts with two meta pages (page 0 and page 1, one page size apart), each a
// page header and then MDB_meta: magic u32, version u32, address, mapsize, two MDB_db records of
// 48 bytes (the first one's leading u32 holds the page size), last page number, txnid. The page
// header is 24 bytes in the format lmdb-js writes and 16 in the older one.
const MDB_MAGIC = 0xbeefc0de;
const DB_RECORD_BYTES = 48;
const META_BYTES = 24 + 8 + 8 + 2 * DB_RECORD_BYTES + 8 + 8;
const HEADER_SIZES = [24, 16];

interface Meta {
  pageSize: number;
  lastPage: number;
  txnId: number;
}

function readMeta(fd: number, at: number): Meta | null {
  const buf = Buffer.alloc(32 + META_BYTES);
  if (readSync(fd, buf, 0, buf.length, at) < buf.length) return null;
  const hdr = HEADER_SIZES.find((h) => buf.readUInt32LE(h) === MDB_MAGIC);
  if (hdr === undefined) return null;
  const dbs = hdr + 24;
  const pageSize = buf.readUInt32LE(dbs);
  const lastPage = Number(buf.readBigUInt64LE(dbs + 2 * DB_RECORD_BYTES));
  const txnId = Number(buf.readBigUInt64LE(dbs + 2 * DB_RECORD_BYTES + 8));
  return { pageSize, lastPage, txnId };
}

/**
 * Throws UnusableStoreError unless the data dir's store file is missing, empty (LMDB starts a new
 * environment in both cases) or a whole LMDB environment: both meta pages readable and the file
 * as long as the last page the newer of them names.
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
    // The meta pages first, the size after: a server on the data dir writes a commit's pages
    // before the meta page naming them, so the file is never shorter than a meta page read earlier.
    const first = readMeta(fd, 0);
    const second = first === null ? null : readMeta(fd, first.pageSize);
    const size = fstatSync(fd).size;
    if (size === 0) return;
    if (first === null || first.pageSize < 512 || (first.pageSize & (first.pageSize - 1)) !== 0) {
      throw new UnusableStoreError(`${path} is not an mds store (no LMDB header); point --data-dir at an mds data dir`);
    }
    const newest = second !== null && second.txnId > first.txnId ? second : first;
    const needed = Math.max(2 * first.pageSize, (newest.lastPage + 1) * first.pageSize);
    if (size < needed) {
      throw new UnusableStoreError(`${path} is truncated: ${size} bytes of the ${needed} its LMDB header names (an interrupted copy?); mds does not open it. Restore the data dir from a complete backup, or move the file away to start a new store`);
    }
  } finally {
    closeSync(fd);
  }
}
