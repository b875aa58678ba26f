// The tick history rows (`/{class}/trades/{symbol}`, `/{class}/quotes/{symbol}`): one pair per
// asset class, with the class's symbol pattern, the native query and the 422 of a window reaching
// before the retained ticks.
import { Type as T } from '@sinclair/typebox';
import { ASSET_CLASSES } from '../../domain/asset-classes.ts';
import { QuoteHistorySchema, TICK_LIMIT_DEFAULT, TICK_LIMIT_MAX, TradeHistorySchema } from '../../domain/tick-history.ts';
import { CLASS_EXAMPLES } from './class-rows.ts';
import { symbolParams } from './params.ts';
import { KEYED, statuses, type RouteRow } from './row.ts';

const edge = (which: string) =>
  T.String({ description: `${which}: a date YYYY-MM-DD (${which === 'from' ? 'its start' : 'the whole day'}), Unix ms or an ISO 8601 instant with a zone (that instant, included)` });

export const TickQuery = T.Object({
  from: T.Optional(edge('from')),
  to: T.Optional(edge('to')),
  limit: T.Optional(T.Integer({ minimum: 1, maximum: TICK_LIMIT_MAX, default: TICK_LIMIT_DEFAULT, description: `ticks per page, 1 to ${TICK_LIMIT_MAX}` })),
  sort: T.Optional(T.Union([T.Literal('asc'), T.Literal('desc')], { default: 'desc', description: 'by seq (the order the tape recorded them); default desc, newest first' })),
  cursor: T.Optional(T.String({ description: 'the next_cursor of the previous page, with the same from, to and sort' })),
});

export const tickRows: RouteRow[] = ASSET_CLASSES.flatMap((assetClass) => {
  const ex = CLASS_EXAMPLES[assetClass];
  const name = ex.name;
  const common = { method: 'GET' as const, tag: assetClass, params: symbolParams(assetClass), query: TickQuery, errors: statuses(KEYED, [403, 404, 422, 503]) };
  return [
    {
      ...common,
      path: `/${assetClass}/trades/:symbol`,
      operationId: `list${name}Trades`,
      summary: `${assetClass} trades of a window, from the ticks the store retains (the last --ring-capacity per symbol), paged by cursor; a window before the oldest retained trade is a 422`,
      response: TradeHistorySchema,
      examples: [`/${assetClass}/trades/${ex.symbol}?limit=5`, `/${assetClass}/trades/${ex.symbol}?sort=asc&limit=3`],
      errorExample: { path: `/${assetClass}/trades/${ex.symbol}?from=2000-01-03`, status: 422 },
    },
    {
      ...common,
      path: `/${assetClass}/quotes/:symbol`,
      operationId: `list${name}Quotes`,
      summary: `${assetClass} quotes of a window, from the ticks the store retains, paged by cursor; a window before the oldest retained quote is a 422`,
      response: QuoteHistorySchema,
      examples: [`/${assetClass}/quotes/${ex.symbol}?limit=5`],
      errorExample: { path: `/${assetClass}/quotes/${ex.symbol}?sort=sideways`, status: 400 },
    },
  ];
});
