// Runs before routing on every request: request id, key (header `x-api-key`, else query
// `apiKey`), quota and rate, path sanity and the plan's asset classes, so every response, errors
// included, carries X-Request-Id and the X-RateLimit-* headers.
import type { Account } from '../../domain/account.ts';
import { classAccessDenied } from '../../domain/account.ts';
import { ASSET_CLASSES, CLASS_POLICY, type AssetClass } from '../../domain/asset-classes.ts';
import type { Clock } from '../../clock.ts';
import type { Authenticator, Charge } from '../../auth/authenticator.ts';
import type { ErrorCode } from '../../domain/errors.ts';
import { errorResponse, JSON_TYPE, nextRequestId } from '../http.ts';
import { CONSOLE_ASSETS_PREFIX, CONSOLE_PATH } from '../../console/paths.ts';
import { DOCS_ASSETS_PREFIX, DOCS_PATH } from '../routes/docs-paths.ts';

export const MAX_URL_LENGTH = 2048;
// `/docs/` and `/console/` too: the router answers them as `/docs` and `/console`.
const OPEN_PATHS = new Set(['/health', '/openapi.json', '/asyncapi.json', DOCS_PATH, `${DOCS_PATH}/`, CONSOLE_PATH, `${CONSOLE_PATH}/`]);
/** The pages' scripts, styles and images, open like the pages (checked only once a path is not in OPEN_PATHS). */
const isPageAsset = (path: string) => path.startsWith(DOCS_ASSETS_PREFIX) || path.startsWith(CONSOLE_ASSETS_PREFIX);
/**
 * Symbol lists open to any key (spec: perpetuals), whatever the key's plan. A set of whole paths:
 * `path`'s hash is already computed for OPEN_PATHS, where indexing a table by the sliced class
 * name would hash a fresh string on every request (measured: +0.28 µs per gate pass).
 */
const OPEN_LIST_PATHS: ReadonlySet<string> = new Set(ASSET_CLASSES.filter((c) => CLASS_POLICY[c].listOpenToAnyKey).map((c) => `/${c}/symbols`));

/**
 * The account each request runs as, for handlers that check markets and add-ons: a property of the
 * request under a private symbol. (A WeakMap from requests was 30% of the gate's time: an entry
 * per request and weak-table work in every collection.)
 */
const ACCOUNT: unique symbol = Symbol('mds.account');
type WithAccount = Request & { [ACCOUNT]?: Account };

function setAccount(request: Request, account: Account): void {
  (request as WithAccount)[ACCOUNT] = account;
}

export function accountOf(request: Request): Account {
  const account = (request as WithAccount)[ACCOUNT];
  if (!account) throw new Error('request passed the gate without an account');
  return account;
}

/** The asset class a path belongs to (`/v1/etfs/...` is etfs, `/coverage/crypto/...` crypto), or null. */
export function classOfPath(path: string): string | null {
  const end = path.indexOf('/', 1);
  let first = end < 0 ? path.slice(1) : path.slice(1, end);
  if (first === 'coverage' && end > 0) {
    const next = path.indexOf('/', end + 1);
    return next < 0 ? path.slice(end + 1) : path.slice(end + 1, next);
  }
  if (first === 'v1') {
    const next = path.indexOf('/', 4);
    first = next < 0 ? path.slice(4) : path.slice(4, next);
  }
  return first;
}

/**
 * `/{class}/` path prefixes (and `/v1/etfs/`) by the path's second character. The gate runs on
 * every request: matching prefixes in place allocates nothing, where slicing the first segment
 * and looking it up hashes a fresh string each time.
 */
const CLASS_PREFIXES: [prefix: string, cls: AssetClass][][] = [];
// The coverage report of a class's symbol (`/coverage/{class}/...`) follows the class's rules too;
// listed last, so the class routes' own prefixes are tried first.
const COVERAGE_PREFIXES = ASSET_CLASSES.map((c): [string, AssetClass] => [`/coverage/${c}/`, c]);
for (const [prefix, cls] of [...ASSET_CLASSES.map((c): [string, AssetClass] => [`/${c}/`, c]), ['/v1/etfs/', 'etfs'] as [string, AssetClass], ...COVERAGE_PREFIXES]) {
  (CLASS_PREFIXES[prefix.charCodeAt(1)] ??= []).push([prefix, cls]);
}

/** The asset class whose routes a path is under, or null. */
export function assetClassOfPath(path: string): AssetClass | null {
  const candidates = CLASS_PREFIXES[path.charCodeAt(1)];
  if (candidates !== undefined) for (const [prefix, cls] of candidates) if (path.startsWith(prefix)) return cls;
  return null;
}

