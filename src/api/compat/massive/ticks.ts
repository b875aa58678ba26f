// Massive-compatible tick history: `/v3/trades/{ticker}` and `/v3/quotes/{ticker}` over the native
// tick history query (src/api/queries/tick-history.ts), with the vendor's `timestamp` filters
// (`timestamp`, `.gte`, `.gt`, `.lte`, `.lt`: a date, nanoseconds, Unix ms or an ISO instant),
// `order`, `limit`, `sort` and `next_url` paging. Times are nanoseconds (the ms time with six zeros).
import type { Account } from '../../../domain/account.ts';
import { badRequest } from '../../../domain/errors.ts';
import { quoteInput } from '../../../domain/symbols.ts';
import { applyTickCursor, parseTickSort, TICK_LIMIT_MAX, type TickKind, type TickQuery } from '../../../domain/tick-history.ts';
import { DAY_MS } from '../../../domain/timeframes.ts';
import { parseDate } from '../../../domain/range-params.ts';
import type { ApiDeps } from '../../deps.ts';
import { tickPage } from '../../queries/tick-history.ts';
import { findTicker } from '../native-reads.ts';
import { fromMassiveTicker } from '../tickers.ts';
import { MASSIVE_PREFIX } from './dialect.ts';
import { nanos } from './latest.ts';

/** The vendor's default and largest page; pages are cut at the native maximum and `next_url` goes on. */
const VENDOR_LIMIT_DEFAULT = 1000;
const VENDOR_LIMIT_MAX = 50_000;
const FILTERS = ['timestamp', 'timestamp.gte', 'timestamp.gt', 'timestamp.lte', 'timestamp.lt'] as const;
/** Everything a next_url repeats besides the cursor. */
const CARRIED = [...FILTERS, 'order', 'limit', 'sort'] as const;

/**
 * The ms instants a filter value names: [first, end). A date is its whole UTC day; an integer of
 * 16 digits or more is nanoseconds (the vendor's unit), a shorter one Unix ms; else an ISO instant.
 */
function instants(name: string, raw: string): [number, number] {
  if (/^\d{16,19}$/.test(raw)) {
    const ns = BigInt(raw);
    const floor = Number(ns / 1_000_000n);
    return [ns % 1_000_000n === 0n ? floor : floor + 1, floor + 1];
  }
  if (/^\d{1,15}$/.test(raw)) return [Number(raw), Number(raw) + 1];
  if (/^\d{4}-\d{2}-\d{2}$/.test(raw)) {
    const day = parseDate(name, raw);
    return [day, day + DAY_MS];
  }
  const ms = /^\d{4}-\d{2}-\d{2}T/.test(raw) ? Date.parse(raw) : NaN;
  if (Number.isNaN(ms)) throw badRequest(`invalid ${name} ${quoteInput(raw)}: expected a date YYYY-MM-DD, a nanosecond timestamp or an RFC 3339 instant`);
  return [ms, ms + 1];
}

/** The window the filters leave: from inclusive, to exclusive, null for an open end. */
function windowOf(query: Record<string, string | undefined>): { fromMs: number | null; toMs: number | null } {
  let fromMs: number | null = null;
  let toMs: number | null = null;
  const from = (ms: number) => (fromMs = fromMs === null ? ms : Math.max(fromMs, ms));
  const to = (ms: number) => (toMs = toMs === null ? ms : Math.min(toMs, ms));
  for (const name of FILTERS) {
    const raw = query[name];
    if (raw === undefined || raw === '') continue;
    const [first, end] = instants(name, raw);
    if (name === 'timestamp' || name === 'timestamp.gte') from(first);
    if (name === 'timestamp.gt') from(end);
    if (name === 'timestamp' || name === 'timestamp.lte') to(end);
    if (name === 'timestamp.lt') to(first);
  }
  if (fromMs !== null && toMs !== null && toMs <= fromMs) throw badRequest('invalid timestamp filters: they leave no time between them');
  return { fromMs, toMs };
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined || raw === '') return VENDOR_LIMIT_DEFAULT;
  const n = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!(n >= 1 && n <= VENDOR_LIMIT_MAX)) throw badRequest(`invalid limit ${quoteInput(raw)}: expected an integer from 1 to ${VENDOR_LIMIT_MAX}`);
  return n;
}

const tradeResult = (r: number[]) => {
  const t = nanos(r[0]!);
  const size = Number.isNaN(r[2]!) ? 0 : r[2]!;
  return { conditions: [], exchange: 0, id: String(r[3]), participant_timestamp: t, price: r[1]!, sequence_number: r[3]!, sip_timestamp: t, size, decimal_size: String(size) };
};

const quoteResult = (r: number[]) => {
  const t = nanos(r[0]!);
  const size = (v: number) => (Number.isNaN(v) ? 0 : v);
  return { ask_exchange: 0, ask_price: r[2]!, ask_size: size(r[4]!), bid_exchange: 0, bid_price: r[1]!, bid_size: size(r[3]!), participant_timestamp: t, sequence_number: r[5]!, sip_timestamp: t };
};

/** The body of `/v3/trades/{ticker}` or `/v3/quotes/{ticker}`. */
export function tickHistoryBody(deps: ApiDeps, account: Account, kind: TickKind, ticker: string, query: Record<string, string | undefined>, requestId: string, origin: string): string {
  const window = windowOf(query);
  const desc = parseTickSort(query.order, 'desc');
  const sortRaw = query.sort ?? 'timestamp';
  if (sortRaw !== 'timestamp') throw badRequest(`invalid sort ${quoteInput(sortRaw)}: allowed value is timestamp`);
  const limit = parseLimit(query.limit);
  // A ticker no mds symbol has answers an empty OK (as the vendor does); plan refusals still throw.
  const mapped = fromMassiveTicker(ticker);
  const entry = mapped === null ? null : findTicker(deps, mapped, account);
  if (entry === null) return JSON.stringify({ status: 'OK', request_id: requestId, results: [] });
  const q: TickQuery = { kind, ...window, desc, limit: Math.min(limit, TICK_LIMIT_MAX), resumeSeq: null, floorSeq: null };
  applyTickCursor(q, entry.id, query.cursor);
  const page = tickPage(deps.store, entry, q);
  const results: object[] = kind === 'trade' ? page.ticks.map(tradeResult) : page.ticks.map(quoteResult);
  const body: Record<string, unknown> = { status: 'OK', request_id: requestId, results };
  if (page.nextCursor !== null) {
    const next = new URLSearchParams({ cursor: page.nextCursor });
    for (const name of CARRIED) if (query[name] !== undefined && query[name] !== '') next.set(name, query[name]!);
    body.next_url = `${origin}${MASSIVE_PREFIX}/v3/${kind}s/${encodeURIComponent(ticker)}?${next}`;
  }
  return JSON.stringify(body);
}
