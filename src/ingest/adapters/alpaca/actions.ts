// Alpaca's market-data corporate actions: `GET /v1/corporate-actions?symbols=A,B&types=...&start=
// &end=&limit=&page_token=` with the APCA-API-KEY-ID / APCA-API-SECRET-KEY headers. The answer
// groups actions by type, `{corporate_actions: {forward_splits: [...], reverse_splits: [...],
// cash_dividends: [...]}, next_page_token}`; a split is {symbol, old_rate, new_rate, ex_date, ...},
// a cash dividend {symbol, rate, special, foreign, ex_date, record_date, payable_date, ...}. Rows
// are restated in Massive's field names (old_rate → split_from, new_rate → split_to, rate →
// cash_amount, a special dividend → dividend_type SC, else CD).
import { trimBase, type ActionsPage, type ActionsRequest, type ActionsSource } from '../actions-source.ts';

export const ALPACA_TYPES = 'forward_split,reverse_split,cash_dividend';
/** Symbols per request (kept well under any URL length limit) and actions per page (the largest Alpaca gives). */
const SYMBOLS_PER_REQUEST = 100;
const PAGE_LIMIT = 1000;
/** How far back the first fetch asks, and how far ahead (announced actions with a later ex-date). */
export const ALPACA_LOOKBACK_YEARS = 10;
export const ALPACA_AHEAD_DAYS = 90;

function shiftDate(date: string, days: number, years = 0): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCFullYear(d.getUTCFullYear() + years);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

function list(v: unknown): Record<string, unknown>[] {
  return Array.isArray(v) ? v.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r)) : [];
}

export const ALPACA_ACTIONS: ActionsSource = {
  defaultRestUrl: 'https://data.alpaca.markets',
  requests(restUrl, venueSymbols, today) {
    const base = trimBase(restUrl);
    const start = shiftDate(today, 0, -ALPACA_LOOKBACK_YEARS);
    const end = shiftDate(today, ALPACA_AHEAD_DAYS);
    const out: ActionsRequest[] = [];
    for (let i = 0; i < venueSymbols.length; i += SYMBOLS_PER_REQUEST) {
      const symbols = venueSymbols.slice(i, i + SYMBOLS_PER_REQUEST).map(encodeURIComponent).join(',');
      out.push({ url: `${base}/v1/corporate-actions?symbols=${symbols}&types=${ALPACA_TYPES}&start=${start}&end=${end}&limit=${PAGE_LIMIT}`, kind: 'both' });
    }
    return out;
  },
  headers: (credentials) => ({ 'APCA-API-KEY-ID': credentials.APCA_API_KEY_ID ?? '', 'APCA-API-SECRET-KEY': credentials.APCA_API_SECRET_KEY ?? '' }),
  parsePage(request, _pageUrl, body): ActionsPage | string {
    if (typeof body !== 'object' || body === null) return 'the answer is not a JSON object';
    const actions = (body as { corporate_actions?: unknown }).corporate_actions;
    if (actions !== undefined && (typeof actions !== 'object' || actions === null || Array.isArray(actions))) return 'corporate_actions is not an object';
    const groups = (actions ?? {}) as Record<string, unknown>;
    const splits = [...list(groups.forward_splits), ...list(groups.reverse_splits)].map((s) => ({ ticker: s.symbol, execution_date: s.ex_date, split_from: s.old_rate, split_to: s.new_rate }));
    const dividends = list(groups.cash_dividends).map((d) => ({ ticker: d.symbol, ex_dividend_date: d.ex_date, cash_amount: d.rate, pay_date: d.payable_date, record_date: d.record_date, dividend_type: d.special === true ? 'SC' : 'CD' }));
    const token = (body as { next_page_token?: unknown }).next_page_token;
    let next: string | null = null;
    if (typeof token === 'string' && token !== '') {
      const url = new URL(request.url);
      url.searchParams.set('page_token', token);
      next = url.toString();
    }
    return { splits, dividends, next };
  },
};
