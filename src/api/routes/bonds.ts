// The bond-yield routes (issue 8; add-on `bonds`, REST only, no list route per the spec): a
// symbol's latest observation, a country's curve on its latest date or a given one, and a
// symbol's daily history paged like the range route. Every record carries its date and source.
import { Elysia, t } from 'elysia';
import { addonDenied } from '../../domain/account.ts';
import { BOND_TENORS, countryOf, normalizeBondCountry, normalizeBondSymbol, tenorMonths, tenorOf, type BondCountry } from '../../domain/bonds.ts';
import { parseBondDate, parseBondHistoryParams } from '../../domain/bonds-params.ts';
import type { BondYield } from '../../domain/bonds-schemas.ts';
import { ApiError } from '../../domain/errors.ts';
import type { BondPoint } from '../../store/index.ts';
import type { ApiDeps } from '../deps.ts';
import { accountOf } from '../plugins/gate.ts';

const SymbolParams = t.Object({ symbol: t.String() });
const CountryParams = t.Object({ country: t.String() });
const CurveQuery = t.Object({ date: t.Optional(t.String()) });
const HistoryQuery = t.Object({ from: t.Optional(t.String()), to: t.Optional(t.String()), limit: t.Optional(t.String()), offset: t.Optional(t.String()), sort: t.Optional(t.String()) });

function checkAddon(request: Request): void {
  const denied = addonDenied(accountOf(request), 'bonds');
  if (denied) throw new ApiError('FORBIDDEN', denied);
}

function timestampOf(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

export function toBondYield(symbol: string, point: BondPoint): BondYield {
  const tenor = tenorOf(symbol);
  return {
    symbol,
    country: countryOf(symbol),
    tenor,
    maturity_months: tenorMonths(tenor),
    yield: point.yieldPct,
    date: point.date,
    timestamp: timestampOf(point.date),
    source: point.source,
  };
}

export function bondRoutes(deps: ApiDeps) {
  const { store } = deps;

  const symbolsOf = (cc: BondCountry) => BOND_TENORS[cc].map((tenor) => `${cc}:${tenor}`);

  /** The latest date any tenor of the country was observed on, or null. */
  const latestDate = (cc: BondCountry): string | null => {
    let latest: string | null = null;
    for (const symbol of symbolsOf(cc)) {
      const date = store.bonds.latest(symbol)?.date;
      if (date !== undefined && (latest === null || date > latest)) latest = date;
    }
    return latest;
  };

  const curve = (cc: BondCountry, requested: string | undefined): string => {
    const date = requested === undefined ? latestDate(cc) : parseBondDate('date', requested);
    if (date === null) throw new ApiError('NO_CURVE');
    const results: BondYield[] = [];
    for (const symbol of symbolsOf(cc)) {
      const point = store.bonds.on(symbol, date);
      if (point) results.push(toBondYield(symbol, point));
    }
    if (results.length === 0) {
      // A weekend or holiday: say which date before it has a curve.
      let before: string | null = null;
      for (const symbol of symbolsOf(cc)) {
        const d = store.bonds.latestOnOrBefore(symbol, date)?.date;
        if (d !== undefined && (before === null || d > before)) before = d;
      }
      throw new ApiError('NO_CURVE', `no curve available for ${cc} on ${date}${before ? `: the latest observation date before it is ${before}` : ': there is no observation on or before it'}`);
    }
    return JSON.stringify({ country: cc, date, timestamp: timestampOf(date), count: results.length, results });
  };

  return new Elysia({ prefix: '/bonds' })
    .get(
      '/yield/:symbol',
      ({ params, request }) => {
        checkAddon(request);
        const symbol = normalizeBondSymbol(params.symbol);
        const point = store.bonds.latest(symbol);
        if (!point) throw new ApiError('NO_YIELD');
        return JSON.stringify(toBondYield(symbol, point));
      },
      { params: SymbolParams },
    )
    .get(
      '/curve/:country',
      ({ params, query, request }) => {
        checkAddon(request);
        return curve(normalizeBondCountry(params.country), query.date);
      },
      { params: CountryParams, query: CurveQuery },
    )
    .get(
      '/history/:symbol',
      ({ params, query, request }) => {
        checkAddon(request);
        const symbol = normalizeBondSymbol(params.symbol);
        const p = parseBondHistoryParams(query);
        const page = store.bonds.history(symbol, p.from, p.to, p);
        const end = p.offset + page.points.length;
        return JSON.stringify({
          symbol,
          country: countryOf(symbol),
          tenor: tenorOf(symbol),
          from: p.from,
          to: p.to,
          results_count: page.points.length,
          total_count: page.total,
          results: page.points.map((point) => ({ date: point.date, timestamp: timestampOf(point.date), yield: point.yieldPct, source: point.source })),
          next_offset: end < page.total ? end : null,
        });
      },
      { params: SymbolParams, query: HistoryQuery },
    );
}