/** The key sent with a request: the header wins over the query parameter. */
function presentedKey(request: Request, url: string, queryAt: number): string | null {
  const header = request.headers.get('x-api-key');
  if (header !== null) return header;
  if (queryAt < 0) return null;
  return new URLSearchParams(url.slice(queryAt + 1)).get('apiKey');
}

/**
 * How a family of routes takes its key and words its refusals: the native API's, or a vendor's
 * under `/compat/` (src/api/compat). The same keys, plans and limits answer either way.
 */
export interface GateDialect {
  /** The key a request presents, or null. */
  keyOf(request: Request, url: string, queryAt: number): string | null;
  /** A refusal in the dialect's error body; `set.headers` (request id, rate) are merged by the app. */
  refuse(code: ErrorCode, requestId: string, message?: string, headers?: Record<string, string>): Response;
  /**
   * Paths the dialect serves to a request that presents no key (Alpaca's crypto data), and the
   * account they run as, when the server allows it; such requests are limited per client address.
   */
  keyless?: { allows(path: string): boolean; account: Account };
}

/** The native API's dialect: `x-api-key` or `?apiKey=`, the error body of the spec. */
export const NATIVE_DIALECT: GateDialect = { keyOf: presentedKey, refuse: errorResponse };

/** Where the compatibility routes live: every dialect other than the native one is under it. */
export const COMPAT_PREFIX = '/compat/';

/** A dialect and the path prefix (under COMPAT_PREFIX) whose requests it takes. */
export interface CompatDialect {
  prefix: string;
  dialect: GateDialect;
}

/** The dialect of a path under COMPAT_PREFIX; native when none claims it. */
export function dialectOfPath(path: string, dialects: readonly CompatDialect[]): GateDialect {
  for (const d of dialects) if (path.startsWith(d.prefix) && (path.length === d.prefix.length || path.charCodeAt(d.prefix.length) === 47)) return d.dialect;
  return NATIVE_DIALECT;
}

/** Decimal text of a number, remembered for the last value asked (limits and resets repeat). */
function numberText(): (n: number) => string {
  let last = Number.NaN;
  let text = '';
  return (n) => (n === last ? text : ((last = n), (text = String(n))));
}

const limitText = numberText();
const resetText = numberText();

function setRateHeaders(headers: Record<string, string | number>, charge: Charge): void {
  headers['x-ratelimit-limit'] = limitText(charge.limit);
  headers['x-ratelimit-remaining'] = String(charge.remaining);
  headers['x-ratelimit-reset'] = resetText(Math.ceil(charge.resetMs / 1000));
}

const isReadMethod = (method: string) => method === 'GET' || method === 'HEAD';
/** Every path, open ones included, answers other methods alike (the router would say 404 on open paths). */
const notAllowed = (requestId: string, dialect: GateDialect = NATIVE_DIALECT) => dialect.refuse('METHOD_NOT_ALLOWED', requestId, undefined, { allow: 'GET, HEAD' });

export interface GateContext {
  request: Request;
  set: { headers: Record<string, string | number> };
}

/** The peer address of a request, asked of the server only when needed. */
export type PeerAddress = (request: Request) => string | undefined;

/**
 * Runs a request through the app again (the app's `handle`). On a cluster node a request that
 * finds its key's lease empty while a new one is under way waits for it and is then answered
 * by a second pass, which charges it: the gate stays synchronous on every other path.
 */
export type Redispatch = (request: Request) => Promise<Response>;

