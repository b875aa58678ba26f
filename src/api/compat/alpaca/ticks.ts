// Alpaca-compatible tick history: historical trades and quotes of one or many US stocks
// (`/v2/stocks/{symbol}/trades|quotes`, `/v2/stocks/trades|quotes`) and of crypto pairs
// (`/v1beta3/crypto/us/trades|quotes`), over the native tick history query. `limit` counts ticks
// across symbols (the vendor's rule); `page_token` carries the symbol and the native cursor.
// Without `start` the window begins at the oldest retained tick (the vendor: start of today).
import type { Account } from '../../../domain/account.ts';
import { badRequest } from '../../../domain/errors.ts';
import { applyTickCursor, type TickKind, type TickQuery } from '../../../domain/tick-history.ts';
import type { ApiDeps } from '../../deps.ts';
import { tickPage } from '../../queries/tick-history.ts';
import { entryOf, type Flavor } from './market-data.ts';
import { parseLimit, parseSort, parseTime } from './params.ts';

export interface TickHistoryQuery {
  start?: string;
  end?: string;
  limit?: string;
  page_token?: string;
  sort?: string;
}

/** The vendor's default and largest `limit`. */
const LIMIT_DEFAULT = 1000;
const LIMIT_MAX = 10_000;

/** Which symbol of the sorted list the page starts at, and the native cursor within it ('' for its start). */
function encodeToken(symbolIndex: number, cursor: string): string {
  return Buffer.from(`${symbolIndex}.${cursor}`).toString('base64url');
}

function decodeToken(raw: string | undefined): { symbolIndex: number; cursor: string } {
  if (raw === undefined || raw === '') return { symbolIndex: 0, cursor: '' };
  const m = /^(\d{1,6})\.([A-Za-z0-9_-]{0,200})$/.exec(Buffer.from(raw, 'base64url').toString());
  if (!m) throw badRequest(`invalid page_token: ${JSON.stringify(raw.slice(0, 40))}`);
  return { symbolIndex: Number(m[1]), cursor: m[2]! };
}

/** A stored record in the flavor's trade or quote shape, `i` the tick's seq. */
function vendorTick(flavor: Flavor, kind: TickKind, r: number[]): Record<string, unknown> {
  const size = (v: number) => (Number.isNaN(v) ? null : v);
  if (kind === 'trade') return { ...flavor.trade({ symbol: null, price: r[1]!, size: size(r[2]!), timestamp: r[0]! }), i: r[3]! };
  return flavor.quote({ symbol: null, bid: r[1]!, ask: r[2]!, bid_size: size(r[3]!), ask_size: size(r[4]!), timestamp: r[0]!, stale: false });
}

/**
 * The ticks of the symbols over [start, end], `limit` in all, in symbol order, keyed by the vendor
 * symbol; the page token says where the next page starts. A symbol whose retained ticks do not
 * reach back to `start` makes the whole request the native 422.
 */
export function ticksOf(deps: ApiDeps, account: Account, flavor: Flavor, kind: TickKind, symbols: readonly string[], query: TickHistoryQuery, strict: boolean) {
  const fromMs = query.start === undefined || query.start === '' ? null : parseTime('start', query.start, 0);
  const endMs = query.end === undefined || query.end === '' ? null : parseTime('end', query.end, 0);
  if (fromMs !== null && endMs !== null && endMs < fromMs) throw badRequest('end should not be before start');
  const limit = parseLimit(query.limit, LIMIT_DEFAULT, LIMIT_MAX);
  const desc = parseSort(query.sort) === 'desc';
  const pos = decodeToken(query.page_token);
  const out: Record<string, Record<string, unknown>[]> = {};
  let remaining = limit;
  let next: string | null = null;
  for (let i = pos.symbolIndex; i < symbols.length && next === null; i++) {
    const symbol = symbols[i]!;
    const entry = entryOf(deps, account, flavor, symbol, strict);
    if (entry === null) continue;
    const q: TickQuery = { kind, fromMs, toMs: endMs === null ? null : endMs + 1, desc, limit: remaining, resumeSeq: null, floorSeq: null };
    if (i === pos.symbolIndex) applyTickCursor(q, entry.id, pos.cursor);
    if (remaining === 0) {
      // Checked before the cut, so a page never ends on a symbol the next page would refuse.
      tickPage(deps.store, entry, { ...q, limit: 1 });
      next = encodeToken(i, '');
      break;
    }
    const page = tickPage(deps.store, entry, q);
    if (page.ticks.length > 0) out[symbol] = page.ticks.map((r) => vendorTick(flavor, kind, r));
    remaining -= page.ticks.length;
    if (page.nextCursor !== null) next = encodeToken(i, page.nextCursor);
  }
  return { ticks: out, next_page_token: next };
}
