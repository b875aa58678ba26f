// The coverage report's rows: one per asset class (`/coverage/{class}/{symbol}`), each with the
// class's symbol pattern and the statuses of the class's bar routes.
import { ASSET_CLASSES } from '../../domain/asset-classes.ts';
import { CoverageSchema } from '../../domain/coverage-schema.ts';
import { CLASS_EXAMPLES } from './class-rows.ts';
import { CoverageQuery, symbolParams } from './params.ts';
import { KEYED, statuses, type RouteRow } from './row.ts';

/** Inside the test clock's short history (Wednesday 2026-03-04 15:30 UTC, two days back). */
const WINDOW = 'from=2026-03-03&to=2026-03-04';

export const coverageRows: RouteRow[] = ASSET_CLASSES.map((assetClass) => {
  const ex = CLASS_EXAMPLES[assetClass];
  return {
    method: 'GET',
    path: `/coverage/${assetClass}/:symbol`,
    operationId: `get${ex.name}Coverage`,
    summary: `which ${assetClass} bar slots inside the market's sessions have a bar, which are quiet (a feed was live, nothing traded) and which are gaps, as merged ranges`,
    tag: 'coverage',
    params: symbolParams(assetClass),
    query: CoverageQuery,
    response: CoverageSchema,
    errors: statuses(KEYED, [403, 404, 503]),
    examples: [`/coverage/${assetClass}/${ex.symbol}?timeframe=1h&${WINDOW}`, `/coverage/${assetClass}/${ex.symbol}`],
    errorExample: { path: `/coverage/${assetClass}/${ex.symbol}?timeframe=2m`, status: 400 },
  };
});