export function createGate(auth: Authenticator, clock: Clock, peerAddress: PeerAddress, compat: readonly CompatDialect[] = [], redispatch?: Redispatch) {
  // The server's one limiter for keyless requests, shared with the stream's upgrade.
  const anonLimiter = auth.anonymous;

  return function gate({ request, set }: GateContext): Response | Promise<Response> | undefined {
    const requestId = nextRequestId();
    const headers = set.headers;
    headers['x-request-id'] = requestId;
    // Every body is JSON; handlers on hot routes return the body as a string and Elysia builds
    // the response straight from these headers (no per-response merge).
    headers['content-type'] = JSON_TYPE;
    const url = request.url;
    const pathStart = url.indexOf('/', url.indexOf('//') + 2);
    const queryAt = url.indexOf('?', pathStart);
    const path = queryAt < 0 ? url.slice(pathStart) : url.slice(pathStart, queryAt);

    if (OPEN_PATHS.has(path) || isPageAsset(path)) {
      // Open paths count against nothing: the headers say where the caller's keyless limit stands.
      const state = anonLimiter.peek(peerAddress(request) ?? 'unknown');
      setRateHeaders(headers, { allowed: state.allowed, limit: anonLimiter.limit, remaining: state.remaining, resetMs: state.resetMs });
      return isReadMethod(request.method) ? undefined : notAllowed(requestId);
    }
    // The one prefix check native requests pay: compatibility routes take their key and word their
    // refusals as their vendor does, through the same keys, plans and limits.
    const dialect = path.startsWith(COMPAT_PREFIX) ? dialectOfPath(path, compat) : NATIVE_DIALECT;
    const key = dialect.keyOf(request, url, queryAt);
    const result = key === null || key.length === 0 ? null : auth.authenticate(key);
    if (result === null && dialect.keyless !== undefined && dialect.keyless.allows(path)) {
      // A keyless request the dialect serves (the server allowed it): limited per client address.
      const state = anonLimiter.take(peerAddress(request) ?? 'unknown');
      setRateHeaders(headers, { allowed: state.allowed, limit: anonLimiter.limit, remaining: state.remaining, resetMs: state.resetMs });
      if (!state.allowed) return tooMany(headers, state.resetMs, requestId, clock, dialect);
      if (!isReadMethod(request.method)) return notAllowed(requestId, dialect);
      setAccount(request, dialect.keyless.account);
      return undefined;
    }
    if (result === null || !result.ok) {
      // Without a valid key, the client address is what is limited.
      // Looked up only here: asking the server for the peer address costs on every request.
      const state = anonLimiter.take(peerAddress(request) ?? 'unknown');
      setRateHeaders(headers, { allowed: state.allowed, limit: anonLimiter.limit, remaining: state.remaining, resetMs: state.resetMs });
      if (!state.allowed) return tooMany(headers, state.resetMs, requestId, clock, dialect);
      return dialect.refuse(result === null ? 'MISSING_KEY' : result.code, requestId, result?.message);
    }
    const account = result.account;
    const charge = auth.charge(account);
    if (!charge.allowed) {
      // Nothing was counted: the second pass (after the lease) charges the call.
      if (charge.pending !== undefined && redispatch !== undefined) return charge.pending.then(() => redispatch(request));
      setRateHeaders(headers, charge);
      if (charge.pending !== undefined || charge.unavailable === true) return quotaUnavailable(headers, requestId, dialect);
      return tooMany(headers, charge.resetMs, requestId, clock, dialect);
    }
    setRateHeaders(headers, charge);
    if (url.length > MAX_URL_LENGTH) return dialect.refuse('BAD_REQUEST', requestId, `request URL too long: at most ${MAX_URL_LENGTH} characters`);
    if (!isReadMethod(request.method)) return notAllowed(requestId, dialect);
    const cls = assetClassOfPath(path);
    // A class whose symbol list is open to any key (spec: perpetuals) still guards every other route.
    if (cls !== null && !OPEN_LIST_PATHS.has(path)) {
      const denied = classAccessDenied(account, cls);
      if (denied) return errorResponse('FORBIDDEN', requestId, denied);
    }
    setAccount(request, account);
    return undefined;
  };
}

/** A cluster node with nothing left of a key's lease and no way to a new one: never served without one. */
function quotaUnavailable(headers: Record<string, string | number>, requestId: string, dialect: GateDialect): Response {
  headers['retry-after'] = '1';
  return dialect.refuse('QUOTA_UNAVAILABLE', requestId);
}

function tooMany(headers: Record<string, string | number>, resetMs: number, requestId: string, clock: Clock, dialect: GateDialect): Response {
  headers['retry-after'] = String(Math.max(1, Math.ceil((resetMs - clock.nowMs()) / 1000)));
  return dialect.refuse('RATE_LIMITED', requestId);
}

/**
 * The gate's refusal of a missing or bad key, for an endpoint outside the router (`/mcp`): the same
 * error bodies, and the same keyless limiter. Null when the key is good (its calls are then
 * charged per REST call they make, not here).
 */
export function createKeyRefusal(auth: Authenticator, clock: Clock, peerAddress: PeerAddress) {
  const anonLimiter = auth.anonymous;
  return function keyRefusal(request: Request, key: string | null): Response | null {
    const result = key === null || key.length === 0 ? null : auth.authenticate(key);
    if (result !== null && result.ok) return null;
    const requestId = nextRequestId();
    const headers: Record<string, string> = { 'x-request-id': requestId };
    const state = anonLimiter.take(peerAddress(request) ?? 'unknown');
    setRateHeaders(headers, { allowed: state.allowed, limit: anonLimiter.limit, remaining: state.remaining, resetMs: state.resetMs });
    if (!state.allowed) {
      headers['retry-after'] = String(Math.max(1, Math.ceil((state.resetMs - clock.nowMs()) / 1000)));
      return errorResponse('RATE_LIMITED', requestId, undefined, headers);
    }
    return errorResponse(result === null ? 'MISSING_KEY' : result.code, requestId, result?.message, headers);
  };
}
