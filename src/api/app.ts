// The Elysia application: the gate, the per-class routes (ETFs mounted twice), the legacy
// symbol list, the key's own account, health, the OpenAPI and AsyncAPI documents, the /docs and
// /console pages, and one error handler that renders every error the same way.
import { Elysia } from 'elysia';
import type { Server } from 'bun';
import { ASSET_CLASSES, isAssetClass } from '../domain/asset-classes.ts';
import { ApiError } from '../domain/errors.ts';
import { UNAVAILABLE_ERROR } from '../domain/symbols.ts';
import type { ApiDeps } from './deps.ts';
import { healthResponse } from './health.ts';
import { errorResponse, jsonResponse, renderError } from './http.ts';
import { buildAsyncApi } from './asyncapi.ts';
import { buildOpenApi } from './openapi.ts';
import { accountOf, classOfPath, createGate, type GateContext, type PeerAddress } from './plugins/gate.ts';
import { accountRoutes } from './routes/account.ts';
import { classRoutes } from './routes/class-routes.ts';
import { bondRoutes } from './routes/bonds.ts';
import { corporateActionRoutes } from './routes/corporate-actions.ts';
import { consoleRoutes } from './routes/console.ts';
import { coverageRoutes } from './routes/coverage.ts';
import { docsRoutes } from './routes/docs.ts';
import { economicCalendarRoutes } from './routes/economic-calendar.ts';
import { fundamentalsRoutes } from './routes/fundamentals.ts';
import { indicatorRoutes } from './routes/indicators.ts';
import { marketRoutes } from './routes/markets.ts';
import { legacySymbolsBody } from './routes/symbol-lists.ts';
import { tickHistoryRoutes } from './routes/tick-history.ts';
import { ROUTE_TABLE } from './route-table/index.ts';
import { asLogger, stderrLogger, type LineLog, type Logger } from '../log.ts';
import type { RequestMetrics } from './request-metrics.ts';
import { COMPAT_DIALECTS, COMPAT_DIALECTS_KEYLESS_CRYPTO, compatDialectOf, compatRouteGroups } from './compat/compat-routes.ts';

/** A handler Bun's router calls directly, in front of the app (the stream's upgrade on `/`). */
export type NativeRoute = (request: Request, server: Server<any>) => Response | undefined | Promise<Response | undefined>;

export interface AppOptions {
  /** Bun-native routes served next to the app's own on the same port. */
  nativeRoutes?: Record<string, NativeRoute>;
  /** The client address of a request (limits keyless requests per address). */
  peerAddress?: PeerAddress;
  /** Where requests are counted for /metrics; absent (metrics off): no hook is added at all. */
  requests?: RequestMetrics;
  /** The server itself speaks TLS (`--tls-cert`): the AsyncAPI document names `wss`. */
  tls?: boolean;
  /** Serve Alpaca's crypto data routes to requests without a key (`--keyless-crypto`); off when absent. */
  keylessCrypto?: boolean;
}

