// The per-class REST routes of the spec, built once per asset class (and again for /v1/etfs).
// Handlers parse, call a query, serialize; class differences live in the class tables. Bodies are
// returned as strings: the gate has set the JSON content type, so Elysia answers without a merge.
import { Elysia, t } from 'elysia';
import { CLASS_POLICY, COMPOSITE_CLASSES, type AssetClass } from '../../domain/asset-classes.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import { badRequest } from '../../domain/errors.ts';
import { parseRangeParams } from '../../domain/range-params.ts';
import { quoteInput } from '../../domain/symbols.ts';
import { isTimeframe, TIMEFRAMES } from '../../domain/timeframes.ts';
import type { ApiDeps } from '../deps.ts';
import { isNotModified } from '../conditional.ts';
import { JSON_TYPE, jsonResponse } from '../http.ts';
import { accountOf } from '../plugins/gate.ts';
import { latestSettledBar } from '../queries/bars.ts';
import { compositeQuoteBody, compositeSnapshotBody, compositeTradeBody, markBody } from '../queries/composites.ts';
import { lastTradeOf, quoteBody, snapshotOf } from '../queries/latest.ts';
import { resolveSymbol } from '../queries/resolve.ts';
import { barSessionFieldsJson, sessionQuoteBody, sessionSnapshotBody, sessionTradeBody, withFields } from '../queries/session-fields.ts';
import { rangeBody } from '../range-body.ts';
import { adjustedRangeBody } from '../adjusted-range-body.ts';
import { adjustmentScheduleOf } from '../queries/adjustment.ts';
import { adjustBar, parseAdjustment, type Adjustment } from '../../domain/adjustment.ts';
import type { RangeParams } from '../../domain/range-params.ts';
import { barJson } from '../serialize.ts';
import { symbolListBody } from './symbol-lists.ts';

const SymbolParams = t.Object({ symbol: t.String() });
const RangePath = t.Object({ symbol: t.String(), multiplier: t.String(), timespan: t.String(), from: t.String(), to: t.String() });
const RangeQuery = t.Object({ limit: t.Optional(t.String()), offset: t.Optional(t.String()), sort: t.Optional(t.String()), adjustment: t.Optional(t.String()) });
const PrevQuery = t.Object({ interval: t.Optional(t.String()), adjustment: t.Optional(t.String()) });
const SymbolsQuery = t.Object({ market: t.Optional(t.String()) });

type Body = (deps: ApiDeps, entry: SymbolEntry) => string;

/** The latest-value bodies of a class; composite classes add the mark. */
interface LatestBodies {
  quote: Body;
  trade: Body;
  snapshot: Body;
  mark: Body | null;
}

const STORED_LATEST: LatestBodies = {
  quote: quoteBody,
  trade: (deps, entry) => JSON.stringify(lastTradeOf(deps, entry)),
  snapshot: (deps, entry) => JSON.stringify(snapshotOf(deps, entry)),
  mark: null,
};

/** Perpetual futures: every value is the composite as of the request, with `source_count`. */
const COMPOSITE_LATEST: LatestBodies = { quote: compositeQuoteBody, trade: compositeTradeBody, snapshot: compositeSnapshotBody, mark: markBody };

/** The US overnight session: the stored values plus the session they were made in. */
const SESSION_LATEST: LatestBodies = { quote: sessionQuoteBody, trade: sessionTradeBody, snapshot: sessionSnapshotBody, mark: null };

/** An adjusted range answer: its body, or a 304 when the client holds its tag. */
function adjustedRangeResponse(deps: ApiDeps, entry: SymbolEntry, range: RangeParams, adjustment: Exclude<Adjustment, 'raw'>, ifNoneMatch: string | null): Response {
  const { body, etag } = adjustedRangeBody(deps, entry, range, adjustment);
  if (isNotModified(ifNoneMatch, etag)) return new Response(null, { status: 304, headers: { etag } });
  return new Response(body, { status: 200, headers: { 'content-type': JSON_TYPE, etag } });
}

/** A range answer: the raw body's bytes, or an adjusted answer (200 or 304) as a Response. */
function rangeAnswer(deps: ApiDeps, entry: SymbolEntry, range: RangeParams, adjustmentParam: string | undefined, ifNoneMatch: string | null) {
  const adjustment = adjustmentParam === undefined ? 'raw' : parseAdjustment(adjustmentParam);
  return adjustment === 'raw' ? rangeBody(deps, entry, range) : adjustedRangeResponse(deps, entry, range, adjustment, ifNoneMatch);
}

