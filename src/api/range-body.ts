// The range route's body as bytes (spec: Range response): the header, then runs of encoded bars
// copied from the bar JSON cache (one slice per chunk the page touches), the bar in progress, and
// the footer. Per request only the header, the footer and the live bar are encoded.
import type { SymbolEntry } from '../domain/instrument.ts';
import type { Store } from '../store/index.ts';
import { barJsonCacheOf, type BarJsonCache } from './queries/bar-json-cache.ts';
import type { RangePage } from './queries/bars.ts';
import { barJson } from './serialize.ts';
import type { Timeframe } from '../domain/timeframes.ts';

const encoder = new TextEncoder();

/** A slice of encoded bars (each followed by a comma) to copy into the body. */
interface Run {
  bytes: Uint8Array;
  start: number;
  end: number;
}

export function rangeBody(store: Store, entry: SymbolEntry, tf: Timeframe, page: RangePage): Uint8Array {
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
