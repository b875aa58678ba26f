// `GET /{class}/indicators/{sma|ema|rsi|macd}/{symbol}`: an indicator over the class's bars of a
// window, paged like the range route. One route per asset class under the class's own prefix, so
// the gate applies the class's plan rules; the symbol resolves as on /agg.
import { Elysia, t } from 'elysia';
import { ASSET_CLASSES } from '../../domain/asset-classes.ts';
import { parseIndicatorParams, type IndicatorParams } from '../../domain/indicators/params.ts';
import type { SymbolEntry } from '../../domain/instrument.ts';
import { TIMEFRAME_INFO } from '../../domain/timeframes.ts';
import type { ApiDeps } from '../deps.ts';
import { jsonResponse } from '../http.ts';
import { accountOf } from '../plugins/gate.ts';
import { indicatorSeries, pageOf } from '../queries/indicators.ts';
import { resolveSymbol } from '../queries/resolve.ts';

const IndicatorPath = t.Object({ indicator: t.String(), symbol: t.String() });
const IndicatorQuery = t.Object({
  timespan: t.Optional(t.String()),
  multiplier: t.Optional(t.String()),
  window: t.Optional(t.String()),
  short_window: t.Optional(t.String()),
  long_window: t.Optional(t.String()),
  signal_window: t.Optional(t.String()),
  series_type: t.Optional(t.String()),
  from: t.Optional(t.String()),
  to: t.Optional(t.String()),
  limit: t.Optional(t.String()),
  offset: t.Optional(t.String()),
  sort: t.Optional(t.String()),
});

export function indicatorRoutes(deps: ApiDeps) {
  let routes = new Elysia();
  for (const assetClass of ASSET_CLASSES) {
    routes = routes.get(
      `/${assetClass}/indicators/:indicator/:symbol`,
      ({ params, query, request }) => {
        // Parameters first: a bad one is a 400 whatever the symbol.
        const p = parseIndicatorParams(params.indicator, query, deps.clock.nowMs());
        const entry = resolveSymbol(deps.store, assetClass, params.symbol, accountOf(request));
        return jsonResponse(JSON.stringify(indicatorBody(deps, entry, p)));
      },
      { params: IndicatorPath, query: IndicatorQuery },
    ) as unknown as typeof routes;
  }
  return routes;
}

function indicatorBody(deps: ApiDeps, entry: SymbolEntry, p: IndicatorParams): Record<string, unknown> {
  const series = indicatorSeries(deps, entry, p.spec, p.series, p.tf, p.fromMs, p.toMs);
  const { page, nextOffset } = pageOf(series.points, p.offset, p.limit, p.sort);
  const info = TIMEFRAME_INFO[p.tf];
  const windows =
    p.spec.kind === 'macd' ? { short_window: p.spec.shortWindow, long_window: p.spec.longWindow, signal_window: p.spec.signalWindow } : { window: p.spec.window };
  return {
    symbol: entry.symbol,
    indicator: p.spec.kind,
    multiplier: info.multiplier,
    timespan: info.timespan,
    series_type: p.series,
    ...windows,
    warmup_count: series.warmupCount,
    skipped_count: series.skippedCount,
    results_count: page.length,
    total_count: series.points.length,
    results: page.map((point) => (point.signal === undefined ? { t: point.t, value: point.value } : { t: point.t, value: point.value, signal: point.signal, histogram: point.histogram })),
    next_offset: nextOffset,
  };
}
