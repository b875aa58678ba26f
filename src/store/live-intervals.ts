// When feeds were live, for the coverage report: one record per stretch of a feed being live,
// [startMs, feedId, tag] → its end and the symbol ids the feed supplied. The open record's end
// moves in memory while the feed stays live and reaches the disk every LIVE_PERSIST_EVERY_MS and
// when the stretch ends: a few writes a minute per feed, whatever the tick rate. After a crash the
// last end written stands, so the seconds after it read as not live, which is the safe side.
import { randomBytes } from 'node:crypto';
import { mergeIntervals, type Interval } from '../domain/coverage.ts';
import { DAY_MS } from '../domain/timeframes.ts';
import type { StoreDbs } from './env.ts';
import type { WriteQueue } from './write-queue.ts';

/** How far the end of a live stretch may run ahead of what is on disk. */
export const LIVE_PERSIST_EVERY_MS = 15_000;
/**
 * A record spans less than this; a longer stretch goes on in a new record that starts where the
 * last one ends. So a window's records are all found by scanning from its start minus this.
 */
export const LIVE_RECORD_MAX_MS = DAY_MS;
/** Closed records kept in memory for reads until their commit has surely landed. */
const RECENT_CLOSED = 64;

interface LiveRecord {
  /** The write queue's id of the record, also the overlay's key. */
  id: string;
  key: [number, string, string];
  startMs: number;
  endMs: number;
  /** Ascending. */
  symIds: Uint32Array;
  /** The end last handed to the write queue. */
  persistedEndMs: number;
}

/** Value layout: endMs as float64, then the symbol ids as ascending uint32. */
function encode(rec: LiveRecord): Buffer {
  const buf = Buffer.allocUnsafe(8 + 4 * rec.symIds.length);
  buf.writeDoubleLE(rec.endMs, 0);
  for (let i = 0; i < rec.symIds.length; i++) buf.writeUInt32LE(rec.symIds[i]!, 8 + 4 * i);
  return buf;
}

/** Binary search for a symbol id in a stored value. */
function valueHasId(value: Buffer, symId: number): boolean {
  let lo = 0;
  let hi = (value.length - 8) >> 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const id = value.readUInt32LE(8 + 4 * mid);
    if (id === symId) return true;
    if (id < symId) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

function hasId(ids: Uint32Array, symId: number): boolean {
  let lo = 0;
  let hi = ids.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const id = ids[mid]!;
    if (id === symId) return true;
    if (id < symId) lo = mid + 1;
    else hi = mid;
  }
  return false;
}

function sameIds(ids: Uint32Array, list: readonly number[]): boolean {
  if (ids.length !== list.length) return false;
  const sorted = Uint32Array.from(list).sort();
  for (let i = 0; i < ids.length; i++) if (ids[i] !== sorted[i]) return false;
  return true;
}

export class LiveIntervalStore {
  /** The open stretch of each feed that is live, by feed id. */
  private readonly open = new Map<string, LiveRecord>();
  private readonly recent: LiveRecord[] = [];
  /** Tells this process's records from another run's that started on the same millisecond. */
  private readonly runTag = randomBytes(4).toString('hex');
  private seq = 0;

  constructor(
    private readonly dbs: StoreDbs,
    private readonly queue: WriteQueue,
  ) {}

  /** Feed `feedId`, supplying `symIds`, is live at `nowMs`: its open stretch reaches to now, or one opens. */
  recordLive(feedId: string, nowMs: number, symIds: readonly number[]): void {
    let rec = this.open.get(feedId);
    if (rec && !sameIds(rec.symIds, symIds)) {
      this.recordDown(feedId);
      rec = undefined;
    }
    if (rec && nowMs - rec.startMs >= LIVE_RECORD_MAX_MS) {
      // Live all along: the next record starts where this one ends, so the two read as one stretch.
      const from = rec.endMs;
      this.recordDown(feedId);
      rec = this.begin(feedId, from, symIds);
    }
    if (!rec) {
      this.begin(feedId, nowMs, symIds);
      return;
    }
    if (nowMs <= rec.endMs) return;
    rec.endMs = nowMs;
    if (rec.endMs - rec.persistedEndMs >= LIVE_PERSIST_EVERY_MS) this.persist(rec);
  }

  /** Feed `feedId` is no longer live: its open stretch ends where it was last seen live. */
  recordDown(feedId: string): void {
    const rec = this.open.get(feedId);
    if (!rec) return;
    this.open.delete(feedId);
    if (rec.endMs !== rec.persistedEndMs) this.persist(rec);
    this.recent.push(rec);
    if (this.recent.length > RECENT_CLOSED) this.recent.shift();
  }

  /** When a feed supplying `symId` was live, overlapping [fromMs, toMs): merged, in time order. */
  liveIntervals(symId: number, fromMs: number, toMs: number): Interval[] {
    const found = new Map<string, Interval>();
    for (const { key, value } of this.dbs.liveIntervals.getRange({ start: [fromMs - LIVE_RECORD_MAX_MS], end: [toMs] })) {
      const endMs = value.readDoubleLE(0);
      if (endMs <= fromMs || !valueHasId(value, symId)) continue;
      found.set(`live:${key.join('|')}`, { fromMs: key[0] as number, toMs: endMs });
    }
    // What this process has not written yet (an open stretch's end runs ahead of the disk).
    for (const rec of [...this.open.values(), ...this.recent]) {
      if (rec.endMs <= fromMs || rec.startMs >= toMs || !hasId(rec.symIds, symId)) continue;
      const known = found.get(rec.id);
      if (known) known.toMs = Math.max(known.toMs, rec.endMs);
      else found.set(rec.id, { fromMs: rec.startMs, toMs: rec.endMs });
    }
    return mergeIntervals([...found.values()]);
  }

  private begin(feedId: string, startMs: number, symIds: readonly number[]): LiveRecord {
    const tag = `${this.runTag}.${this.seq++}`;
    const key: [number, string, string] = [startMs, feedId, tag];
    const rec: LiveRecord = { id: `live:${key.join('|')}`, key, startMs, endMs: startMs, symIds: Uint32Array.from(symIds).sort(), persistedEndMs: -Infinity };
    this.open.set(feedId, rec);
    this.persist(rec);
    return rec;
  }

  private persist(rec: LiveRecord): void {
    rec.persistedEndMs = rec.endMs;
    this.queue.mark(rec.id, () => ({ db: this.dbs.liveIntervals, key: rec.key, value: encode(rec) }));
  }
}
