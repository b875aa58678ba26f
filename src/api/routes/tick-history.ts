// `GET /{class}/trades/{symbol}` and `/{class}/quotes/{symbol}` (mds addition): a symbol's stored
// ticks over a window, paged by cursor, from the store's tick ring (src/api/queries/tick-history.ts).
// Under each class's prefix, so the gate applies the class's plan rules as on its other routes.
import { Elysia, t } from 'elysia';
import { ASSET_CLASSES } from '../../domain/asset-classes.ts';
import { parseTickQuery, type TickKind } from '../../domain/tick-history.ts';
import type { ApiDeps } from '../deps.ts';
import { jsonResponse } from '../http.ts';
import { accountOf } from '../plugins/gate.ts';
import { tickHistoryBody } from '../queries/tick-history.ts';
import { resolveSymbol } from '../queries/resolve.ts';

const SymbolParams = t.Object({ symbol: t.String() });
const TickQuery = t.Object({ from: t.Optional(t.String()), to: t.Optional(t.String()), limit: t.Optional(t.String()), sort: t.Optional(t.String()), cursor: t.Optional(t.String()) });

/** The path segment of each kind: plural, beside the singular latest-value routes. */
export const TICK_ROUTE: Record<TickKind, string> = { trade: 'trades', quote: 'quotes' };

export function tickHistoryRoutes(deps: ApiDeps) {
  let routes = new Elysia();
  for (const assetClass of ASSET_CLASSES) {
    for (const kind of ['trade', 'quote'] as const) {
      routes = routes.get(
        `/${assetClass}/${TICK_ROUTE[kind]}/:symbol`,
        ({ params, query, request }) => {
          const entry = resolveSymbol(deps.store, assetClass, params.symbol, accountOf(request));
          return jsonResponse(tickHistoryBody(deps.store, entry, parseTickQuery(kind, entry.id, query)));
        },
        { params: SymbolParams, query: TickQuery },
      ) as unknown as typeof routes;
    }
  }
  return routes;
}
