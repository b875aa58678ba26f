// The Massive-compatible tick history routes (`/v3/trades/{ticker}`, `/v3/quotes/{ticker}`), a
// group of their own beside massive/routes.ts: handlers translate, massive/ticks.ts answers.
import { Elysia, t } from 'elysia';
import type { ApiDeps } from '../../deps.ts';
import { accountOf } from '../../plugins/gate.ts';
import { MASSIVE_PREFIX } from './dialect.ts';
import { tickHistoryBody } from './ticks.ts';

const opt = () => t.Optional(t.String());
const Ticker = t.Object({ ticker: t.String() });
const TickQuery = t.Object({
  timestamp: opt(), 'timestamp.gte': opt(), 'timestamp.gt': opt(), 'timestamp.lte': opt(), 'timestamp.lt': opt(), order: opt(), limit: opt(), sort: opt(), cursor: opt(), apiKey: opt(),
});

const requestIdOf = (set: { headers: Record<string, string | number> }) => String(set.headers['x-request-id'] ?? '');
/** Where `next_url` points: this server, as the client reached it. */
const originOf = (request: Request) => new URL(request.url).origin;

export function massiveTickRoutes(deps: ApiDeps) {
  return new Elysia({ prefix: MASSIVE_PREFIX })
    .get('/v3/trades/:ticker', ({ params, query, request, set }) => tickHistoryBody(deps, accountOf(request), 'trade', params.ticker, query, requestIdOf(set), originOf(request)), { params: Ticker, query: TickQuery })
    .get('/v3/quotes/:ticker', ({ params, query, request, set }) => tickHistoryBody(deps, accountOf(request), 'quote', params.ticker, query, requestIdOf(set), originOf(request)), { params: Ticker, query: TickQuery });
}
