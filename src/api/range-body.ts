// The range route's body as bytes (spec: Range response): the header, then runs of encoded bars
// copied from the bar JSON cache (one slice per chunk the page touches), the bar in progress, and
// the footer. Per request only the header, the footer and the live bar are encoded; and a request
// repeated while its series has sealed no bar and its bar in progress is unchanged gets the very
// bytes answered last time.
import type { Bar } from '../domain/bar.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import type { RangeParams } from '../domain/range-params.ts';
import type { Timeframe } from '../domain/timeframes.ts';
import type { Store } from '../store/index.ts';
import type { ApiDeps } from './deps.ts';
import { barJsonCacheOf, type BarJsonCache } from './queries/bar-json-cache.ts';
import { rangePage, type RangePage } from './queries/bars.ts';
import { barJson } from './serialize.ts';

const encoder = new TextEncoder();

/** Bodies kept per store for repeated requests; bounded by bytes, least recently used out first. */
export const RANGE_BODY_MEMO_BYTES = 16 * 1024 * 1024;

/** A body and the state of its series it was built from. */
interface MemoEntry {
  body: Uint8Array;
  /** The series' last completed bar: live bars are only appended, so an unchanged one means no new bar. */
  lastT: number;
  /** The series' revision: an import that rewrote stored bars changes it. */
  revision: number;
  /** The bar in progress as it was (the pipeline changes it in place): t, o, h, l, c, v; NaN t for none. */
  live: Float64Array;
}

class BodyMemo {
  readonly entries = new Map<string, MemoEntry>();
  bytes = 0;
  /** Counted for /metrics. */
  hits = 0;
  misses = 0;

  get(key: string, lastT: number, revision: number, live: Bar | null): Uint8Array | null {
    const hit = this.entries.get(key);
    if (!hit || hit.lastT !== lastT || hit.revision !== revision || !sameBar(hit.live, live)) {
      this.misses++;
      return null;
    }
    this.hits++;
    // Most recently used last: Map keeps insertion order.
    this.entries.delete(key);
    this.entries.set(key, hit);
    return hit.body;
  }

  set(key: string, lastT: number, revision: number, live: Bar | null, body: Uint8Array): void {
    const old = this.entries.get(key);
    if (old) {
      this.entries.delete(key);
      this.bytes -= old.body.length;
    }
    if (body.length > RANGE_BODY_MEMO_BYTES / 4) return;
    this.entries.set(key, { body, lastT, revision, live: live ? new Float64Array([live.t, live.o, live.h, live.l, live.c, live.v ?? NaN]) : new Float64Array([NaN, 0, 0, 0, 0, 0]) });
    this.bytes += body.length;
    for (const [oldest, entry] of this.entries) {
      if (this.bytes <= RANGE_BODY_MEMO_BYTES) break;
      this.entries.delete(oldest);
      this.bytes -= entry.body.length;
    }
  }
}

function sameBar(saved: Float64Array, live: Bar | null): boolean {
  if (!live) return Number.isNaN(saved[0]);
  // Object.is: a NaN volume (null) equals itself.
  return saved[0] === live.t && saved[1] === live.o && saved[2] === live.h && saved[3] === live.l && saved[4] === live.c && Object.is(saved[5], live.v ?? NaN);
}

const memos = new WeakMap<object, BodyMemo>();
/** Stands for the series' newest bars in the memo of a window they can no longer reach. */
const SETTLED = Number.MIN_SAFE_INTEGER;

/** The range body memo's numbers for a store, for /metrics (zeros before the first range request). */
export function rangeMemoStats(store: object): { hits: number; misses: number; entries: number; bytes: number } {
  const memo = memos.get(store);
  return memo ? { hits: memo.hits, misses: memo.misses, entries: memo.entries.size, bytes: memo.bytes } : { hits: 0, misses: 0, entries: 0, bytes: 0 };
}

