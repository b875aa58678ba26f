// Tick history (mds addition: the spec has no such route): the parameters of the trades and quotes
// routes, their bodies' schemas, and the paging cursor. The ticks are the store ring's (what it
// keeps per symbol and kind is the ring capacity); a window reaching before the oldest tick held
// is a 422, never an empty page.
import { Type as T, type Static } from '@sinclair/typebox';
import { badRequest } from './errors.ts';
import { parseDate, RANGE_LIMIT_DEFAULT, RANGE_LIMIT_MAX } from './range-params.ts';
import { quoteInput } from './symbols.ts';
import { DAY_MS } from './timeframes.ts';

/** Which ticks: trades or quotes (the store ring's two kinds). */
export type TickKind = 'quote' | 'trade';

/** Page sizes as the range route's. */
export const TICK_LIMIT_DEFAULT = RANGE_LIMIT_DEFAULT;
export const TICK_LIMIT_MAX = RANGE_LIMIT_MAX;

/** A resolved tick window: [fromMs, toMs), null for an open end (from: the oldest retained tick). */
export interface TickQuery {
  kind: TickKind;
  fromMs: number | null;
  toMs: number | null;
  desc: boolean;
  limit: number;
  /** Where a cursor resumes: after this seq (asc) or before it (desc); null on the first page. */
  resumeSeq: number | null;
  /** Paging desc without `from`: the oldest seq held when paging began (see the cursor). */
  floorSeq: number | null;
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;

/**
 * A window edge: `YYYY-MM-DD` (from: the day's start; to: the whole day), Unix ms or an ISO 8601
 * instant with a zone (that instant, included at either end). Returns from inclusive, to exclusive.
 */
export function parseTickEdge(name: 'from' | 'to', raw: string): number {
  const isTo = name === 'to';
  if (/^\d{1,15}$/.test(raw)) return Number(raw) + (isTo ? 1 : 0);
  if (ISO_INSTANT.test(raw)) {
    const ms = Date.parse(raw);
    if (!Number.isNaN(ms)) return ms + (isTo ? 1 : 0);
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) return parseDate(name, raw) + (isTo ? DAY_MS : 0);
  throw badRequest(`invalid ${name} ${quoteInput(raw)}: expected a date YYYY-MM-DD, Unix ms or an ISO 8601 instant with a zone (2026-03-04T15:30:00Z)`);
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return TICK_LIMIT_DEFAULT;
  if (!/^\d{1,10}$/.test(raw) || Number(raw) < 1 || Number(raw) > TICK_LIMIT_MAX) throw badRequest(`invalid limit ${quoteInput(raw)}: expected an integer from 1 to ${TICK_LIMIT_MAX}`);
  return Number(raw);
}

export function parseTickSort(raw: string | undefined, fallback: 'asc' | 'desc'): boolean {
  const sort = (raw ?? fallback).toLowerCase();
  if (sort !== 'asc' && sort !== 'desc') throw badRequest(`invalid sort ${quoteInput(raw ?? '')}: allowed values are asc, desc`);
  return sort === 'desc';
}

/**
 * The cursor's text: the window and order it pages, the floor (paging `desc` without `from`: the
 * oldest seq held when paging began, so a later page knows whether older ticks left meanwhile) and
 * the last seq served. Not secret: it names ticks of a symbol the key may read.
 */
function cursorText(kind: TickKind, symId: number, q: Pick<TickQuery, 'fromMs' | 'toMs' | 'desc'>, floorSeq: number | null, seq: number): string {
  return `ticks1:${kind}:${symId}:${q.fromMs ?? ''}:${q.toMs ?? ''}:${q.desc ? 'desc' : 'asc'}:${floorSeq ?? ''}:${seq}`;
}

export function encodeTickCursor(symId: number, q: Pick<TickQuery, 'kind' | 'fromMs' | 'toMs' | 'desc'>, floorSeq: number | null, seq: number): string {
  return Buffer.from(cursorText(q.kind, symId, q, floorSeq, seq)).toString('base64url');
}

/** Sets where `q` resumes from a cursor; a 400 when it is not one of ours or pages another window, order or symbol. */
export function applyTickCursor(q: TickQuery, symId: number, raw: string | undefined): void {
  if (raw === undefined || raw === '') return;
  const text = /^[A-Za-z0-9_-]{1,200}$/.test(raw) ? Buffer.from(raw, 'base64url').toString() : '';
  const m = /^ticks1:.*:(\d{0,15}):(\d{1,15})$/.exec(text);
  if (!m) throw badRequest(`invalid cursor ${quoteInput(raw)}: pass the next_cursor of the previous page unchanged`);
  const floorSeq = m[1] === '' ? null : Number(m[1]);
  const seq = Number(m[2]);
  if (cursorText(q.kind, symId, q, floorSeq, seq) !== text) throw badRequest('invalid cursor: it pages another symbol, window or sort; repeat from, to and sort as on the first page');
  q.resumeSeq = seq;
  q.floorSeq = floorSeq;
}

export interface TickQueryParams {
  from?: string;
  to?: string;
  limit?: string;
  sort?: string;
  cursor?: string;
}

/** The native routes' query: `from`, `to`, `limit` (default 500, at most 5000), `sort` (default desc), `cursor`. */
export function parseTickQuery(kind: TickKind, symId: number, query: TickQueryParams): TickQuery {
  const fromMs = query.from === undefined || query.from === '' ? null : parseTickEdge('from', query.from);
  const toMs = query.to === undefined || query.to === '' ? null : parseTickEdge('to', query.to);
  if (fromMs !== null && toMs !== null && toMs <= fromMs) throw badRequest(`invalid window: to (${query.to}) must be on or after from (${query.from})`);
  const desc = parseTickSort(query.sort, 'desc');
  const limit = parseLimit(query.limit);
  const q: TickQuery = { kind, fromMs, toMs, desc, limit, resumeSeq: null, floorSeq: null };
  applyTickCursor(q, symId, query.cursor);
  return q;
}

// ---- bodies ----

const Ms = T.Integer({ description: 'Unix ms' });
const NumOrNull = T.Union([T.Number(), T.Null()]);
const Seq = T.Integer({ minimum: 1, description: "the tick's seq: per symbol and kind, from 1, as on the stream" });

export const TradeTickSchema = T.Object({ timestamp: Ms, price: T.Number(), size: NumOrNull, seq: Seq }, { $id: 'TradeTick', additionalProperties: false });
export const QuoteTickSchema = T.Object(
  { timestamp: Ms, bid: T.Number(), ask: T.Number(), bid_size: NumOrNull, ask_size: NumOrNull, seq: Seq },
  { $id: 'QuoteTick', additionalProperties: false },
);

const historyFields = {
  symbol: T.String(),
  results_count: T.Integer({ description: 'length of this page' }),
  next_cursor: T.Union([T.String(), T.Null()], { description: 'pass as `cursor` (with the same from, to and sort) for the next page; null on the last' }),
  retained_from: T.Union([Ms, T.Null()], { description: 'time of the oldest tick of this kind the ring still holds for the symbol' }),
  retention_ticks: T.Integer({ description: 'ticks the ring keeps per symbol and kind (--ring-capacity)' }),
  stale: T.Boolean({ description: 'whether no live source stands behind the line now (as on the quote route): newer ticks may be missing' }),
};

export const TradeHistorySchema = T.Object({ ...historyFields, results: T.Array(TradeTickSchema) }, { $id: 'TradeHistory', additionalProperties: false });
export const QuoteHistorySchema = T.Object({ ...historyFields, results: T.Array(QuoteTickSchema) }, { $id: 'QuoteHistory', additionalProperties: false });
export type TradeTick = Static<typeof TradeTickSchema>;
export type QuoteTick = Static<typeof QuoteTickSchema>;
