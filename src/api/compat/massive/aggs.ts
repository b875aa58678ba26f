// Massive-compatible aggregates: the range with its `next_url` paging, the previous day's bar and
// the grouped daily bars of a market, as the native range and prev queries answer them.
import type { Account } from '../../../domain/account.ts';
import { classAccessDenied, isMarketEnabled } from '../../../domain/account.ts';
import type { AssetClass } from '../../../domain/asset-classes.ts';
import { ApiError, badRequest } from '../../../domain/errors.ts';
import type { SymbolEntry } from '../../../domain/instrument.ts';
import { parseDate, RANGE_LIMIT_MAX, type RangeParams } from '../../../domain/range-params.ts';
import { quoteInput } from '../../../domain/symbols.ts';
import { DAY_MS, TIMEFRAME_INFO, timeframeOf, VALID_PAIRS_TEXT, type Timeframe } from '../../../domain/timeframes.ts';
import type { ApiDeps } from '../../deps.ts';
import { findSettledBar } from '../../queries/bars.ts';
import { adjustmentScheduleOf } from '../../queries/adjustment.ts';
import { adjustBar } from '../../../domain/adjustment.ts';
import { barPage, resolveTicker, type NativeBar } from '../native-reads.ts';
import { fromMassiveTicker, toMassiveTicker } from '../tickers.ts';
import { stampsNewYork, vendorBarTime } from '../../../market/index.ts';
import { nativeDailyWindow } from '../vendor-time.ts';
import { MASSIVE_PREFIX } from './dialect.ts';

/** The vendor's timespans; those mds has no bars for are a 400 that names what it serves. */
const VENDOR_TIMESPANS = new Set(['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year']);
/** The vendor's default and largest page. Pages are cut at the native maximum; `next_url` goes on. */
const VENDOR_LIMIT_DEFAULT = 5000;
const VENDOR_LIMIT_MAX = 50_000;

/** A Massive aggregate bar: the native bar's values; `v` left out where the class keeps no volume. */
export interface MassiveBar {
  o: number;
  h: number;
  l: number;
  c: number;
  v?: number;
  t: number;
}

export function massiveBar(bar: { o: number; h: number; l: number; c: number; v?: number | null; t: number }): MassiveBar {
  const out: MassiveBar = { o: bar.o, h: bar.h, l: bar.l, c: bar.c, t: bar.t };
  if (bar.v !== null && bar.v !== undefined) out.v = bar.v;
  return out;
}

function parseTimeframe(multiplierRaw: string, timespanRaw: string): Timeframe {
  const timespan = timespanRaw.toLowerCase();
  if (!VENDOR_TIMESPANS.has(timespan)) throw badRequest(`invalid timespan ${quoteInput(timespanRaw)}: allowed values are ${[...VENDOR_TIMESPANS].join(', ')}`);
  const multiplier = /^\d{1,3}$/.test(multiplierRaw) ? Number(multiplierRaw) : NaN;
  const tf = Number.isNaN(multiplier) ? undefined : timeframeOf(multiplier, timespan);
  if (!tf) throw badRequest(`unsupported multiplier/timespan ${quoteInput(`${multiplierRaw}/${timespanRaw}`)}: this server has bars of ${VALID_PAIRS_TEXT}`);
  return tf;
}

/** A window edge: a date `YYYY-MM-DD` (the whole day) or Unix ms (that instant, included). */
function parseEdge(name: 'from' | 'to', raw: string): number {
  if (/^\d{1,15}$/.test(raw)) return Number(raw) + (name === 'to' ? 1 : 0);
  return parseDate(name, raw) + (name === 'to' ? DAY_MS : 0);
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw badRequest(`invalid ${name} ${quoteInput(raw)}: allowed values are true, false`);
}

/** The page cursor of `next_url`: the native offset, opaque to the client. */
export function encodeCursor(offset: number): string {
  return Buffer.from(`offset=${offset}`).toString('base64url');
}

function decodeCursor(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  const m = /^offset=(\d{1,10})$/.exec(Buffer.from(raw, 'base64url').toString());
  if (!m) throw badRequest(`invalid cursor ${quoteInput(raw)}: pass the cursor of a next_url unchanged`);
  return Number(m[1]);
}

export interface AggsPath {
  ticker: string;
  multiplier: string;
  timespan: string;
  from: string;
  to: string;
}

export interface AggsQuery {
  adjusted?: string;
  sort?: string;
  limit?: string;
  cursor?: string;
}

