// Alpaca's market-data `/v1/corporate-actions` (what SDK 4's `marketData.corporateActions`
// calls) over the stored actions: forward and reverse splits and cash dividends of the requested
// US symbols with an ex-date in [start, end], grouped by type as the vendor answers, paged by
// `limit` and `page_token` over the ex-date order.
import { createHash } from 'node:crypto';
import type { Account } from '../../../domain/account.ts';
import { classAccessDenied } from '../../../domain/account.ts';
import { isCalendarDate } from '../../../domain/corporate-actions.ts';
import { ApiError, badRequest } from '../../../domain/errors.ts';
import { quoteInput } from '../../../domain/symbols.ts';
import type { ApiDeps } from '../../deps.ts';
import { utcDateOf } from '../../../domain/adjustment.ts';
import { parseLimit, parseSort, parseSymbols } from './params.ts';

export interface CorporateActionsQuery {
  symbols?: string;
  types?: string;
  start?: string;
  end?: string;
  limit?: string;
  page_token?: string;
  sort?: string;
}

const TYPES = ['forward_split', 'reverse_split', 'cash_dividend'] as const;
type ActionType = (typeof TYPES)[number];
const GROUP: Record<ActionType, string> = { forward_split: 'forward_splits', reverse_split: 'reverse_splits', cash_dividend: 'cash_dividends' };

function idOf(type: string, symbol: string, date: string): string {
  const h = createHash('sha256').update(`${type}|${symbol}|${date}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20, 32)}`;
}

function date(name: string, raw: string | undefined, fallback: string): string {
  if (raw === undefined || raw === '') return fallback;
  if (!isCalendarDate(raw)) throw badRequest(`invalid ${name}: ${quoteInput(raw)}, expected a date YYYY-MM-DD`);
  return raw;
}

export function corporateActionsBody(deps: ApiDeps, account: Account, query: CorporateActionsQuery): string {
  const denied = classAccessDenied(account, 'stocks');
  if (denied) throw new ApiError('FORBIDDEN', denied);
  const today = utcDateOf(deps.clock.nowMs());
  const start = date('start', query.start, today);
  const end = date('end', query.end, today);
  if (end < start) throw badRequest('end should not be before start');
  const wanted = new Set<string>(query.types ? query.types.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean) : TYPES);
  for (const type of wanted) if (!(TYPES as readonly string[]).includes(type)) throw badRequest(`invalid types: ${quoteInput(type)}; this server has ${TYPES.join(', ')}`);
  const symbols = query.symbols ? new Set(parseSymbols(query.symbols).map((s) => `US:${s}`)) : null;
  const limit = parseLimit(query.limit, 100, 1000);
  const sort = parseSort(query.sort);
  const m = query.page_token ? /^(\d{1,10})$/.exec(Buffer.from(query.page_token, 'base64url').toString()) : null;
  if (query.page_token && !m) throw badRequest(`invalid page_token: ${quoteInput(query.page_token)}`);
  const offset = m ? Number(m[1]) : 0;
  const all = deps.store.corporateActions.all();
  const items: { type: ActionType; exDate: string; symbol: string; item: Record<string, unknown> }[] = [];
  const keep = (symbol: string, d: string) => symbol.startsWith('US:') && (symbols === null || symbols.has(symbol)) && d >= start && d <= end;
  for (const s of all.splits) {
    const type: ActionType = s.to > s.from ? 'forward_split' : 'reverse_split';
    if (!wanted.has(type) || !keep(s.symbol, s.date)) continue;
    const symbol = s.symbol.slice(3);
    items.push({ type, exDate: s.date, symbol, item: { id: idOf(type, symbol, s.date), symbol, cusip: '', new_rate: s.to, old_rate: s.from, process_date: s.date, ex_date: s.date } });
  }
  for (const d of all.dividends) {
    if (!wanted.has('cash_dividend') || !keep(d.symbol, d.exDate)) continue;
    const symbol = d.symbol.slice(3);
    const item: Record<string, unknown> = { id: idOf('cash_dividend', symbol, d.exDate), symbol, cusip: '', rate: d.cash, special: d.dividendType === 'SC', foreign: false, process_date: d.payDate ?? d.exDate, ex_date: d.exDate };
    if (d.recordDate !== null) item.record_date = d.recordDate;
    if (d.payDate !== null) item.payable_date = d.payDate;
    items.push({ type: 'cash_dividend', exDate: d.exDate, symbol, item });
  }
  items.sort((a, b) => (sort === 'asc' ? 1 : -1) * (a.exDate < b.exDate ? -1 : a.exDate > b.exDate ? 1 : a.symbol < b.symbol ? -1 : a.symbol > b.symbol ? 1 : a.type < b.type ? -1 : 1));
  const pageItems = items.slice(offset, offset + limit);
  const groups: Record<string, Record<string, unknown>[]> = {};
  for (const p of pageItems) (groups[GROUP[p.type]] ??= []).push(p.item);
  const next = offset + limit < items.length ? Buffer.from(String(offset + limit)).toString('base64url') : null;
  return JSON.stringify({ corporate_actions: groups, next_page_token: next });
}
