// Massive's `/v3/reference/splits` and `/v3/reference/dividends` over the stored corporate actions:
// the vendor's filters (ticker, the date with .gt/.gte/.lt/.lte, reverse_split, dividend_type,
// frequency), `order`, `sort`, `limit` and `next_url` paging by an opaque offset cursor.
import { createHash } from 'node:crypto';
import type { Account } from '../../../domain/account.ts';
import { classAccessDenied } from '../../../domain/account.ts';
import { isCalendarDate, type Dividend, type Split } from '../../../domain/corporate-actions.ts';
import { ApiError, badRequest } from '../../../domain/errors.ts';
import { quoteInput } from '../../../domain/symbols.ts';
import type { ApiDeps } from '../../deps.ts';
import { fromMassiveTicker, toMassiveTicker } from '../tickers.ts';
import { encodeCursor } from './aggs.ts';
import { MASSIVE_PREFIX } from './dialect.ts';

const LIMIT_DEFAULT = 10;
const LIMIT_MAX = 1000;
const RANGE_SUFFIXES = ['', '.gt', '.gte', '.lt', '.lte'] as const;

export type ReferenceQuery = Record<string, string | undefined>;

/** The vendor's stable-looking id: a hash of what identifies the action. */
function idOf(kind: string, symbol: string, date: string): string {
  return `E${createHash('sha256').update(`${kind}|${symbol}|${date}`).digest('hex')}`;
}

function dateFilter(query: ReferenceQuery, field: string): (date: string) => boolean {
  const tests: ((d: string) => boolean)[] = [];
  for (const suffix of RANGE_SUFFIXES) {
    const raw = query[`${field}${suffix}`];
    if (raw === undefined || raw === '') continue;
    if (!isCalendarDate(raw)) throw badRequest(`invalid ${field}${suffix} ${quoteInput(raw)}: expected a date YYYY-MM-DD`);
    if (suffix === '') tests.push((d) => d === raw);
    else if (suffix === '.gt') tests.push((d) => d > raw);
    else if (suffix === '.gte') tests.push((d) => d >= raw);
    else if (suffix === '.lt') tests.push((d) => d < raw);
    else tests.push((d) => d <= raw);
  }
  return (d) => tests.every((t) => t(d));
}

function tickerFilter(query: ReferenceQuery): (symbol: string) => boolean {
  const raw = query.ticker;
  if (raw === undefined || raw === '') return () => true;
  const mapped = fromMassiveTicker(raw);
  const symbol = mapped?.assetClass === 'stocks' ? mapped.symbol : null;
  return (s) => s === symbol;
}

interface Paging {
  order: 'asc' | 'desc';
  limit: number;
  offset: number;
  sort: string;
}

function paging(query: ReferenceQuery, sorts: readonly string[]): Paging {
  const order = (query.order ?? 'desc').toLowerCase();
  if (order !== 'asc' && order !== 'desc') throw badRequest(`invalid order ${quoteInput(query.order ?? '')}: allowed values are asc, desc`);
  const sort = query.sort === undefined || query.sort === '' ? sorts[0]! : query.sort;
  if (!sorts.includes(sort)) throw badRequest(`invalid sort ${quoteInput(sort)}: allowed values are ${sorts.join(', ')}`);
  const limitRaw = query.limit ?? '';
  const limit = limitRaw === '' ? LIMIT_DEFAULT : /^\d{1,4}$/.test(limitRaw) ? Number(limitRaw) : NaN;
  if (!(limit >= 1 && limit <= LIMIT_MAX)) throw badRequest(`invalid limit ${quoteInput(limitRaw)}: expected an integer from 1 to ${LIMIT_MAX}`);
  const m = query.cursor ? /^offset=(\d{1,10})$/.exec(Buffer.from(query.cursor, 'base64url').toString()) : null;
  if (query.cursor && !m) throw badRequest(`invalid cursor ${quoteInput(query.cursor)}: pass the cursor of a next_url unchanged`);
  return { order, limit, offset: m ? Number(m[1]) : 0, sort };
}

