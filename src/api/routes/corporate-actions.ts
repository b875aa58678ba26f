// The native corporate-action routes: one stock's splits and cash dividends, oldest first, in
// Massive's field names, with the adjustment version the bars adjusted for them carry now (so a
// client can tell whether its cached adjusted history is current without fetching bars).
import { Elysia, t } from 'elysia';
import type { Dividend, Split } from '../../domain/corporate-actions.ts';
import type { DividendItem, SplitItem } from '../../domain/corporate-action-schemas.ts';
import type { ApiDeps } from '../deps.ts';
import { accountOf } from '../plugins/gate.ts';
import { adjustmentScheduleOf } from '../queries/adjustment.ts';
import { resolveSymbol } from '../queries/resolve.ts';

const SymbolParams = t.Object({ symbol: t.String() });

export function splitItem(s: Split): SplitItem {
  return { execution_date: s.date, split_from: s.from, split_to: s.to };
}

export function dividendItem(d: Dividend): DividendItem {
  return { ex_dividend_date: d.exDate, cash_amount: d.cash, pay_date: d.payDate, record_date: d.recordDate, declaration_date: d.declarationDate, frequency: d.frequency, dividend_type: d.dividendType };
}

export function corporateActionRoutes(deps: ApiDeps) {
  const { store } = deps;
  return new Elysia({ prefix: '/stocks' })
    .get(
      '/splits/:symbol',
      ({ params, request }) => {
        const entry = resolveSymbol(store, 'stocks', params.symbol, accountOf(request));
        const results = store.corporateActions.of(entry.symbol).splits.map(splitItem);
        return JSON.stringify({ symbol: entry.symbol, count: results.length, results, adjustment_version: adjustmentScheduleOf(deps, entry, 'split').version });
      },
      { params: SymbolParams },
    )
    .get(
      '/dividends/:symbol',
      ({ params, request }) => {
        const entry = resolveSymbol(store, 'stocks', params.symbol, accountOf(request));
        const results = store.corporateActions.of(entry.symbol).dividends.map(dividendItem);
        return JSON.stringify({ symbol: entry.symbol, count: results.length, results, adjustment_version: adjustmentScheduleOf(deps, entry, 'dividend').version });
      },
      { params: SymbolParams },
    );
}
