// Encoded completed bars, reused across range requests. Live bars are only ever appended to their
// chunk, so a chunk's JSON, once encoded for its first `count` bars, stays right for those bars: a
// grown chunk (the hot one) is extended, never re-encoded. A history import may rewrite stored
// bars; it changes the series' revision, and entries of an older revision are encoded afresh.
// Bounded, LRU by bytes; one cache per store (a test process runs several servers over different data dirs).
import type { Timeframe } from '../../domain/timeframes.ts';
import type { Store } from '../../store/index.ts';
import { barJson } from '../serialize.ts';

/** Default bound of one cache: about 1,000 chunks of 1,024 one-minute bars in both orders. */
export const BAR_JSON_CACHE_BYTES = 96 * 1024 * 1024;

/** What the cache reads bars it has not encoded yet from. */
export type BarRecordSource = Pick<Store, 'barChunkRecords' | 'barsRevision'>;

const encoder = new TextEncoder();

/**
 * One chunk's bars as ASCII JSON, each bar's text followed by a comma, in both orders. A run of
 * bars [a, b) is one contiguous slice in either order: ascending `asc[offsets[a], offsets[b])`,
 * descending `desc[desc.length - offsets[b], desc.length - offsets[a])`.
 */
export class EncodedChunk {
  /** Bars encoded so far. */
  count = 0;
  /** Bars 0..count-1, oldest first; capacity may exceed what is used. */
  asc: Uint8Array = new Uint8Array(0);
  /** offsets[i]: where bar i starts in `asc`; offsets[count]: bytes used. */
  offsets: Uint32Array = new Uint32Array(1);
  /** Bars 0..descCount-1, newest first and right-aligned, so appending bars never moves the others. */
  desc: Uint8Array | null = null;
  descCount = 0;
  /** Whether the cache still holds (and counts the bytes of) this entry. */
  cached = true;
  /** The series' revision the bars were encoded at (see `Store.barsRevision`). */
  revision = 0;

  get bytes(): number {
    return this.asc.byteLength + this.offsets.byteLength + (this.desc?.byteLength ?? 0);
  }

  /** Encodes packed records as bars count, count+1, ... */
  append(records: Float64Array, n: number): void {
    const first = this.count;
    if (this.offsets.length < first + n + 1) this.offsets = grown(this.offsets, first + n + 1, (size) => new Uint32Array(size));
    const offsets = this.offsets;
    let text = '';
    for (let i = 0; i < n; i++) {
      const bar = barJson(records, i);
      text += bar;
      text += ',';
      offsets[first + i + 1] = offsets[first + i]! + bar.length + 1;
    }
    const used = offsets[first]!;
    if (this.asc.length < offsets[first + n]!) this.asc = grown(this.asc, offsets[first + n]!, (size) => new Uint8Array(size), used);
    encoder.encodeInto(text, this.asc.subarray(used));
    this.count = first + n;
  }

  /** Brings the descending copy up to `count` bars (built on first use: most pages are desc). */
  fillDesc(): Uint8Array {
    const offsets = this.offsets;
    const need = offsets[this.count]!;
    let desc = this.desc;
    if (!desc || desc.length < need) {
      // Exact for a sealed chunk; doubling for the hot one, which grows a bar at a time.
      const next = new Uint8Array(desc ? Math.max(need, desc.length * 2) : need);
      if (desc) {
        const filled = offsets[this.descCount]!;
        next.set(desc.subarray(desc.length - filled), next.length - filled);
      }
      desc = this.desc = next;
    }
    const end = desc.length;
    for (let i = this.descCount; i < this.count; i++) desc.set(this.asc.subarray(offsets[i]!, offsets[i + 1]!), end - offsets[i + 1]!);
    this.descCount = this.count;
    return desc;
  }
}

/** A larger copy of `from` (at least `size`, doubling), keeping its first `keep` elements. */
function grown<T extends Uint8Array | Uint32Array>(from: T, size: number, make: (size: number) => T, keep = from.length): T {
  const next = make(Math.max(size, from.length * 2, 64));
  next.set(from.subarray(0, keep));
  return next;
}

export class BarJsonCache {
  private readonly entries = new Map<string, EncodedChunk>();
  private totalBytes = 0;
  /** Counted for /metrics: chunks asked for that were encoded far enough, were extended, or were encoded afresh. */
  hits = 0;
  extended = 0;
  misses = 0;

  constructor(readonly maxBytes: number = BAR_JSON_CACHE_BYTES) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.totalBytes;
  }

  /**
   * The chunk starting at `chunkStart`, encoded for at least its first `count` bars. The bar count
   * is the chunk's version: a chunk only grows, so an entry with fewer bars is extended in place;
   * an entry of an older series revision (an import rewrote bars) is replaced.
   */
  chunk(source: BarRecordSource, symId: number, tf: Timeframe, chunkStart: number, count: number): EncodedChunk {
    const key = `${symId}:${tf}:${chunkStart}`;
    const revision = source.barsRevision(symId, tf);
    let entry = this.entries.get(key);
    if (entry && entry.revision !== revision) {
      this.entries.delete(key);
      entry.cached = false;
      this.totalBytes -= entry.bytes;
      entry = undefined;
    }
    let before: number;
    if (entry) {
      // Most recently used last: Map keeps insertion order.
      this.entries.delete(key);
      this.entries.set(key, entry);
      if (entry.count >= count) {
        this.hits++;
        return entry;
      }
      this.extended++;
      before = entry.bytes;
    } else {
      this.misses++;
      entry = new EncodedChunk();
      entry.revision = revision;
      this.entries.set(key, entry);
      // All of a new entry's bytes are counted, its empty offsets too (eviction takes them all off).
      before = 0;
    }
    entry.append(source.barChunkRecords(symId, tf, chunkStart, entry.count, count), count - entry.count);
    this.resized(entry, before);
    return entry;
  }

  /** The descending copy of an entry from `chunk`, built or extended as needed. */
  desc(entry: EncodedChunk): Uint8Array {
    if (entry.desc && entry.descCount === entry.count) return entry.desc;
    const before = entry.bytes;
    const desc = entry.fillDesc();
    this.resized(entry, before);
    return desc;
  }

  private resized(entry: EncodedChunk, before: number): void {
    if (!entry.cached) return;
    this.totalBytes += entry.bytes - before;
    // Entries handed out already stay usable after eviction: callers hold them, the map lets go.
    for (const [key, oldest] of this.entries) {
      if (this.totalBytes <= this.maxBytes || this.entries.size <= 1) break;
      this.entries.delete(key);
      oldest.cached = false;
      this.totalBytes -= oldest.bytes;
    }
  }
}

const caches = new WeakMap<object, BarJsonCache>();

/** The cache of one store (created on first use). */
export function barJsonCacheOf(store: object): BarJsonCache {
  let cache = caches.get(store);
  if (!cache) {
    cache = new BarJsonCache();
    caches.set(store, cache);
  }
  return cache;
}