export function classRoutes(assetClass: AssetClass, deps: ApiDeps, prefix: string = `/${assetClass}`) {
  const { store } = deps;
  const hasSessionFields = CLASS_POLICY[assetClass].sessionFields === true;
  const latest = COMPOSITE_CLASSES.has(assetClass) ? COMPOSITE_LATEST : hasSessionFields ? SESSION_LATEST : STORED_LATEST;
  /** A handler for `/:symbol` routes: resolves the path symbol for the account, answers `body(entry)`. */
  const bySymbol =
    (body: (entry: SymbolEntry) => string) =>
    ({ params, request }: { params: { symbol: string }; request: Request }) => {
      const text = body(resolveSymbol(store, assetClass, params.symbol, accountOf(request)));
      if (text) return text;
    };
  const routes = new Elysia({ prefix })
    // Hot handlers end in `if (body) return body;`, never `return f(...)`: Elysia reads a handler's
    // source, takes `=> f(` or `return f(` for possibly async, and then awaits every request (and
    // Bun's transpiler folds `const body = f(); return body;` back into `return f()`).
    .get(
      '/symbols',
      ({ query, request }) => {
        const body = symbolListBody(store, assetClass, accountOf(request), query.market);
        if (body) return body;
      },
      { query: SymbolsQuery },
    )
    .get('/quote/:symbol', bySymbol((entry) => latest.quote(deps, entry)), { params: SymbolParams })
    .get('/trade/last/:symbol', bySymbol((entry) => latest.trade(deps, entry)), { params: SymbolParams })
    .get('/snapshot/:symbol', bySymbol((entry) => latest.snapshot(deps, entry)), { params: SymbolParams })
    .get(
      '/agg/:symbol/prev',
      ({ params, query, request }) => {
        const entry = resolveSymbol(store, assetClass, params.symbol, accountOf(request));
        const interval = query.interval;
        if (interval !== undefined && !isTimeframe(interval)) {
          throw badRequest(`invalid interval ${quoteInput(interval)}: allowed values are ${TIMEFRAMES.join(', ')}`);
        }
        const adjustment = parseAdjustment(query.adjustment);
        const settled = latestSettledBar(deps, entry, interval ?? '1d');
        const schedule = adjustment === 'raw' ? null : adjustmentScheduleOf(deps, entry, adjustment);
        const bar = schedule ? adjustBar(schedule, settled.bar) : settled.bar;
        const result = barJson(new Float64Array([bar.t, bar.o, bar.h, bar.l, bar.c, bar.v ?? NaN]), 0);
        const plain =
          interval === undefined
            ? `{"symbol":${JSON.stringify(entry.symbol)},"result":${result}}`
            : `{"symbol":${JSON.stringify(entry.symbol)},"result":${result},"interval":"${interval}","bar_start":${bar.t},"bar_end":${settled.barEndMs},"as_of":${settled.asOfMs}}`;
        // The session the bar lies in (a daily bar of a session class is one whole session).
        const sessioned = hasSessionFields ? withFields(plain, barSessionFieldsJson(deps, entry, bar.t, interval ?? '1d')) : plain;
        const body = schedule ? withFields(sessioned, `,"adjustment":"${adjustment}","adjustment_version":"${schedule.version}"`) : sessioned;
        // An adjusted answer's tag starts with its version: a new action is a new tag.
        const etag = schedule ? `"${schedule.version}-${Bun.hash(body).toString(36)}"` : `"${Bun.hash(body).toString(36)}"`;
        const maxAge = Math.max(1, Math.ceil((settled.nextChangeMs - deps.clock.nowMs()) / 1000));
        const headers = { etag, 'cache-control': `public, max-age=${maxAge}` };
        if (isNotModified(request.headers.get('if-none-match'), etag)) return new Response(null, { status: 304, headers });
        return jsonResponse(body, 200, headers);
      },
      { params: SymbolParams, query: PrevQuery },
    )
    .get(
      '/agg/:symbol/:multiplier/:timespan/:from/:to',
      // Bytes assembled from cached encoded bars; Elysia answers them with the gate's headers.
      ({ params, query, request, set }) => {
        const entry = resolveSymbol(store, assetClass, params.symbol, accountOf(request));
        const range = parseRangeParams(params, query);
        set.headers['content-type'] = JSON_TYPE;
        // One call whose value is tested before it is returned: Elysia takes a handler whose source
        // returns a call's value for one that may return a promise, and compiles it slower.
        const body = rangeAnswer(deps, entry, range, query.adjustment, request.headers.get('if-none-match'));
        if (body) return body;
      },
      { params: RangePath, query: RangeQuery },
    );
  const mark = latest.mark;
  if (mark === null) return routes;
  return routes.get('/mark/:symbol', bySymbol((entry) => mark(deps, entry)), { params: SymbolParams });
}
