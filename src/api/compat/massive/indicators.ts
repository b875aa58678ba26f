// Massive-compatible technical indicators (/v1/indicators/{sma|ema|rsi|macd}/{ticker}): the native
// indicator query over the same bars, in the vendor's envelope (`results.values`, `underlying.url`,
// `next_url`). Timestamp bounds, order and limit are the vendor's; the windows and the warm-up rule
// are the native route's (docs/compatibility.md).
import { Elysia, t } from 'elysia';
import type { Account } from '../../../domain/account.ts';
import { ApiError, badRequest } from '../../../domain/errors.ts';
import { INDICATORS, type IndicatorName } from '../../../domain/indicators/compute.ts';
import { parseIndicatorSpec, parseSeriesType, type WindowQuery } from '../../../domain/indicators/params.ts';
import type { SymbolEntry } from '../../../domain/instrument.ts';
import { parseDate } from '../../../domain/range-params.ts';
import { quoteInput } from '../../../domain/symbols.ts';
import { DAY_MS, TIMEFRAME_INFO, type Timeframe } from '../../../domain/timeframes.ts';
import type { ApiDeps } from '../../deps.ts';
import { accountOf } from '../../plugins/gate.ts';
import { indicatorSeries, pageOf } from '../../queries/indicators.ts';
import { resolveTicker } from '../native-reads.ts';
import { fromMassiveTicker } from '../tickers.ts';
import { encodeCursor, massiveBar } from './aggs.ts';
import { MASSIVE_PREFIX } from './dialect.ts';

/** The vendor's timespans and the bars mds has for them; the others are a 400 naming these. */
const TIMESPAN_TF: Record<string, Timeframe> = { minute: '1m', hour: '1h', day: '1d' };
const VENDOR_TIMESPANS = ['second', 'minute', 'hour', 'day', 'week', 'month', 'quarter', 'year'];
/** The vendor's default and largest page. */
const LIMIT_DEFAULT = 10;
const LIMIT_MAX = 5000;

export interface MassiveIndicatorQuery extends WindowQuery {
  timestamp?: string;
  'timestamp.gte'?: string;
  'timestamp.gt'?: string;
  'timestamp.lte'?: string;
  'timestamp.lt'?: string;
  timespan?: string;
  adjusted?: string;
  series_type?: string;
  expand_underlying?: string;
  order?: string;
  limit?: string;
  cursor?: string;
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw === '') return fallback;
  if (raw === 'true' || raw === 'false') return raw === 'true';
  throw badRequest(`invalid ${name} ${quoteInput(raw)}: allowed values are true, false`);
}

function parseCursor(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 0;
  const m = /^offset=(\d{1,10})$/.exec(Buffer.from(raw, 'base64url').toString());
  if (!m) throw badRequest(`invalid cursor ${quoteInput(raw)}: pass the cursor of a next_url unchanged`);
  return Number(m[1]);
}

/** A timestamp bound: a date `YYYY-MM-DD` (its whole UTC day) or Unix ms. `[start, end)` of what it names. */
function parseInstant(name: string, raw: string): { start: number; end: number } {
  if (/^\d{1,15}$/.test(raw)) return { start: Number(raw), end: Number(raw) + 1 };
  try {
    const day = parseDate(name, raw);
    return { start: day, end: day + DAY_MS };
  } catch {
    throw badRequest(`invalid ${name} ${quoteInput(raw)}: expected a date YYYY-MM-DD or Unix milliseconds`);
  }
}

/** `[fromMs, toMs)` of the bar starts the timestamp filters allow; by default the longest span ending now. */
function parseWindow(q: MassiveIndicatorQuery, tf: Timeframe, nowMs: number): { fromMs: number; toMs: number } {
  let fromMs = -Infinity;
  let toMs = Infinity;
  const bound = (name: keyof MassiveIndicatorQuery, apply: (r: { start: number; end: number }) => void) => {
    const raw = q[name];
    if (raw !== undefined && raw !== '') apply(parseInstant(name, raw));
  };
  bound('timestamp', (r) => ((fromMs = Math.max(fromMs, r.start)), (toMs = Math.min(toMs, r.end))));
  bound('timestamp.gte', (r) => (fromMs = Math.max(fromMs, r.start)));
  bound('timestamp.gt', (r) => (fromMs = Math.max(fromMs, r.end)));
  bound('timestamp.lte', (r) => (toMs = Math.min(toMs, r.end)));
  bound('timestamp.lt', (r) => (toMs = Math.min(toMs, r.start)));
  const info = TIMEFRAME_INFO[tf];
  const maxSpanMs = info.maxSpanDays * DAY_MS;
  if (toMs === Infinity) toMs = Number.isFinite(fromMs) ? Math.min(fromMs + maxSpanMs, nowMs + 1) : nowMs + 1;
  if (fromMs === -Infinity) fromMs = Math.max(0, toMs - maxSpanMs);
  if (toMs - fromMs > maxSpanMs) throw badRequest(`timestamp window of ${Math.ceil((toMs - fromMs) / DAY_MS)} days exceeds the maximum span of ${info.maxSpanDays} days for ${info.timespan} bars`);
  return { fromMs, toMs: Math.max(fromMs, toMs) };
}