function page<T extends Record<string, unknown>>(items: T[], p: Paging, path: string, query: ReferenceQuery, origin: string, requestId: string): string {
  items.sort((a, b) => {
    const x = a[p.sort] ?? '';
    const y = b[p.sort] ?? '';
    const primary = typeof x === 'number' && typeof y === 'number' ? x - y : String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
    // Ties (one date, many tickers) in ticker order, so pages never overlap.
    const tie = String(a.ticker) < String(b.ticker) ? -1 : String(a.ticker) > String(b.ticker) ? 1 : 0;
    return (p.order === 'asc' ? 1 : -1) * (primary || tie);
  });
  const results = items.slice(p.offset, p.offset + p.limit);
  const body: Record<string, unknown> = { results, status: 'OK', request_id: requestId };
  if (p.offset + p.limit < items.length) {
    const next = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && k !== 'cursor' && k !== 'apiKey') next.set(k, v);
    next.set('cursor', encodeCursor(p.offset + p.limit));
    body.next_url = `${origin}${MASSIVE_PREFIX}${path}?${next}`;
  }
  return JSON.stringify(body);
}

function checkStocks(account: Account): void {
  const denied = classAccessDenied(account, 'stocks');
  if (denied) throw new ApiError('FORBIDDEN', denied);
}

function massiveSplit(s: Split): Record<string, unknown> {
  return { execution_date: s.date, id: idOf('split', s.symbol, s.date), split_from: s.from, split_to: s.to, ticker: toMassiveTicker('stocks', s.symbol) };
}

function massiveDividend(d: Dividend): Record<string, unknown> {
  const out: Record<string, unknown> = { cash_amount: d.cash, currency: 'USD' };
  if (d.declarationDate !== null) out.declaration_date = d.declarationDate;
  if (d.dividendType !== null) out.dividend_type = d.dividendType;
  out.ex_dividend_date = d.exDate;
  if (d.frequency !== null) out.frequency = d.frequency;
  out.id = idOf('dividend', d.symbol, d.exDate);
  if (d.payDate !== null) out.pay_date = d.payDate;
  if (d.recordDate !== null) out.record_date = d.recordDate;
  out.ticker = toMassiveTicker('stocks', d.symbol);
  return out;
}

export function splitsBody(deps: ApiDeps, account: Account, query: ReferenceQuery, requestId: string, origin: string): string {
  checkStocks(account);
  const p = paging(query, ['execution_date', 'ticker']);
  const ticker = tickerFilter(query);
  const date = dateFilter(query, 'execution_date');
  const reverse = query.reverse_split;
  if (reverse !== undefined && reverse !== '' && reverse !== 'true' && reverse !== 'false') throw badRequest(`invalid reverse_split ${quoteInput(reverse)}: allowed values are true, false`);
  const items = deps.store.corporateActions
    .all()
    .splits.filter((s) => ticker(s.symbol) && date(s.date) && (reverse === undefined || reverse === '' || (s.from > s.to) === (reverse === 'true')))
    .map(massiveSplit);
  return page(items, p, '/v3/reference/splits', query, origin, requestId);
}

export function dividendsBody(deps: ApiDeps, account: Account, query: ReferenceQuery, requestId: string, origin: string): string {
  checkStocks(account);
  const p = paging(query, ['ex_dividend_date', 'pay_date', 'declaration_date', 'record_date', 'cash_amount', 'ticker']);
  const ticker = tickerFilter(query);
  const filters = ['ex_dividend_date', 'record_date', 'declaration_date', 'pay_date'].map((f) => [f, dateFilter(query, f)] as const);
  const type = query.dividend_type?.toUpperCase();
  const frequency = query.frequency;
  const items = deps.store.corporateActions
    .all()
    .dividends.filter((d) => ticker(d.symbol) && (type === undefined || type === '' || d.dividendType === type) && (frequency === undefined || frequency === '' || String(d.frequency) === frequency))
    .map(massiveDividend)
    .filter((item) => filters.every(([f, test]) => (item[f] === undefined ? !RANGE_SUFFIXES.some((s) => query[`${f}${s}`]) : test(String(item[f])))));
  return page(items, p, '/v3/reference/dividends', query, origin, requestId);
}
