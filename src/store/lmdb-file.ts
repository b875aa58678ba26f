// Reads an LMDB data file the way the LMDB built into lmdb-js does, without mapping it: its meta
// pages, and its free-page database (freeDB). The store-file check uses it to tell a file LMDB
// opens and reads safely from one cut short.
//
// Layout (lmdb-js's LMDB, liblmdb/mdb.c): page 0 and page 1 are meta pages, and with overlapping
// sync (lmdb-js's default, which mds keeps) a third meta sits half way into page 0. A page is a
// 24-byte header (pgno u64, txnid u64, pad u16, flags u16, lower u16, upper u16; overflow pages
// keep their page count in lower+upper) then node offsets; the older lmdb-js format has a 16-byte
// header without the txnid. MDB_meta: magic u32, version u32, address, mapsize, the freeDB's and
// the main DB's MDB_db records (48 bytes: pad u32 = page size in the freeDB's, flags u16, depth u16,
// 4 counts u64, root pgno u64), last used page u64, txnid u64.
import { readSync } from 'node:fs';

const MDB_MAGIC = 0xbeefc0de;
const DB_BYTES = 48;
const META_BYTES = 24 + 2 * DB_BYTES + 16;
const NO_PAGE = 0xffffffffffffffffn;
const P_BRANCH = 0x01;
const P_LEAF = 0x02;
const P_OVERFLOW = 0x04;
const P_LEAF2 = 0x20;
const F_BIGDATA = 0x01;
/** Deeper than any B-tree of 2^64 pages: a deeper walk is reading garbage. */
const MAX_DEPTH = 64;

export interface LmdbMeta {
  lastPage: number;
  txnId: number;
  freeRoot: bigint;
}

export interface LmdbLayout {
  /** Page header bytes: 24 in the format lmdb-js writes, 16 in its older one. */
  header: 24 | 16;
  pageSize: number;
  /** The meta LMDB opens the file at: the one with the highest txnid. */
  newest: LmdbMeta;
}

/** A page range [first, first + count) that the freeDB lists as free. */
interface FreeRun {
  first: number;
  count: number;
}

/** The file cannot be read as LMDB would read it; `isPastEnd`: because the file ends too soon. */
export class DamagedFileError extends Error {
  constructor(
    message: string,
    readonly isPastEnd = false,
  ) {
    super(message);
  }
}

function readAt(fd: number, at: number, length: number): Buffer | null {
  const buf = Buffer.alloc(length);
  return readSync(fd, buf, 0, length, at) === length ? buf : null;
}

function metaAt(fd: number, at: number): LmdbMeta | null {
  const b = readAt(fd, at, META_BYTES);
  if (b === null) return null;
  const free = 24;
  return {
    lastPage: Number(b.readBigUInt64LE(free + 2 * DB_BYTES)),
    txnId: Number(b.readBigUInt64LE(free + 2 * DB_BYTES + 8)),
    freeRoot: b.readBigUInt64LE(free + 40),
  };
}

/** The file's layout, or null when page 0 is no LMDB meta page (no magic, or an impossible page size). */
export function readLayout(fd: number): LmdbLayout | null {
  const head = readAt(fd, 0, 32 + META_BYTES);
  if (head === null) return null;
  const header = ([24, 16] as const).find((h) => head.readUInt32LE(h) === MDB_MAGIC);
  if (header === undefined) return null;
  const pageSize = head.readUInt32LE(header + 24);
  if (pageSize < 256 || pageSize > 0x10000 || (pageSize & (pageSize - 1)) !== 0) return null;
  // LMDB opens at the highest txnid among the metas it reads, checking only page 0's magic.
  const metas = [metaAt(fd, header), metaAt(fd, pageSize + header)];
  if (header === 24) metas.push(metaAt(fd, pageSize / 2 + header));
  let newest = metas[0]!;
  for (const m of metas) if (m !== null && m.txnId > newest.txnId) newest = m;
  return { header, pageSize, newest };
}

/**
 * The first page in [from, newest.lastPage] that the freeDB does not list as free, or null when
 * it lists them all. Throws DamagedFileError when the freeDB itself cannot be read from the file
 * (a page of it past `fileBytes`, or not what its parent says it is).
 */
