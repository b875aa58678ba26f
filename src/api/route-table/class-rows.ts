// The per-class rows of the route table (spec: "Per-class routes"), built from the class tables the
// routes themselves read: which shapes a class answers (plain, composite with `source_count`, or
// with the overnight session) is decided here once, like in class-routes.ts.
import type { TSchema } from '@sinclair/typebox';
import { CLASS_POLICY, COMPOSITE_CLASSES, type AssetClass, type ClassPolicy } from '../../domain/asset-classes.ts';
import { OvernightPrevBarSchema, OvernightQuoteSchema, OvernightSnapshotSchema, OvernightSymbolsSchema, OvernightTradeSchema } from '../../domain/overnight-schemas.ts';
import { CompositeQuoteSchema, CompositeSnapshotSchema, CompositeTradeSchema, MarkSchema } from '../../domain/perpetuals-schemas.ts';
import {
  CryptoSymbolsSchema, LastTradeSchema, PlainSymbolsSchema, PrevBarSchema, QuoteSchema, RangeSchema, SnapshotSchema, SnapshotWithLastSizeSchema,
  SnapshotWithoutLastSizeSchema, StockSymbolsSchema,
} from '../../domain/schemas.ts';
import { PrevQuery, RangeQuery, rangeParams, StockSymbolsQuery, symbolParams } from './params.ts';
import { KEYED, statuses, type RouteRow } from './row.ts';

/** A known and an unknown (well-formed) symbol per class: the examples of the table. */
export const CLASS_EXAMPLES: Record<AssetClass, { symbol: string; unknown: string; name: string }> = {
  crypto: { symbol: 'BTCUSD', unknown: 'NOPEUSD', name: 'Crypto' },
  forex: { symbol: 'EURUSD', unknown: 'ZZZZZZ', name: 'Forex' },
  stocks: { symbol: 'US:AAPL', unknown: 'US:ZZZZZ', name: 'Stocks' },
  indices: { symbol: 'US500', unknown: 'ZZ99', name: 'Indices' },
  etfs: { symbol: 'US500ETF', unknown: 'ZZZETF', name: 'Etfs' },
  commodities: { symbol: 'XAUUSD', unknown: 'ZZZUSD', name: 'Commodities' },
  perpetuals: { symbol: 'BTCUSDT', unknown: 'ZZZUSDT', name: 'Perpetuals' },
  overnight: { symbol: 'US:AAPL', unknown: 'US:ZZZZZ', name: 'Overnight' },
};

/** Two UTC days ending on the test clock's date (Wednesday 2026-03-04), inside every short history. */
const RANGE_WINDOW = '2026-03-03/2026-03-04';

/** The snapshot schema that states the class's `last_size` rule. */
const SNAPSHOT_BY_LAST_SIZE: Record<ClassPolicy['snapshotLastSize'], TSchema> = {
  always: SnapshotWithLastSizeSchema,
  'when-known': SnapshotSchema,
  never: SnapshotWithoutLastSizeSchema,
};

interface Shapes {
  symbols: TSchema;
  quote: TSchema;
  trade: TSchema;
  snapshot: TSchema;
  prev: TSchema;
}

function shapesOf(assetClass: AssetClass): Shapes {
  if (COMPOSITE_CLASSES.has(assetClass)) return { symbols: PlainSymbolsSchema, quote: CompositeQuoteSchema, trade: CompositeTradeSchema, snapshot: CompositeSnapshotSchema, prev: PrevBarSchema };
  if (CLASS_POLICY[assetClass].sessionFields === true) {
    return { symbols: OvernightSymbolsSchema, quote: OvernightQuoteSchema, trade: OvernightTradeSchema, snapshot: OvernightSnapshotSchema, prev: OvernightPrevBarSchema };
  }
  const symbols = assetClass === 'crypto' ? CryptoSymbolsSchema : assetClass === 'stocks' ? StockSymbolsSchema : PlainSymbolsSchema;
  return { symbols, quote: QuoteSchema, trade: LastTradeSchema, snapshot: SNAPSHOT_BY_LAST_SIZE[CLASS_POLICY[assetClass].snapshotLastSize], prev: PrevBarSchema };
}

