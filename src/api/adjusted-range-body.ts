// The range route's body with `adjustment` other than raw: the same page of bars as the raw body
// (store/rangePage), each bar read raw, multiplied by its factors and encoded, then the spec's
// fields followed by `adjustment` and `adjustment_version`; and an ETag that starts with the
// version. A request repeated while neither the series nor the schedule changed gets the very
// bytes (and tag) answered last time, as the raw body's memo does.
import type { Adjustment } from '../domain/adjustment.ts';
import { adjustRecords } from '../domain/adjustment.ts';
import type { Bar } from '../domain/bar.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import type { RangeParams } from '../domain/range-params.ts';
import type { ApiDeps } from './deps.ts';
import { adjustmentScheduleOf } from './queries/adjustment.ts';
import { rangePage } from './queries/bars.ts';
import { barJson } from './serialize.ts';

const encoder = new TextEncoder();
const MEMO_BYTES = 16 * 1024 * 1024;

export interface AdjustedBody {
  body: Uint8Array;
  etag: string;
}

interface MemoEntry extends AdjustedBody {
  lastT: number;
  revision: number;
  version: string;
  /** The schedule object it was built with: a new one (actions, date or daily bars moved) misses. */
  schedule: object;
  live: string;
}

const memos = new WeakMap<object, { entries: Map<string, MemoEntry>; bytes: number }>();

function liveKey(live: Bar | null): string {
  return live ? `${live.t},${live.o},${live.h},${live.l},${live.c},${live.v}` : '';
}

export function adjustedRangeBody(deps: ApiDeps, entry: SymbolEntry, p: RangeParams, adjustment: Exclude<Adjustment, 'raw'>): AdjustedBody {
  const { store } = deps;
  const schedule = adjustmentScheduleOf(deps, entry, adjustment);
  let memo = memos.get(store);
  if (!memo) memos.set(store, (memo = { entries: new Map(), bytes: 0 }));
  const key = `${entry.id}:${adjustment}:${p.tf}:${p.fromMs}:${p.toMs}:${p.limit}:${p.offset}:${p.sort}`;
  const lastT = store.lastCompletedBarT(entry.id, p.tf) ?? -Infinity;
  const revision = store.barsRevision(entry.id, p.tf);
  const live = liveKey(deps.bars.barInProgress(entry.id, p.tf));
  const hit = memo.entries.get(key);
  if (hit && hit.lastT === lastT && hit.revision === revision && hit.schedule === schedule && hit.live === live) {
    memo.entries.delete(key);
    memo.entries.set(key, hit);
    return hit;
  }
  const page = rangePage(deps, entry, p);
  const count = page.hi - page.lo;
  const records = new Float64Array(count * 6);
  // Completed bars [lo, min(hi, sealed)) from their chunks, ascending; then the bar in progress.
  const hi = Math.min(page.hi, page.sealed);
  let filled = 0;
  let first = 0;
  for (const span of page.spans) {
    const inSpan = span.to - span.from;
    const a = Math.max(page.lo, first);
    const b = Math.min(hi, first + inSpan);
    if (a < b) {
      const part = store.barChunkRecords(entry.id, p.tf, span.start, span.from + (a - first), span.from + (b - first));
      records.set(part, filled * 6);
      filled += b - a;
    }
    first += inSpan;
  }
  if (page.live && page.hi > page.sealed) {
    const l = page.live;
    records.set([l.t, l.o, l.h, l.l, l.c, l.v ?? NaN], filled * 6);
    filled++;
  }
  adjustRecords(schedule, records, filled);
  let bars = '';
  for (let k = 0; k < filled; k++) {
    const i = page.desc ? filled - 1 - k : k;
    if (k > 0) bars += ',';
    bars += barJson(records, i);
  }
  const nextOffset = page.desc ? (page.lo > 0 ? page.total - page.lo : null) : page.hi < page.total ? page.hi : null;
  const text = `{"symbol":${JSON.stringify(entry.symbol)},"results_count":${count},"total_count":${page.total},"results":[${bars}],"next_offset":${nextOffset},"adjustment":"${adjustment}","adjustment_version":"${schedule.version}"}`;
  const body = encoder.encode(text);
  const etag = `"${schedule.version}-${Bun.hash(body).toString(36)}"`;
  const entryOut: MemoEntry = { body, etag, lastT, revision, version: schedule.version, schedule, live };
  const old = memo.entries.get(key);
  if (old) {
    memo.entries.delete(key);
    memo.bytes -= old.body.length;
  }
  if (body.length <= MEMO_BYTES / 4) {
    memo.entries.set(key, entryOut);
    memo.bytes += body.length;
    for (const [oldest, e] of memo.entries) {
      if (memo.bytes <= MEMO_BYTES) break;
      memo.entries.delete(oldest);
      memo.bytes -= e.body.length;
    }
  }
  return entryOut;
}
