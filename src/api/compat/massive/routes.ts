// The Massive (formerly Polygon.io) compatible REST routes under /compat/massive: the vendor's paths
// and envelopes over the native queries. Handlers translate; they own no data rules.
import { Elysia, t } from 'elysia';
import type { ApiDeps } from '../../deps.ts';
import { accountOf } from '../../plugins/gate.ts';
import { aggsBody, groupedBody, prevBody } from './aggs.ts';
import { MASSIVE_PREFIX } from './dialect.ts';
import { lastCryptoTradeBody, lastCurrencyQuoteBody, lastQuoteBody, lastTradeBody, snapshotBody, snapshotsBody } from './latest.ts';
import { cryptoOpenCloseBody, openCloseBody, tickerDetailsBody } from './details.ts';
import { marketStatusBody, tickersBody, upcomingBody } from './reference.ts';
import { requestOrigin } from '../../request-origin.ts';
import { indicesSnapshotBody, snapshotV3Body } from './snapshot-v3.ts';
import { dividendsBody, splitsBody } from './corporate-actions.ts';

const Ticker = t.Object({ ticker: t.String() });
const Pair = t.Object({ from: t.String(), to: t.String() });
const DateParam = t.Object({ date: t.String() });
const AggsPath = t.Object({ ticker: t.String(), multiplier: t.String(), timespan: t.String(), from: t.String(), to: t.String() });
const AggsQuery = t.Object({ adjusted: t.Optional(t.String()), sort: t.Optional(t.String()), limit: t.Optional(t.String()), cursor: t.Optional(t.String()), apiKey: t.Optional(t.String()) });
const AdjustedQuery = t.Object({ adjusted: t.Optional(t.String()), include_otc: t.Optional(t.String()), apiKey: t.Optional(t.String()) });
const KeyQuery = t.Object({ apiKey: t.Optional(t.String()) });
const TickersQuery = t.Object({ tickers: t.Optional(t.Union([t.String(), t.Array(t.String())])), include_otc: t.Optional(t.String()), apiKey: t.Optional(t.String()) });
const ListQuery = t.Object({
  ticker: t.Optional(t.String()), type: t.Optional(t.String()), market: t.Optional(t.String()), exchange: t.Optional(t.String()), search: t.Optional(t.String()),
  active: t.Optional(t.String()), order: t.Optional(t.String()), limit: t.Optional(t.String()), sort: t.Optional(t.String()), cursor: t.Optional(t.String()), apiKey: t.Optional(t.String()),
});

const OpenClosePath = t.Object({ ticker: t.String(), date: t.String() });
const CryptoOpenClosePath = t.Object({ from: t.String(), to: t.String(), date: t.String() });
const DetailsQuery = t.Object({ date: t.Optional(t.String()), apiKey: t.Optional(t.String()) });
const SnapshotV3Query = t.Object({
  'ticker.any_of': t.Optional(t.String()), ticker: t.Optional(t.String()), 'ticker.gte': t.Optional(t.String()), 'ticker.gt': t.Optional(t.String()), 'ticker.lte': t.Optional(t.String()), 'ticker.lt': t.Optional(t.String()),
  type: t.Optional(t.String()), order: t.Optional(t.String()), limit: t.Optional(t.String()), sort: t.Optional(t.String()), cursor: t.Optional(t.String()), apiKey: t.Optional(t.String()),
});
const dated = (field: string) => Object.fromEntries(['', '.gt', '.gte', '.lt', '.lte'].map((s) => [`${field}${s}`, t.Optional(t.String())]));
const paged = { ticker: t.Optional(t.String()), order: t.Optional(t.String()), limit: t.Optional(t.String()), sort: t.Optional(t.String()), cursor: t.Optional(t.String()), apiKey: t.Optional(t.String()) };
const SplitsQuery = t.Object({ ...paged, ...dated('execution_date'), reverse_split: t.Optional(t.String()) });
const DividendsQuery = t.Object({
  ...paged, ...dated('ex_dividend_date'), ...dated('record_date'), ...dated('declaration_date'), ...dated('pay_date'),
  cash_amount: t.Optional(t.String()), frequency: t.Optional(t.String()), dividend_type: t.Optional(t.String()),
});

const requestIdOf = (set: { headers: Record<string, string | number> }) => String(set.headers['x-request-id'] ?? '');
/** `tickers`, comma-separated or repeated (the SDK repeats the parameter for an array). */
const tickersOf = (request: Request) => new URL(request.url).searchParams.getAll('tickers').join(',');
/** Where `next_url` points: this server, as the client reached it (through a TLS proxy too). */
const originOf = requestOrigin;