/** The range route's body for one request. */
export function rangeBody(deps: ApiDeps, entry: SymbolEntry, p: RangeParams): Uint8Array {
  let memo = memos.get(deps.store);
  if (!memo) memos.set(deps.store, (memo = new BodyMemo()));
  const key = `${entry.id}:${p.tf}:${p.fromMs}:${p.toMs}:${p.limit}:${p.offset}:${p.sort}`;
  const completedT = deps.store.lastCompletedBarT(entry.id, p.tf) ?? -Infinity;
  const revision = deps.store.barsRevision(entry.id, p.tf);
  const inProgress = deps.bars.barInProgress(entry.id, p.tf);
  // A window that ends before the bar in progress (or, with none, at the last completed bar) no
  // longer changes with the live feed: every later bar starts after it, so only an import (the
  // revision) can change its body. Kept across ticks, where a window the feed may still reach is
  // built again after any change to its series' newest bars.
  const settled = inProgress ? p.toMs <= inProgress.t : p.toMs <= completedT + 1;
  const lastT = settled ? SETTLED : completedT;
  const live = settled ? null : inProgress;
  const known = memo.get(key, lastT, revision, live);
  if (known) return known;
  const body = writeRangeBody(deps.store, entry, p.tf, rangePage(deps, entry, p));
  memo.set(key, lastT, revision, live, body);
  return body;
}

/** A slice of encoded bars (each followed by a comma) to copy into the body. */
interface Run {
  bytes: Uint8Array;
  start: number;
  end: number;
}

/** Header, runs of cached encoded bars, the bar in progress and footer, copied into one buffer. */
function writeRangeBody(store: Store, entry: SymbolEntry, tf: Timeframe, page: RangePage): Uint8Array {
  const cache = barJsonCacheOf(store);
  const count = page.hi - page.lo;
  const runs = sealedRuns(cache, store, entry.id, tf, page);
  const live = page.live && page.hi > page.sealed ? encoder.encode(`${barJson(new Float64Array([page.live.t, page.live.o, page.live.h, page.live.l, page.live.c, page.live.v ?? NaN]), 0)},`) : null;
  const nextOffset = page.desc ? (page.lo > 0 ? page.total - page.lo : null) : page.hi < page.total ? page.hi : null;
  const head = encoder.encode(`{"symbol":${JSON.stringify(entry.symbol)},"results_count":${count},"total_count":${page.total},"results":[`);
  const tail = encoder.encode(`],"next_offset":${nextOffset}}`);

  let size = head.length + tail.length + (live ? live.length : 0);
  for (const run of runs) size += run.end - run.start;
  // Every bar's text ends with a comma; the last one's is overwritten by the closing bracket.
  if (count > 0) size--;
  const body = Buffer.allocUnsafe(size);
  body.set(head, 0);
  let at = head.length;
  if (live && page.desc) {
    body.set(live, at);
    at += live.length;
  }
  for (const run of runs) {
    body.set(run.bytes.subarray(run.start, run.end), at);
    at += run.end - run.start;
  }
  if (live && !page.desc) {
    body.set(live, at);
    at += live.length;
  }
  body.set(tail, count > 0 ? at - 1 : at);
  return body;
}

/** The runs of completed bars [page.lo, min(page.hi, page.sealed)), in the page's order. */
function sealedRuns(cache: BarJsonCache, store: Store, symId: number, tf: Timeframe, page: RangePage): Run[] {
  const runs: Run[] = [];
  const lo = page.lo;
  const hi = Math.min(page.hi, page.sealed);
  let first = 0;
  for (const span of page.spans) {
    const inSpan = span.to - span.from;
    const a = Math.max(lo, first);
    const b = Math.min(hi, first + inSpan);
    if (a < b) {
      const chunk = cache.chunk(store, symId, tf, span.start, span.count);
      const from = span.from + (a - first);
      const to = span.from + (b - first);
      const offsets = chunk.offsets;
      if (page.desc) {
        const desc = cache.desc(chunk);
        runs.push({ bytes: desc, start: desc.length - offsets[to]!, end: desc.length - offsets[from]! });
      } else {
        runs.push({ bytes: chunk.asc, start: offsets[from]!, end: offsets[to]! });
      }
    }
    first += inSpan;
  }
  if (page.desc) runs.reverse();
  return runs;
}
