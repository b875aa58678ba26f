// `GET /coverage/{class}/{symbol}`: which bar slots of a window hold a bar, which are quiet and
// which are gaps. One route per asset class, so the gate applies the class's plan rules to it as
// to the class's own routes; the symbol resolves (and the stock market is checked) as on /agg.
import { Elysia, t } from 'elysia';
import { ASSET_CLASSES } from '../../domain/asset-classes.ts';
import { parseCoverageParams } from '../../domain/coverage-params.ts';
import type { ApiDeps } from '../deps.ts';
import { jsonResponse } from '../http.ts';
import { accountOf } from '../plugins/gate.ts';
import { coverageBody, storeCoverageSource } from '../queries/coverage.ts';
import { resolveSymbol } from '../queries/resolve.ts';

export const COVERAGE_PREFIX = '/coverage';

const SymbolParams = t.Object({ symbol: t.String() });
const CoverageQuery = t.Object({ timeframe: t.Optional(t.String()), from: t.Optional(t.String()), to: t.Optional(t.String()) });

export function coverageRoutes(deps: ApiDeps) {
  // A bar a previous run left in progress (no feed serves the symbol now) has prices all the same.
  const source = storeCoverageSource(deps.store, (symId, tf) => deps.bars.barInProgress(symId, tf) ?? deps.store.openBar(symId, tf));
  let routes = new Elysia({ prefix: COVERAGE_PREFIX });
  for (const assetClass of ASSET_CLASSES) {
    routes = routes.get(
      `/${assetClass}/:symbol`,
      ({ params, query, request }) => {
        const entry = resolveSymbol(deps.store, assetClass, params.symbol, accountOf(request));
        const nowMs = deps.clock.nowMs();
        const body = coverageBody(source, entry, parseCoverageParams(query, nowMs), nowMs);
        // An edge that knows its history is partial says so with every report.
        const cluster = deps.cluster?.status();
        if (cluster?.role === 'edge' && cluster.partialHistory !== null) body.partial_history = cluster.partialHistory;
        return jsonResponse(JSON.stringify(body));
      },
      { params: SymbolParams, query: CoverageQuery },
    ) as unknown as typeof routes;
  }
  return routes;
}
