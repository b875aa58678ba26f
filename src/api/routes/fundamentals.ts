// The fundamentals routes (spec: "Fundamentals routes"; add-on, REST only): one item, a batch by
// symbols, and a market paged by an opaque cursor. Items are served as stored (their JSON bytes
// were made when they were written); handlers only check access, look up and join bytes.
import { Elysia, t } from 'elysia';
import { addonDenied, marketDenied, type Account } from '../../domain/account.ts';
import { ApiError, badRequest } from '../../domain/errors.ts';
import { FUNDAMENTALS_MARKETS, isFundamentalsMarket } from '../../domain/fundamentals.ts';
import { normalizeSymbol, quoteInput } from '../../domain/symbols.ts';
import type { ApiDeps } from '../deps.ts';
import { JSON_TYPE } from '../http.ts';
import { accountOf } from '../plugins/gate.ts';
import { decodeCursor, encodeCursor } from '../queries/fundamentals-cursor.ts';
import { symbolSuggestions } from '../queries/resolve.ts';

/** Spec limits: batch symbols, and the page size of the paged list. */
export const MAX_BATCH_SYMBOLS = 100;
export const DEFAULT_PAGE_SIZE = 500;
export const MAX_PAGE_SIZE = 1000;

const SymbolParams = t.Object({ symbol: t.String() });
const ListQuery = t.Object({ symbols: t.Optional(t.String()), market: t.Optional(t.String()), cursor: t.Optional(t.String()), limit: t.Optional(t.String()) });

/** The caller's account, once it is known to carry the fundamentals add-on. */
function entitledAccount(request: Request): Account {
  const account = accountOf(request);
  const denied = addonDenied(account, 'fundamentals');
  if (denied) throw new ApiError('FORBIDDEN', denied);
  return account;
}

function checkMarketEnabled(account: Account, market: string): void {
  const denied = marketDenied(account, market);
  if (denied) throw new ApiError('FORBIDDEN', denied);
}

const COMMA = Buffer.from(',');

/** `head`, the items separated by commas, `tail`: one JSON body without decoding any item. */
function joinJson(head: string, items: readonly Buffer[], tail: string): Buffer {
  const parts: Buffer[] = [Buffer.from(head)];
  items.forEach((item, i) => {
    if (i > 0) parts.push(COMMA);
    parts.push(item);
  });
  parts.push(Buffer.from(tail));
  return Buffer.concat(parts);
}

function jsonBytesResponse(body: Uint8Array): Response {
  return new Response(body, { headers: { 'content-type': JSON_TYPE } });
}

function parseLimit(raw: string | undefined): number {
  if (raw === undefined) return DEFAULT_PAGE_SIZE;
  const text = raw.trim();
  const n = /^\d{1,7}$/.test(text) ? Number(text) : NaN;
  if (!(n >= 1 && n <= MAX_PAGE_SIZE)) throw badRequest(`invalid limit ${quoteInput(raw)}: an integer from 1 to ${MAX_PAGE_SIZE} (default ${DEFAULT_PAGE_SIZE})`);
  return n;
}

