// Opens the one LMDB environment in the data dir and its named databases. The only file (with
// the rest of src/store) that imports lmdb.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { open, type Database, type RootDatabase } from 'lmdb';
import { freeBytesAt, formatBytes } from './disk-watch.ts';
import { checkStoreFile, STORE_FILE, UnusableStoreError } from './store-file.ts';

/** 2: latest state, bars in progress and open tick blocks in one `live` record per symbol (store/live.ts). */
export const SCHEMA_VERSION = 2;

export interface StoreDbs {
  root: RootDatabase;
  /** [symId, kind, block] → packed tick records of a filled block (ring buffer; the block being filled is in `live`). */
  ticks: Database<Buffer, (string | number)[]>;
  /** [symId, tfIndex, chunkStartMs] → packed bar records, ascending t. */
  bars: Database<Buffer, (string | number)[]>;
  /** [symId, tfIndex] → the bar in progress (packed). */
  openBars: Database<Buffer, (string | number)[]>;
  /** symId → latest state (msgpack). */
  latest: Database<unknown, number>;
  /** symId → the symbol's live record (packed, see store/live.ts); replaces `latest` and `openBars`, which schema 1 wrote and an upgrade reads once. */
  live: Database<Buffer, number>;
  /** symbol → registry entry (msgpack). */
  symbols: Database<unknown, string>;
  /** string → anything (msgpack): schema version, keys, markers. */
  meta: Database<unknown, string>;
  /** key id → key record (msgpack; the secret's hash only). */
  keys: Database<unknown, string>;
  /** `keyId|windowStartMs` → calls counted in that quota window. */
  usage: Database<unknown, string>;
  /** `CC:SYMBOL` → fundamentals record (msgpack). Key order is market, then symbol: the paging index. */
  fundamentals: Database<unknown, string>;
  /** `CC:SYMBOL` → the fundamentals item as served (UTF-8 JSON), written with its record. */
  fundamentalsJson: Database<Buffer, string>;
  /** [`CC:TENOR`, `YYYY-MM-DD`] → [yield percent, source] (msgpack): a symbol's history in date order. */
  bonds: Database<unknown, (string | number)[]>;
  /** [scheduledAtMs, id] → economic-calendar event (msgpack): a window in time order. */
  calendar: Database<unknown, (string | number)[]>;
  /** event id → its scheduledAtMs, so an update replaces the event by id. */
  calendarIds: Database<unknown, string>;
  /** importId → the import's record (msgpack): files, options, state, result. */
  imports: Database<unknown, number>;
  /** [startMs, feedId, tag] → a stretch of a feed being live: end ms and symbol ids (store/live-intervals.ts). */
  liveIntervals: Database<Buffer, (string | number)[]>;
  /** [`CC:TICKER`, 'D' | 'S', `YYYY-MM-DD`] → a dividend or split (msgpack): a symbol's actions in date order (store/corporate-actions.ts). */
  corporateActions: Database<unknown, string[]>;
}

/**
 * A new store is not created with less free space than this: LMDB creates the file, fails to
 * write its header and dies of SIGBUS, leaving an empty file that every later command refuses.
 */
const NEW_STORE_MIN_FREE_BYTES = 1 << 20;

/** Address space reserved for the map (64-bit only; see openDbs). */
const MAP_SIZE_BYTES = 2 ** 38;

export function openDbs(dataDir: string): StoreDbs {
  mkdirSync(dataDir, { recursive: true });
  checkStoreFile(dataDir);
  const free = existsSync(join(dataDir, STORE_FILE)) ? null : freeBytesAt(dataDir);
  if (free !== null && free < NEW_STORE_MIN_FREE_BYTES) {
    throw new UnusableStoreError(`the disk of the data dir ${dataDir} is full (${formatBytes(free)} free; a new store needs at least ${formatBytes(NEW_STORE_MIN_FREE_BYTES)}): free space there and try again`);
  }
  // lmdb-js starts the write thread on a transaction once ~1000 puts are queued, before the event
  // turn ends; the rest of a large flush then wakes it put by put, and on a shared core each wake
  // is a switch between threads. A flush is issued in one turn, so start the transaction at its end.
  // (`batchStartThreshold` is read by lmdb-js but missing from its option types.)
  // The map is reserved once, large: lmdb-js otherwise starts it at 128 KiB and doubles it as the
  // file grows, and keeps every old map (for readers still on it) until the store closes, so the
  // pages a first start's history build touched stayed resident once per map (11 maps, 375 MiB
  // for a 250 MiB file). Reserving address space costs no memory; a store outgrowing it still
  // grows as before. (`noReadAhead` was measured too: it changed nothing of the file pages.)
  const options = {
    path: join(dataDir, STORE_FILE),
    compression: false,
    maxDbs: 32,
    batchStartThreshold: Number.MAX_SAFE_INTEGER,
    mapSize: MAP_SIZE_BYTES,
  };
  const root = open(options);
  const binary = { encoding: 'binary' as const, keyEncoding: 'ordered-binary' as const };
  return {
    root,
    ticks: root.openDB<Buffer, (string | number)[]>({ name: 'ticks', ...binary }),
    bars: root.openDB<Buffer, (string | number)[]>({ name: 'bars', ...binary }),
    openBars: root.openDB<Buffer, (string | number)[]>({ name: 'open-bars', ...binary }),
    latest: root.openDB<unknown, number>({ name: 'latest', encoding: 'msgpack', keyEncoding: 'uint32' }),
    live: root.openDB<Buffer, number>({ name: 'live', encoding: 'binary', keyEncoding: 'uint32' }),
    symbols: root.openDB<unknown, string>({ name: 'symbols', encoding: 'msgpack' }),
    meta: root.openDB<unknown, string>({ name: 'meta', encoding: 'msgpack' }),
    keys: root.openDB<unknown, string>({ name: 'keys', encoding: 'msgpack' }),
    usage: root.openDB<unknown, string>({ name: 'usage', encoding: 'msgpack' }),
    fundamentals: root.openDB<unknown, string>({ name: 'fundamentals', encoding: 'msgpack' }),
    fundamentalsJson: root.openDB<Buffer, string>({ name: 'fundamentals-json', encoding: 'binary' }),
    bonds: root.openDB<unknown, (string | number)[]>({ name: 'bonds', encoding: 'msgpack', keyEncoding: 'ordered-binary' }),
    calendar: root.openDB<unknown, (string | number)[]>({ name: 'calendar', encoding: 'msgpack', keyEncoding: 'ordered-binary' }),
    calendarIds: root.openDB<unknown, string>({ name: 'calendar-ids', encoding: 'msgpack' }),
    imports: root.openDB<unknown, number>({ name: 'imports', encoding: 'msgpack', keyEncoding: 'uint32' }),
    liveIntervals: root.openDB<Buffer, (string | number)[]>({ name: 'live-intervals', ...binary }),
    corporateActions: root.openDB<unknown, string[]>({ name: 'corporate-actions', encoding: 'msgpack', keyEncoding: 'ordered-binary' }),
  };
}
