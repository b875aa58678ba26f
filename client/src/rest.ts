// The REST client: a method per route (generated from the route table), `get` by path template,
// the key in `x-api-key`, every answer but a 200 thrown as an MdsError; and `stream()` for the
// WebSocket stream of the same server and key.
import { buildUrl, defaultFetch, errorOf, type FetchLike } from './http.ts';
import { MdsStream, type StreamOptions } from './stream.ts';
import { OPERATIONS, OperationMethods, type OperationId, type Operations, type RequestOptions } from './generated.ts';

export interface ClientOptions {
  /** Where mds listens, e.g. `http://127.0.0.1:8080` (a path prefix is kept). */
  baseUrl: string;
  /** Sent as `x-api-key`; `/health` and `/openapi.json` need none. */
  apiKey?: string;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
  /** Default: the global fetch. */
  fetch?: FetchLike;
}

/** Route paths as the server registers them (`/crypto/quote/:symbol`). */
export type RoutePath = Operations[OperationId]['path'];
/** The operationId of the route at a path. */
export type OperationAt<P extends RoutePath> = { [O in OperationId]: Operations[O]['path'] extends P ? O : never }[OperationId];
/** `get`'s arguments after the path: none, optional or required as the route's parameters are. */
type ArgsFor<O extends OperationId> =
  Operations[O]['args'] extends Record<string, never>
    ? [args?: undefined, options?: RequestOptions]
    : Partial<Operations[O]['args']> extends Operations[O]['args']
      ? [args?: Operations[O]['args'], options?: RequestOptions]
      : [args: Operations[O]['args'], options?: RequestOptions];

export class MdsClient extends OperationMethods {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  private readonly headers: Record<string, string>;
  private readonly fetchFn: FetchLike;

  constructor(options: ClientOptions) {
    super();
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.apiKey = options.apiKey;
    this.headers = { accept: 'application/json', ...options.headers, ...(options.apiKey !== undefined && { 'x-api-key': options.apiKey }) };
    this.fetchFn = options.fetch ?? defaultFetch();
  }

  /** Any route by its path template: `get('/crypto/quote/:symbol', { symbol: 'BTCUSD' })`. */
  get<P extends RoutePath>(path: P, ...[args, options]: ArgsFor<OperationAt<P>>): Promise<Operations[OperationAt<P>]['response']> {
    const id = (Object.keys(OPERATIONS) as OperationId[]).find((o) => OPERATIONS[o].path === path);
    if (id === undefined) return Promise.reject(new TypeError(`no route ${path}`));
    return this.call(id as OperationAt<P>, args as Operations[OperationAt<P>]['args'] | undefined, options);
  }

  /** A stream client for this server and key (not connected until it subscribes or is iterated). */
  stream(options: Omit<StreamOptions, 'url' | 'apiKey'> = {}): MdsStream {
    const url = new URL(`${this.baseUrl}/`);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    if (this.apiKey !== undefined) url.searchParams.set('apiKey', this.apiKey);
    // A dashboard wants the newest price, not every tick: conflate unless asked otherwise.
    return new MdsStream({ url: url.toString(), ...(this.apiKey !== undefined && { apiKey: this.apiKey }), fetch: this.fetchFn, slow: 'conflate', ...options });
  }

  protected async call<O extends OperationId>(operationId: O, args: Operations[O]['args'] | undefined, options: RequestOptions | undefined): Promise<Operations[O]['response']> {
    const op: { path: string; pathParams: readonly string[]; bodyOn503?: true } = OPERATIONS[operationId];
    const url = buildUrl(this.baseUrl, op.path, op.pathParams, args as Record<string, unknown> | undefined);
    const res = await this.fetchFn(url, { method: 'GET', headers: { ...this.headers, ...options?.headers }, ...(options?.signal && { signal: options.signal }) });
    // Health answers 503 with its own shape (not ready): that is an answer, not an error.
    if (res.status === 200 || (res.status === 503 && op.bodyOn503 === true)) return JSON.parse(await res.text()) as Operations[O]['response'];
    throw await errorOf(res, url);
  }
}