export function fundamentalsRoutes(deps: ApiDeps) {
  const { store } = deps;
  let cursorKey: Uint8Array | null = null;
  const key = () => (cursorKey ??= store.fundamentals.cursorKey());

  const single = (account: Account, raw: string): Buffer => {
    try {
      return singleOf(account, raw);
    } catch (err) {
      // `AAPL`, `US-AAPL`: the stocks it was probably meant to be (an unknown symbol's 404 or the format's 400).
      if (err instanceof ApiError && (err.code === 'UNKNOWN_SYMBOL' || err.code === 'BAD_REQUEST')) err.didYouMean = symbolSuggestions(store, 'stocks', raw, account);
      throw err;
    }
  };

  const singleOf = (account: Account, raw: string): Buffer => {
    const symbol = normalizeSymbol('stocks', raw);
    const market = symbol.slice(0, 2);
    checkMarketEnabled(account, market);
    if (!isFundamentalsMarket(market)) throw new ApiError('FUNDAMENTALS_MARKET_NOT_COVERED');
    const json = store.fundamentals.json(symbol);
    if (json) return json;
    throw new ApiError(store.registry.resolve('stocks', symbol) ? 'NO_FUNDAMENTALS' : 'UNKNOWN_SYMBOL');
  };

  const batch = (account: Account, raw: string): Buffer => {
    const requested = raw.split(',').map((s) => s.trim()).filter((s) => s.length > 0);
    if (requested.length === 0) throw badRequest(`symbols is empty: give 1 to ${MAX_BATCH_SYMBOLS} comma-separated CC:SYMBOL, e.g. US:AAPL,DE:SAP`);
    if (requested.length > MAX_BATCH_SYMBOLS) throw badRequest(`too many symbols: at most ${MAX_BATCH_SYMBOLS} per request, got ${requested.length}`);
    // One bad symbol never fails the batch: it is listed in `rejected` with the reason, the rest served.
    const symbols = new Set<string>();
    const rejected: { symbol: string; reason: string }[] = [];
    for (const input of requested) {
      try {
        const symbol = normalizeSymbol('stocks', input);
        const denied = marketDenied(account, symbol.slice(0, 2));
        if (denied) rejected.push({ symbol, reason: denied });
        else symbols.add(symbol);
      } catch (err) {
        rejected.push({ symbol: input, reason: err instanceof ApiError ? err.message : 'invalid symbol' });
      }
    }
    const items: Buffer[] = [];
    const missing: string[] = [];
    for (const symbol of symbols) {
      const json = isFundamentalsMarket(symbol.slice(0, 2)) ? store.fundamentals.json(symbol) : undefined;
      if (json) items.push(json);
      else missing.push(symbol);
    }
    const rejectedJson = rejected.length > 0 ? `,"rejected":${JSON.stringify(rejected)}` : '';
    return joinJson(`{"count":${items.length},"items":[`, items, `],"missing":${JSON.stringify(missing)}${rejectedJson}}`);
  };

  const page = (account: Account, query: { market?: string; cursor?: string; limit?: string }): Buffer => {
    const market = (query.market ?? 'US').trim().toUpperCase();
    if (!isFundamentalsMarket(market)) throw badRequest(`invalid market ${quoteInput(query.market ?? '')}: fundamentals cover the markets ${FUNDAMENTALS_MARKETS.join(', ')}`);
    checkMarketEnabled(account, market);
    const limit = parseLimit(query.limit);
    let after: string | null = null;
    if (query.cursor !== undefined) {
      after = decodeCursor(key(), query.cursor.trim());
      if (after === null) throw badRequest('invalid cursor: pass the next_cursor of the previous page unchanged, or omit cursor for the first page');
      if (after.slice(0, 3) !== `${market}:`) throw badRequest(`invalid cursor: it continues market ${after.slice(0, 2)}, not ${market}; pass the same market on every page`);
    }
    const result = store.fundamentals.page(market, after, limit);
    const next = result.hasMore && result.lastSymbol !== null ? `,"next_cursor":"${encodeCursor(key(), result.lastSymbol)}"` : '';
    return joinJson(`{"market":"${market}","count":${result.items.length},"items":[`, result.items, `]${next}}`);
  };

  return new Elysia({ prefix: '/fundamentals' })
    .get('/stocks/:symbol', ({ params, request }) => jsonBytesResponse(single(entitledAccount(request), params.symbol)), { params: SymbolParams })
    .get(
      '/stocks',
      ({ query, request }) => {
        const account = entitledAccount(request);
        // `market`, `cursor` and `limit` are ignored when `symbols` is present (spec).
        return jsonBytesResponse(query.symbols !== undefined ? batch(account, query.symbols) : page(account, query));
      },
      { query: ListQuery },
    );
}
