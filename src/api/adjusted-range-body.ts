// The range route's body with `adjustment` other than raw: the same page of bars as the raw body
// (store/rangePage), each bar read raw, multiplied by its factors and encoded, then the spec's
// fields followed by `adjustment` and `adjustment_version`; and an ETag that starts with the
// version. A request repeated while neither the series nor the schedule changed gets the very
// bytes (and tag) answered last time, as the raw body's memo does.
import type { Adjustment } from '../domain/adjustment.ts';
import { adjustRecords, type AdjustmentSchedule } from '../domain/adjustment.ts';
import type { Bar } from '../domain/bar.ts';
import type { SymbolEntry } from '../domain/instrument.ts';
import type { RangeParams } from '../domain/range-params.ts';
import type { ApiDeps } from './deps.ts';
import { adjustmentScheduleOf } from './queries/adjustment.ts';
import { rangePage, type RangePage } from './queries/bars.ts';
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
  /** The completed bars' encoded text, and what it was built from. */
  sealedToken: string;
  sealedText: string;
}

const memos = new WeakMap<object, { entries: Map<string, MemoEntry>; bytes: number }>();

/** Bytes an entry holds: the body, and the completed bars' text (two bytes a character). */
function costOf(e: MemoEntry): number {
  return e.body.length + 2 * e.sealedText.length;
}

function liveKey(live: Bar | null): string {
  return live ? `${live.t},${live.o},${live.h},${live.l},${live.c},${live.v}` : '';
}

/** The page's completed bars [lo, min(hi, sealed)), adjusted and encoded in the page's order. */
function sealedBarsText(deps: ApiDeps, entry: SymbolEntry, p: RangeParams, page: RangePage, schedule: AdjustmentSchedule): string {
  const hi = Math.min(page.hi, page.sealed);
  const n = Math.max(0, hi - page.lo);
  const records = new Float64Array(n * 6);
  let filled = 0;
  let first = 0;
  for (const span of page.spans) {
    const inSpan = span.to - span.from;
    const a = Math.max(page.lo, first);
    const b = Math.min(hi, first + inSpan);
    if (a < b) {
      records.set(deps.store.barChunkRecords(entry.id, p.tf, span.start, span.from + (a - first), span.from + (b - first)), filled * 6);
      filled += b - a;
    }
    first += inSpan;
  }
  adjustRecords(schedule, records, filled);
  let text = '';
  for (let k = 0; k < filled; k++) {
    if (k > 0) text += ',';
    text += barJson(records, page.desc ? filled - 1 - k : k);
  }
  return text;
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
  const withLive = page.live !== null && page.hi > page.sealed;
  // The completed bars' text survives a moving bar in progress (the pipeline changes it per tick):
  // only the live bar is encoded again, as the raw body does.
  const sealedToken = `${lastT}|${revision}|${page.lo}|${page.hi}|${page.total}`;
  const sealedText = hit && hit.schedule === schedule && hit.sealedToken === sealedToken ? hit.sealedText : sealedBarsText(deps, entry, p, page, schedule);
  let liveText = '';
  if (withLive) {
    const l = page.live!;
    const one = new Float64Array([l.t, l.o, l.h, l.l, l.c, l.v ?? NaN]);
    adjustRecords(schedule, one, 1);
    liveText = barJson(one, 0);
  }
  const bars = !withLive ? sealedText : sealedText === '' ? liveText : page.desc ? `${liveText},${sealedText}` : `${sealedText},${liveText}`;
  const nextOffset = page.desc ? (page.lo > 0 ? page.total - page.lo : null) : page.hi < page.total ? page.hi : null;
  const text = `{"symbol":${JSON.stringify(entry.symbol)},"results_count":${count},"total_count":${page.total},"results":[${bars}],"next_offset":${nextOffset},"adjustment":"${adjustment}","adjustment_version":"${schedule.version}"}`;
  const body = encoder.encode(text);
  const etag = `"${schedule.version}-${Bun.hash(body).toString(36)}"`;
  const entryOut: MemoEntry = { body, etag, lastT, revision, version: schedule.version, schedule, live, sealedToken, sealedText };
  const old = memo.entries.get(key);
  if (old) {
    memo.entries.delete(key);
    memo.bytes -= costOf(old);
  }
  if (costOf(entryOut) <= MEMO_BYTES / 4) {
    memo.entries.set(key, entryOut);
    memo.bytes += costOf(entryOut);
    for (const [oldest, e] of memo.entries) {
      if (memo.bytes <= MEMO_BYTES) break;
      memo.entries.delete(oldest);
      memo.bytes -= costOf(e);
    }
  }
  return entryOut;
}