/** `log` takes the service Logger or a sentence sink (tests); by default failures go to stderr as text. */
export function createApp(deps: ApiDeps, log: Logger | LineLog = stderrLogger(deps.clock), opts: AppOptions = {}) {
  const logger = asLogger(log);
  // A request that waits for a cluster node's lease is answered by a second pass through the app.
  let handle = (_request: Request): Promise<Response> => Promise.reject(new Error('the app is not built yet'));
  const gate = createGate(deps.auth, deps.clock, opts.peerAddress ?? (() => undefined), opts.keylessCrypto === true ? COMPAT_DIALECTS_KEYLESS_CRYPTO : COMPAT_DIALECTS, (request) => handle(request));
  const startedMs = deps.clock.nowMs();
  // Built once: the document only changes with the code.
  const openApiJson = JSON.stringify(buildOpenApi(ROUTE_TABLE));
  const asyncApiJson = JSON.stringify(buildAsyncApi({ tls: opts.tls === true }));
  const requests = opts.requests;
  /** The error handler's answer: errors of handlers, unknown paths, bad parameters. */
  const renderFailure = (code: string, error: unknown, requestId: string, request: Request): Response => {
    // The compatibility routes answer in their vendor's error body (src/api/compat).
    const dialect = compatDialectOf(new URL(request.url).pathname);
    if (dialect !== null && (error instanceof ApiError || code === 'NOT_FOUND' || code === 'VALIDATION' || code === 'PARSE')) {
      if (error instanceof ApiError) return dialect.refuse(error.code, requestId, error.message);
      if (code === 'NOT_FOUND') return dialect.refuse('NOT_FOUND', requestId, `not found: ${new URL(request.url).pathname.slice(0, 100)} is not a route this server answers`);
      return dialect.refuse('BAD_REQUEST', requestId, 'invalid request: each query parameter may be given once, as text');
    }
    if (error instanceof ApiError) return renderError(error, requestId);
    if (code === 'NOT_FOUND') return errorResponse('NOT_FOUND', requestId, `not found: no route ${new URL(request.url).pathname.slice(0, 100)}; see docs/rest.md for the routes`);
    if (code === 'VALIDATION' || code === 'PARSE') return errorResponse('BAD_REQUEST', requestId, 'invalid request: each query parameter may be given once, as text');
    const path = new URL(request.url).pathname;
    // The path only: a query string may carry the API key (?apiKey=).
    // The stack as a field keeps a text line one line (quoted) and the JSON msg short.
    logger.error(`request failed: ${error instanceof Error ? error.message : String(error)}`, { request_id: requestId, method: request.method, route: path, stack: error instanceof Error ? error.stack : undefined });
    // A market-data route whose data cannot be read answers its class's 503 (spec: Errors).
    const cls = classOfPath(path);
    if (cls === 'fundamentals' || cls === 'bonds' || cls === 'calendar') return errorResponse('MARKET_DATA_UNAVAILABLE', requestId);
    return cls !== null && isAssetClass(cls) ? errorResponse(UNAVAILABLE_ERROR[cls], requestId) : errorResponse('INTERNAL', requestId);
  };
  // precompile: every route's handler is compiled at start, so no first request pays for it;
  // served with listen(), each route is also registered in Bun's native router.
  let base = new Elysia({ precompile: true, serve: opts.nativeRoutes ? { routes: opts.nativeRoutes } : undefined })
    // Destructured, so Elysia sees what the gate reads and builds nothing else per request (cookies,
    // body, a server getter).
    .onRequest(
      requests
        ? ({ request, set }) => {
            requests.begin(request);
            const refusal = gate({ request, set } as GateContext);
            if (refusal) {
              // A request waiting for a lease (a promise) is counted by its second pass.
              if (refusal instanceof Response) requests.refused(request, refusal.status);
              return refusal;
            }
          }
        : // Not `=> gate(...)`: Elysia takes a hook whose source reads `=> f(` for async and awaits it.
          ({ request, set }) => {
            const refusal = gate({ request, set } as GateContext);
            if (refusal) return refusal;
          },
    )
    .onError(
      requests
        ? ({ code, error, set, request, route }) => {
            const response = renderFailure(String(code), error, String(set.headers['x-request-id'] ?? ''), request);
            // An unknown path has no route (Elysia leaves it unset), and is counted as unmatched.
            requests.answered(code === 'NOT_FOUND' ? undefined : route, response.status, request);
            return response;
          }
        : // Without metrics no hook reads `route`, so Elysia does not set it on each request.
          ({ code, error, set, request }) => renderFailure(String(code), error, String(set.headers['x-request-id'] ?? ''), request),
    );
  // Added only with metrics on. The hook reads the route template Elysia sets as a literal in each
  // compiled handler (`route`), never the path: labels stay bounded and carry no symbol or query.
  if (requests) {
    base = base.onAfterHandle(({ route, set, response, request }) => {
      requests.answered(route, response instanceof Response ? response.status : typeof set.status === 'number' ? set.status : 200, request);
    }) as unknown as typeof base;
  }
  let app = base
    .get('/health', () => healthResponse(deps, startedMs))
    .get('/openapi.json', () => jsonResponse(openApiJson))
    .get('/asyncapi.json', () => jsonResponse(asyncApiJson))
    .get('/symbols', ({ request }) => jsonResponse(legacySymbolsBody(deps.store, accountOf(request))));
  for (const cls of ASSET_CLASSES) app = app.use(classRoutes(cls, deps)) as unknown as typeof app;
  app = app.use(accountRoutes(deps)) as unknown as typeof app;
  app = app.use(marketRoutes(deps)) as unknown as typeof app;
  app = app.use(fundamentalsRoutes(deps)) as unknown as typeof app;
  app = app.use(bondRoutes(deps)) as unknown as typeof app;
  app = app.use(corporateActionRoutes(deps)) as unknown as typeof app;
  app = app.use(economicCalendarRoutes(deps)) as unknown as typeof app;
  app = app.use(coverageRoutes(deps)) as unknown as typeof app;
  app = app.use(indicatorRoutes(deps)) as unknown as typeof app;
  app = app.use(tickHistoryRoutes(deps)) as unknown as typeof app;
  for (const group of compatRouteGroups(deps)) app = app.use(group) as unknown as typeof app;
  app = app.use(docsRoutes()) as unknown as typeof app;
  app = app.use(consoleRoutes(logger)) as unknown as typeof app;
  const served = app.use(classRoutes('etfs', deps, '/v1/etfs'));
  requests?.setRoutes(served.routes.map((r) => r.path));
  handle = (request) => served.handle(request);
  return served;
}