/** The rows of one class's routes under `prefix` (ETFs are mounted again at `/v1/etfs`). */
export function classRows(assetClass: AssetClass, prefix: string = `/${assetClass}`): RouteRow[] {
  const shapes = shapesOf(assetClass);
  const ex = CLASS_EXAMPLES[assetClass];
  const id = `${prefix === `/${assetClass}` ? '' : 'V1'}${ex.name}`;
  const tag = assetClass;
  const listOpen = CLASS_POLICY[assetClass].listOpenToAnyKey;
  // Any failure to read a class's data answers the class's 503 (spec: Errors).
  const bySymbolErrors = statuses(KEYED, [403, 404, 503]);
  const params = symbolParams(assetClass);
  const unknown = (route: string) => ({ path: `${prefix}/${route}/${ex.unknown}`, status: 404 as const });
  const rows: RouteRow[] = [
    {
      method: 'GET',
      path: `${prefix}/symbols`,
      operationId: `list${id}Symbols`,
      summary: `${assetClass} symbol list${listOpen ? ' (open to any key, whatever its plan)' : ''}`,
      tag,
      ...(assetClass === 'stocks' ? { query: StockSymbolsQuery } : {}),
      response: shapes.symbols,
      errors: statuses(KEYED, listOpen ? [503] : [403, 503]),
      examples: assetClass === 'stocks' ? [`${prefix}/symbols?market=US`, `${prefix}/symbols`] : [`${prefix}/symbols`],
      errorExample: assetClass === 'stocks' ? { path: `${prefix}/symbols?market=U1`, status: 400 } : { path: `${prefix}/symbols`, status: 401, withoutKey: true },
    },
    {
      method: 'GET',
      path: `${prefix}/quote/:symbol`,
      operationId: `get${id}Quote`,
      summary: `latest ${assetClass} quote`,
      tag,
      params,
      response: shapes.quote,
      errors: bySymbolErrors,
      examples: [`${prefix}/quote/${ex.symbol}`, ...(assetClass === 'forex' ? [`${prefix}/quote/${ex.symbol}.RAW`] : [])],
      errorExample: unknown('quote'),
    },
    {
      method: 'GET',
      path: `${prefix}/trade/last/:symbol`,
      operationId: `get${id}LastTrade`,
      summary: `last ${assetClass} trade`,
      tag,
      params,
      response: shapes.trade,
      errors: bySymbolErrors,
      examples: [`${prefix}/trade/last/${ex.symbol}`],
      errorExample: unknown('trade/last'),
    },
    {
      method: 'GET',
      path: `${prefix}/snapshot/:symbol`,
      operationId: `get${id}Snapshot`,
      summary: `${assetClass} snapshot: quote, last trade, previous close and change`,
      tag,
      params,
      response: shapes.snapshot,
      errors: bySymbolErrors,
      examples: [`${prefix}/snapshot/${ex.symbol}`],
      errorExample: unknown('snapshot'),
    },
    {
      method: 'GET',
      path: `${prefix}/agg/:symbol/prev`,
      operationId: `get${id}PrevBar`,
      summary: `previous completed UTC daily ${assetClass} bar, or with interval the latest settled bar of that size`,
      tag,
      params,
      query: PrevQuery,
      response: shapes.prev,
      errors: bySymbolErrors,
      examples: [`${prefix}/agg/${ex.symbol}/prev`, `${prefix}/agg/${ex.symbol}/prev?interval=1h`],
      errorExample: { path: `${prefix}/agg/${ex.symbol}/prev?interval=2m`, status: 400 },
    },
    {
      method: 'GET',
      path: `${prefix}/agg/:symbol/:multiplier/:timespan/:from/:to`,
      operationId: `get${id}Range`,
      summary: `${assetClass} OHLCV bars between two UTC dates, paged`,
      tag,
      params: rangeParams(assetClass),
      query: RangeQuery,
      response: RangeSchema,
      errors: bySymbolErrors,
      examples: [`${prefix}/agg/${ex.symbol}/1/hour/${RANGE_WINDOW}?limit=5&sort=asc`, `${prefix}/agg/${ex.symbol}/1/day/${RANGE_WINDOW}`],
      errorExample: { path: `${prefix}/agg/${ex.symbol}/1/week/${RANGE_WINDOW}`, status: 400 },
    },
  ];
  if (COMPOSITE_CLASSES.has(assetClass)) {
    rows.push({
      method: 'GET',
      path: `${prefix}/mark/:symbol`,
      operationId: `get${id}Mark`,
      summary: 'composite mark: the mid of the median bid and the median ask of the live sources',
      tag,
      params,
      response: MarkSchema,
      errors: bySymbolErrors,
      examples: [`${prefix}/mark/${ex.symbol}`],
      errorExample: unknown('mark'),
    });
  }
  return rows;
}