/** The range route's answer. A ticker no mds symbol has answers an empty OK, as the vendor does. */
export function aggsBody(deps: ApiDeps, account: Account, path: AggsPath, query: AggsQuery, requestId: string, origin: string): string {
  const tf = parseTimeframe(path.multiplier, path.timespan);
  const fromMs = parseEdge('from', path.from);
  const toMs = parseEdge('to', path.to);
  if (toMs <= fromMs) throw badRequest(`invalid window: to (${path.to}) must be on or after from (${path.from})`);
  const info = TIMEFRAME_INFO[tf];
  const spanDays = Math.ceil((toMs - fromMs) / DAY_MS);
  if (spanDays > info.maxSpanDays) throw badRequest(`window of ${spanDays} days exceeds the maximum span of ${info.maxSpanDays} days for ${info.multiplier} ${info.timespan} bars`);
  const adjusted = parseBoolean('adjusted', query.adjusted, true);
  const sortRaw = query.sort ?? 'asc';
  const sort = sortRaw.toLowerCase();
  if (sort !== 'asc' && sort !== 'desc') throw badRequest(`invalid sort ${quoteInput(sortRaw)}: allowed values are asc, desc`);
  const limitRaw = query.limit ?? '';
  const limit = limitRaw === '' ? VENDOR_LIMIT_DEFAULT : /^\d{1,6}$/.test(limitRaw) ? Number(limitRaw) : NaN;
  if (!(limit >= 1 && limit <= VENDOR_LIMIT_MAX)) throw badRequest(`invalid limit ${quoteInput(limitRaw)}: expected an integer from 1 to ${VENDOR_LIMIT_MAX}`);
  const mapped = fromMassiveTicker(path.ticker);
  const entry = mapped === null ? null : resolveOrNull(() => resolveTicker(deps, mapped, account));
  const head = { ticker: path.ticker, queryCount: 0, resultsCount: 0, adjusted };
  if (entry === null) return JSON.stringify({ ...head, status: 'OK', request_id: requestId });
  const params: RangeParams = { tf, ...dailyWindow(entry, tf, path, fromMs, toMs), limit: Math.min(limit, RANGE_LIMIT_MAX), offset: decodeCursor(query.cursor), sort };
  // Massive adjusts for splits only: adjusted=true is the native adjustment=split.
  const page = barPage(deps, entry, params, adjusted ? 'split' : 'raw');
  const results = page.bars.map((bar) => massiveBar({ ...bar, t: vendorBarTime(entry, tf, bar.t) }));
  const body: Record<string, unknown> = { ...head, queryCount: results.length, resultsCount: results.length, status: 'OK', request_id: requestId };
  if (results.length > 0) body.results = results;
  if (page.nextOffset !== null) {
    const next = new URLSearchParams({ cursor: encodeCursor(page.nextOffset), adjusted: String(adjusted), sort, limit: String(limit) });
    body.next_url = `${origin}${MASSIVE_PREFIX}/v2/aggs/ticker/${encodeURIComponent(path.ticker)}/range/${path.multiplier}/${path.timespan}/${path.from}/${path.to}?${next}`;
  }
  return JSON.stringify(body);
}

/**
 * The native window of a request. US stock daily bars are stamped at New York midnight here, so an
 * edge given as Unix ms names the sessions whose New York midnight it includes; a date edge names
 * its session either way.
 */
function dailyWindow(entry: SymbolEntry, tf: Timeframe, path: AggsPath, fromMs: number, toMs: number): { fromMs: number; toMs: number } {
  if (tf !== '1d' || !stampsNewYork(entry)) return { fromMs, toMs };
  const isMs = (raw: string) => /^\d{1,15}$/.test(raw);
  const moved = nativeDailyWindow(fromMs, toMs - 1);
  return { fromMs: isMs(path.from) ? moved.fromMs : fromMs, toMs: isMs(path.to) ? moved.toMs : toMs };
}

/** An unknown symbol as null; the class's 403 and every other error still thrown. */
function resolveOrNull(resolve: () => SymbolEntry): SymbolEntry | null {
  try {
    return resolve();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The previous day's bar: the native prev (the last settled daily bar), with the vendor's `T`. */
export function prevBody(deps: ApiDeps, account: Account, ticker: string, query: { adjusted?: string }, requestId: string): string {
  const adjusted = parseBoolean('adjusted', query.adjusted, true);
  const mapped = fromMassiveTicker(ticker);
  const entry = mapped === null ? null : resolveOrNull(() => resolveTicker(deps, mapped, account));
  const settled = entry === null ? null : (findSettledBar(deps, entry, '1d')?.bar ?? null);
  const bar = settled !== null && adjusted ? adjustBar(adjustmentScheduleOf(deps, entry!, 'split'), settled) : settled;
  const results = bar === null || entry === null ? [] : [{ T: ticker, ...massiveBar({ ...bar, t: vendorBarTime(entry, '1d', bar.t) }) }];
  const body: Record<string, unknown> = { ticker, queryCount: results.length, resultsCount: results.length, adjusted, status: 'OK', request_id: requestId };
  if (results.length > 0) body.results = results;
  return JSON.stringify(body);
}

/** The daily bar of one UTC date of every listed symbol of a class the key may read (US stocks only). */
export function groupedBody(deps: ApiDeps, account: Account, assetClass: AssetClass, dateRaw: string, query: { adjusted?: string }, requestId: string): string {
  const adjusted = parseBoolean('adjusted', query.adjusted, true);
  const dayMs = parseDate('date', dateRaw);
  const denied = classAccessDenied(account, assetClass);
  if (denied) throw new ApiError('FORBIDDEN', denied);
  const entries = deps.store.registry
    .all(assetClass)
    .filter((e) => e.listed && (assetClass !== 'stocks' || (e.market === 'US' && isMarketEnabled(account, 'US'))));
  const params: RangeParams = { tf: '1d', fromMs: dayMs, toMs: dayMs + DAY_MS, limit: 1, offset: 0, sort: 'asc' };
  const results: (MassiveBar & { T: string })[] = [];
  for (const entry of entries) {
    const bar: NativeBar | undefined = barPage(deps, entry, params, adjusted ? 'split' : 'raw').bars[0];
    if (bar) results.push({ T: toMassiveTicker(entry.assetClass, entry.symbol), ...massiveBar({ ...bar, t: vendorBarTime(entry, '1d', bar.t) }) });
  }
  const body: Record<string, unknown> = { adjusted, queryCount: results.length, resultsCount: results.length, status: 'OK', request_id: requestId };
  if (results.length > 0) body.results = results;
  return JSON.stringify(body);
}