export function firstUsedPageFrom(fd: number, layout: LmdbLayout, fileBytes: number, from: number): number | null {
  const last = layout.newest.lastPage;
  if (from > last) return null;
  const runs: FreeRun[] = [];
  walkFreeDb(fd, layout, fileBytes, (run) => {
    if (run.first + run.count > from && run.first <= last) runs.push(run);
  });
  runs.sort((a, b) => a.first - b.first);
  let next = from;
  for (const run of runs) {
    if (run.first > next) break;
    next = Math.max(next, run.first + run.count);
    if (next > last) return null;
  }
  return next;
}

function walkFreeDb(fd: number, layout: LmdbLayout, fileBytes: number, onRun: (run: FreeRun) => void): void {
  const { header, pageSize } = layout;
  // Node offsets count from after the header in the current format, from the page start in the older one.
  const base = header === 24 ? header : 0;
  const pageCountAt = header - 4;
  const readPage = (pgno: number, pages: number, what: string): Buffer => {
    if (pgno < 2 || (pgno + pages) * pageSize > fileBytes) {
      throw new DamagedFileError(`its free-page list (${what} page ${pgno}) lies past the end of the file`, pgno >= 2);
    }
    const page = readAt(fd, pgno * pageSize, pages * pageSize);
    if (page === null || Number(page.readBigUInt64LE(0)) !== pgno) throw new DamagedFileError(`its free-page list (${what} page ${pgno}) does not hold that page`);
    return page;
  };
  const root = layout.newest.freeRoot;
  if (root === NO_PAGE) return;
  const stack: [number, number][] = [[Number(root), 0]];
  let visited = 0;
  while (stack.length > 0) {
    const [pgno, depth] = stack.pop()!;
    if (depth > MAX_DEPTH || ++visited > layout.newest.lastPage) throw new DamagedFileError('its free-page list does not form a tree');
    const page = readPage(pgno, 1, 'tree');
    const flags = page.readUInt16LE(header - 6);
    if ((flags & (P_BRANCH | P_LEAF)) === 0 || (flags & P_LEAF2) !== 0) throw new DamagedFileError(`its free-page list (page ${pgno}) is no tree page`);
    const count = (page.readUInt16LE(header - 4) - (header - base)) >> 1;
    for (let i = 0; i < count; i++) {
      const at = page.readUInt16LE(header + 2 * i) + base;
      if (at + 8 > pageSize) throw new DamagedFileError(`its free-page list (page ${pgno}) has a node past the page`);
      const lo = page.readUInt16LE(at);
      const hi = page.readUInt16LE(at + 2);
      const nodeFlags = page.readUInt16LE(at + 4);
      const keyBytes = page.readUInt16LE(at + 6);
      if ((flags & P_BRANCH) !== 0) {
        stack.push([lo + hi * 0x10000 + nodeFlags * 0x1_0000_0000, depth + 1]);
        continue;
      }
      const dataAt = at + 8 + keyBytes;
      const dataBytes = lo + hi * 0x10000;
      let data: Buffer;
      if ((nodeFlags & F_BIGDATA) !== 0) {
        const first = Number(page.readBigUInt64LE(dataAt));
        const pages = readPage(first, 1, 'overflow').readUInt32LE(pageCountAt);
        const all = readPage(first, pages, 'overflow');
        if ((all.readUInt16LE(header - 6) & P_OVERFLOW) === 0 || header + dataBytes > all.length) throw new DamagedFileError(`its free-page list (page ${first}) is no overflow page`);
        data = all.subarray(header, header + dataBytes);
      } else {
        if (dataAt + dataBytes > pageSize) throw new DamagedFileError(`its free-page list (page ${pgno}) has a record past the page`);
        data = page.subarray(dataAt, dataAt + dataBytes);
      }
      readIdl(data, onRun);
    }
  }
}

/**
 * A freeDB record: an ID list, its length first. lmdb-js's LMDB writes a run of free pages as its
 * negated length followed by its first page, a single page as its number, and leaves 0 in gaps.
 */
function readIdl(data: Buffer, onRun: (run: FreeRun) => void): void {
  const length = data.length >= 8 ? Number(data.readBigUInt64LE(0)) : 0;
  if (length * 8 + 8 > data.length) throw new DamagedFileError('its free-page list has a record longer than its data');
  for (let i = 1; i <= length; i++) {
    const entry = data.readBigInt64LE(i * 8);
    if (entry === 0n) continue;
    if (entry > 0n) onRun({ first: Number(entry), count: 1 });
    else if (i < length) onRun({ first: Number(data.readBigInt64LE(++i * 8)), count: Number(-entry) });
  }
}
