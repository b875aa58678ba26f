// Massive's reference API for corporate actions: `GET /v3/reference/splits?ticker=X` (results:
// ticker, execution_date, split_from, split_to, id) and `GET /v3/reference/dividends?ticker=X`
// (results: ticker, ex_dividend_date, cash_amount, pay_date, record_date, declaration_date,
// frequency, dividend_type, currency, id), paged by `next_url`. Its field names are the ones mds
// imports, so rows pass through as they are. The key goes in an Authorization header, which
// follows `next_url` (a query `apiKey` would not be in it).
import { trimBase, type ActionsPage, type ActionsRequest, type ActionsSource } from '../actions-source.ts';

/** The largest page the v3 reference routes give. */
const PAGE_LIMIT = 1000;

/**
 * `next_url` names the vendor's host; a feed pointed elsewhere (a proxy, a test server) follows it
 * on its own origin, so the key never leaves for a host it was not configured for.
 */
function onBase(next: string, restUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(next, `${trimBase(restUrl)}/`);
  } catch {
    return null;
  }
  return `${trimBase(restUrl)}${url.pathname}${url.search}`;
}

function rowsOf(body: unknown): Record<string, unknown>[] | string {
  if (typeof body !== 'object' || body === null) return 'the answer is not a JSON object';
  const results = (body as { results?: unknown }).results;
  // A ticker without actions answers without results.
  if (results === undefined) return [];
  if (!Array.isArray(results)) return 'results is not an array';
  return results.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r));
}

export const MASSIVE_ACTIONS: ActionsSource = {
  defaultRestUrl: 'https://api.massive.com',
  requests(restUrl, venueSymbols) {
    const base = trimBase(restUrl);
    return venueSymbols.flatMap((ticker): ActionsRequest[] => [
      { url: `${base}/v3/reference/splits?ticker=${encodeURIComponent(ticker)}&limit=${PAGE_LIMIT}`, kind: 'splits' },
      { url: `${base}/v3/reference/dividends?ticker=${encodeURIComponent(ticker)}&limit=${PAGE_LIMIT}`, kind: 'dividends' },
    ]);
  },
  // The same variable as the WebSocket's key (protocol.ts MASSIVE_KEY_VARIABLE).
  headers: (credentials) => ({ authorization: `Bearer ${credentials.MASSIVE_API_KEY ?? ''}` }),
  parsePage(request, _pageUrl, body, restUrl): ActionsPage | string {
    const rows = rowsOf(body);
    if (typeof rows === 'string') return rows;
    const nextUrl = (body as { next_url?: unknown }).next_url;
    const next = typeof nextUrl === 'string' && nextUrl !== '' ? onBase(nextUrl, restUrl) : null;
    if (typeof nextUrl === 'string' && nextUrl !== '' && next === null) return `next_url ${JSON.stringify(nextUrl.slice(0, 80))} is not a URL`;
    // id and currency are read past, as the importer does.
    const clean = rows.map(({ id: _id, currency: _currency, ...fields }) => fields);
    return request.kind === 'splits' ? { splits: clean, dividends: [], next } : { splits: [], dividends: clean, next };
  },
};