export function massiveRoutes(deps: ApiDeps) {
  return new Elysia({ prefix: MASSIVE_PREFIX })
    .get('/v2/aggs/ticker/:ticker/range/:multiplier/:timespan/:from/:to', ({ params, query, request, set }) => aggsBody(deps, accountOf(request), params, query, requestIdOf(set), originOf(request)), { params: AggsPath, query: AggsQuery })
    .get('/v2/aggs/ticker/:ticker/prev', ({ params, query, request, set }) => prevBody(deps, accountOf(request), params.ticker, query, requestIdOf(set)), { params: Ticker, query: AdjustedQuery })
    .get('/v2/aggs/grouped/locale/us/market/stocks/:date', ({ params, query, request, set }) => groupedBody(deps, accountOf(request), 'stocks', params.date, query, requestIdOf(set)), { params: DateParam, query: AdjustedQuery })
    .get('/v2/aggs/grouped/locale/global/market/crypto/:date', ({ params, query, request, set }) => groupedBody(deps, accountOf(request), 'crypto', params.date, query, requestIdOf(set)), { params: DateParam, query: AdjustedQuery })
    .get('/v2/aggs/grouped/locale/global/market/fx/:date', ({ params, query, request, set }) => groupedBody(deps, accountOf(request), 'forex', params.date, query, requestIdOf(set)), { params: DateParam, query: AdjustedQuery })
    .get('/v2/last/trade/:ticker', ({ params, request, set }) => lastTradeBody(deps, accountOf(request), params.ticker, requestIdOf(set)), { params: Ticker, query: KeyQuery })
    .get('/v2/last/nbbo/:ticker', ({ params, request, set }) => lastQuoteBody(deps, accountOf(request), params.ticker, requestIdOf(set)), { params: Ticker, query: KeyQuery })
    .get('/v1/last/crypto/:from/:to', ({ params, request, set }) => lastCryptoTradeBody(deps, accountOf(request), params.from, params.to, requestIdOf(set)), { params: Pair, query: KeyQuery })
    .get('/v1/last_quote/currencies/:from/:to', ({ params, request, set }) => lastCurrencyQuoteBody(deps, accountOf(request), params.from, params.to, requestIdOf(set)), { params: Pair, query: KeyQuery })
    .get('/v2/snapshot/locale/us/markets/stocks/tickers', ({ request, set }) => snapshotsBody(deps, accountOf(request), 'stocks', tickersOf(request), requestIdOf(set)), { query: TickersQuery })
    .get('/v2/snapshot/locale/us/markets/stocks/tickers/:ticker', ({ params, request, set }) => snapshotBody(deps, accountOf(request), 'stocks', params.ticker, requestIdOf(set)), { params: Ticker, query: KeyQuery })
    .get('/v2/snapshot/locale/global/markets/crypto/tickers', ({ request, set }) => snapshotsBody(deps, accountOf(request), 'crypto', tickersOf(request), requestIdOf(set)), { query: TickersQuery })
    .get('/v2/snapshot/locale/global/markets/crypto/tickers/:ticker', ({ params, request, set }) => snapshotBody(deps, accountOf(request), 'crypto', params.ticker, requestIdOf(set)), { params: Ticker, query: KeyQuery })
    .get('/v2/snapshot/locale/global/markets/forex/tickers', ({ request, set }) => snapshotsBody(deps, accountOf(request), 'forex', tickersOf(request), requestIdOf(set)), { query: TickersQuery })
    .get('/v2/snapshot/locale/global/markets/forex/tickers/:ticker', ({ params, request, set }) => snapshotBody(deps, accountOf(request), 'forex', params.ticker, requestIdOf(set)), { params: Ticker, query: KeyQuery })
    .get('/v1/marketstatus/now', () => marketStatusBody(deps), { query: KeyQuery })
    .get('/v1/marketstatus/upcoming', () => upcomingBody(deps), { query: KeyQuery })
    .get('/v3/reference/splits', ({ query, request, set }) => splitsBody(deps, accountOf(request), query, requestIdOf(set), originOf(request)), { query: SplitsQuery })
    .get('/v3/reference/dividends', ({ query, request, set }) => dividendsBody(deps, accountOf(request), query, requestIdOf(set), originOf(request)), { query: DividendsQuery })
    .get('/v3/reference/tickers', ({ query, request, set }) => tickersBody(deps, accountOf(request), query, requestIdOf(set), originOf(request)), { query: ListQuery })
    .get('/v3/reference/tickers/:ticker', ({ params, request, set }) => tickerDetailsBody(deps, accountOf(request), params.ticker, requestIdOf(set)), { params: Ticker, query: DetailsQuery })
    .get('/v1/open-close/crypto/:from/:to/:date', ({ params, request }) => cryptoOpenCloseBody(deps, accountOf(request), params.from, params.to, params.date), { params: CryptoOpenClosePath, query: AdjustedQuery })
    .get('/v1/open-close/:ticker/:date', ({ params, request }) => openCloseBody(deps, accountOf(request), params.ticker, params.date), { params: OpenClosePath, query: AdjustedQuery })
    .get('/v3/snapshot', ({ query, request, set }) => snapshotV3Body(deps, accountOf(request), query, requestIdOf(set), originOf(request)), { query: SnapshotV3Query })
    .get('/v3/snapshot/indices', ({ query, request, set }) => indicesSnapshotBody(deps, accountOf(request), query, requestIdOf(set), originOf(request)), { query: SnapshotV3Query });
}
