// Tick history reads for the native routes and the vendor dialects: one page of a symbol's
// retained trades or quotes in a window, after the retention check. A window that reaches before
// the oldest tick the ring holds is a 422 naming that tick's time and the ring's size, never a
// silently short page; a window inside the retention with no ticks is an honest empty page.
import { ApiError } from '../../domain/errors.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import { encodeTickCursor, type QuoteTick, type TickQuery, type TradeTick } from '../../domain/tick-history.ts';
import type { Store, TickRetention } from '../../store/index.ts';

export interface TickPage {
  ticks: number[][];
  /** The cursor of the next page when more ticks of the window follow, else null. */
  nextCursor: string | null;
  retention: TickRetention;
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `the ring keeps the last 8192 trades per symbol`: said with every retention refusal. */
function keeps(kind: TickQuery['kind'], r: TickRetention): string {
  return `the ring keeps the last ${r.capacity} ${kind}s per symbol`;
}

/** Throws the 422 when the window reaches before the oldest retained tick (or none is retained). */
export function checkRetained(entry: SymbolEntry, q: TickQuery, r: TickRetention): void {
  const oldest = r.oldest;
  if (oldest === null) {
    // Without an edge, "everything retained" is honestly nothing (the body's retained_from is null).
    if (q.fromMs === null && q.toMs === null) return;
    throw new ApiError('OUTSIDE_RETENTION', `no ${q.kind}s of ${entry.symbol} are retained (${keeps(q.kind, r)}${q.kind === 'trade' ? '; a line without a tape, like forex, keeps none' : ''}), so no window can be answered`);
  }
  const since = `the oldest retained ${q.kind} of ${entry.symbol} is at ${iso(oldest.tsMs)} (${oldest.tsMs}); ${keeps(q.kind, r)}`;
  if (q.fromMs !== null && q.fromMs < oldest.tsMs) {
    throw new ApiError('OUTSIDE_RETENTION', `window starts at ${iso(q.fromMs)}, before the retained ${q.kind}s: ${since}. Ask from that time on, or leave from out`);
  }
  if (q.toMs !== null && q.toMs <= oldest.tsMs) {
    throw new ApiError('OUTSIDE_RETENTION', `window ends at ${iso(q.toMs - 1)}, before the retained ${q.kind}s: ${since}`);
  }
  // Paging on: the ticks the next page needs must still be held, or it would skip them. Forward,
  // those right after the cursor; backward without `from`, those down to the oldest held at the start.
  if (!q.desc && q.resumeSeq !== null && q.resumeSeq + 1 < oldest.seq) {
    throw new ApiError('OUTSIDE_RETENTION', `the ${q.kind}s after this cursor have left the ring while paging: ${since}. Start again from that time`);
  }
  if (q.desc && q.floorSeq !== null && q.floorSeq < oldest.seq) {
    throw new ApiError('OUTSIDE_RETENTION', `older ${q.kind}s of this window have left the ring while paging: ${since}. Start again`);
  }
}

/** One page of the window, checked against the retention. */
export function tickPage(store: Store, entry: SymbolEntry, q: TickQuery): TickPage {
  const retention = store.tickRetention(entry.id, q.kind);
  checkRetained(entry, q, retention);
  const resume = q.resumeSeq;
  const { ticks, more } = store.ticksInWindow(entry.id, q.kind, {
    fromMs: q.fromMs ?? -Infinity,
    toMs: q.toMs ?? Infinity,
    afterSeq: !q.desc && resume !== null ? resume : 0,
    beforeSeq: q.desc && resume !== null ? resume : Infinity,
    desc: q.desc,
    limit: q.limit,
  });
  const last = ticks[ticks.length - 1];
  if (!more || !last) return { ticks, nextCursor: null, retention };
  const floorSeq = q.floorSeq ?? (q.desc && q.fromMs === null ? (retention.oldest?.seq ?? null) : null);
  return { ticks, nextCursor: encodeTickCursor(entry.id, q, floorSeq, last[last.length - 1]!), retention };
}

const nullable = (v: number) => (Number.isNaN(v) ? null : v);

/** A stored trade record (ts, price, size, seq) in the native shape. */
export function tradeTick(r: number[]): TradeTick {
  return { timestamp: r[0]!, price: r[1]!, size: nullable(r[2]!), seq: r[3]! };
}

/** A stored quote record (ts, bid, ask, bid_size, ask_size, seq) in the native shape. */
export function quoteTick(r: number[]): QuoteTick {
  return { timestamp: r[0]!, bid: r[1]!, ask: r[2]!, bid_size: nullable(r[3]!), ask_size: nullable(r[4]!), seq: r[5]! };
}

/** The native routes' body. */
export function tickHistoryBody(store: Store, entry: SymbolEntry, q: TickQuery): string {
  const page = tickPage(store, entry, q);
  const results: (TradeTick | QuoteTick)[] = q.kind === 'trade' ? page.ticks.map(tradeTick) : page.ticks.map(quoteTick);
  return JSON.stringify({
    symbol: entry.symbol,
    results_count: results.length,
    results,
    next_cursor: page.nextCursor,
    retained_from: page.retention.oldest?.tsMs ?? null,
    retention_ticks: page.retention.capacity,
    stale: store.latest(entry.id)?.isStale ?? true,
  });
}