/** An unknown symbol as null (the vendor answers an empty OK); the class's 403 and every other error still thrown. */
function resolveOrNull(deps: ApiDeps, ticker: string, account: Account): SymbolEntry | null {
  const mapped = fromMassiveTicker(ticker);
  if (mapped === null) return null;
  try {
    return resolveTicker(deps, mapped, account);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function indicatorBody(deps: ApiDeps, account: Account, name: IndicatorName, ticker: string, q: MassiveIndicatorQuery, requestId: string, origin: string, search: string): string {
  const timespanRaw = q.timespan ?? 'day';
  const timespan = timespanRaw.toLowerCase();
  if (!VENDOR_TIMESPANS.includes(timespan)) throw badRequest(`invalid timespan ${quoteInput(timespanRaw)}: allowed values are ${VENDOR_TIMESPANS.join(', ')}`);
  const tf = TIMESPAN_TF[timespan];
  if (tf === undefined) throw badRequest(`unsupported timespan ${quoteInput(timespanRaw)}: this server computes indicators over minute, hour and day bars`);
  const spec = parseIndicatorSpec(name, q, false);
  const series = parseSeriesType(q.series_type);
  parseBoolean('adjusted', q.adjusted, true);
  const expand = parseBoolean('expand_underlying', q.expand_underlying, false);
  const orderRaw = q.order ?? 'desc';
  const order = orderRaw.toLowerCase();
  if (order !== 'asc' && order !== 'desc') throw badRequest(`invalid order ${quoteInput(orderRaw)}: allowed values are asc, desc`);
  const limitRaw = q.limit ?? '';
  const limit = limitRaw === '' ? LIMIT_DEFAULT : /^\d{1,6}$/.test(limitRaw) ? Number(limitRaw) : NaN;
  if (!(limit >= 1 && limit <= LIMIT_MAX)) throw badRequest(`invalid limit ${quoteInput(limitRaw)}: expected an integer from 1 to ${LIMIT_MAX}`);
  const offset = parseCursor(q.cursor);
  const { fromMs, toMs } = parseWindow(q, tf, deps.clock.nowMs());
  const underlyingUrl = `${origin}${MASSIVE_PREFIX}/v2/aggs/ticker/${encodeURIComponent(ticker)}/range/1/${timespan}/${fromMs}/${toMs - 1}?limit=50000&sort=${order}`;
  const entry = resolveOrNull(deps, ticker, account);
  const values: Record<string, number>[] = [];
  const underlying: Record<string, unknown> = { url: underlyingUrl };
  const body: Record<string, unknown> = { results: { underlying, values }, status: 'OK', request_id: requestId };
  if (entry === null || toMs <= fromMs) return JSON.stringify(body);
  const { page, nextOffset } = pageOf(indicatorSeries(deps, entry, spec, series, tf, fromMs, toMs).points, offset, limit, order);
  for (const p of page) values.push(p.signal === undefined ? { timestamp: p.t, value: p.value } : { timestamp: p.t, value: p.value, signal: p.signal, histogram: p.histogram! });
  if (expand) underlying.aggregates = page.map((p) => massiveBar(p.bar));
  if (nextOffset !== null) {
    const next = new URLSearchParams(search);
    next.delete('apiKey');
    next.set('cursor', encodeCursor(nextOffset));
    body.next_url = `${origin}${MASSIVE_PREFIX}/v1/indicators/${name}/${encodeURIComponent(ticker)}?${next}`;
  }
  return JSON.stringify(body);
}

const Ticker = t.Object({ ticker: t.String() });
const Query = t.Object(
  Object.fromEntries(
    ['timestamp', 'timestamp.gte', 'timestamp.gt', 'timestamp.lte', 'timestamp.lt', 'timespan', 'adjusted', 'window', 'short_window', 'long_window', 'signal_window', 'series_type', 'expand_underlying', 'order', 'limit', 'cursor', 'apiKey'].map(
      (name) => [name, t.Optional(t.String())],
    ),
  ),
);

/** The four indicator routes, one path each as the vendor has them. */
export function massiveIndicatorRoutes(deps: ApiDeps) {
  let routes = new Elysia({ prefix: MASSIVE_PREFIX });
  for (const name of INDICATORS) {
    routes = routes.get(
      `/v1/indicators/${name}/:ticker`,
      ({ params, query, request, set }) => {
        const url = new URL(request.url);
        return indicatorBody(deps, accountOf(request), name, params.ticker, query as MassiveIndicatorQuery, String(set.headers['x-request-id'] ?? ''), url.origin, url.search);
      },
      { params: Ticker, query: Query },
    ) as unknown as typeof routes;
  }
  return routes;
}
