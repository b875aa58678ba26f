// Runs before routing on every request: request id, path sanity, API key check and rate limit,
// so every response, errors included, carries X-Request-Id and the X-RateLimit-* headers.
import { timingSafeEqual, createHash } from 'node:crypto';
import type { ApiDeps } from '../deps.ts';
import { errorResponse, nextRequestId } from '../http.ts';
import { FixedWindowLimiter } from './rate-limit.ts';

export const MAX_URL_LENGTH = 2048;
/** Requests per minute per client address for requests without a valid key. */
export const ANONYMOUS_PER_MINUTE = 120;
const OPEN_PATHS = new Set(['/health']);

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}

export interface GateContext {
  request: Request;
  set: { headers: Record<string, string | number> };
  server: { requestIP(req: Request): { address: string } | null } | null;
}

/** A constant-time check of a presented key against the development key. */
export function createKeyCheck(devKey: string): (key: string) => boolean {
  const devKeyDigest = digest(devKey);
  return (key) => key.length > 0 && key.length <= 256 && timingSafeEqual(digest(key), devKeyDigest);
}

/** Client addresses of requests, filled by the server in front of the app. */
const clientAddresses = new WeakMap<Request, string>();

export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address) clientAddresses.set(request, address);
}

export function createGate(deps: ApiDeps) {
  const isKey = createKeyCheck(deps.devKey);
  const keyLimiter = new FixedWindowLimiter(deps.rateLimitPerMinute, 60_000, deps.clock);
  const anonLimiter = new FixedWindowLimiter(ANONYMOUS_PER_MINUTE, 60_000, deps.clock);

  return function gate({ request, set, server }: GateContext): Response | undefined {
    const requestId = nextRequestId();
    const headers = set.headers;
    headers['x-request-id'] = requestId;
    const url = request.url;
    const pathStart = url.indexOf('/', url.indexOf('//') + 2);
    const queryAt = url.indexOf('?', pathStart);
    const path = queryAt < 0 ? url.slice(pathStart) : url.slice(pathStart, queryAt);

    if (OPEN_PATHS.has(path)) {
      headers['x-ratelimit-limit'] = String(deps.rateLimitPerMinute);
      headers['x-ratelimit-remaining'] = String(deps.rateLimitPerMinute);
      return undefined;
    }
    const key = request.headers.get('x-api-key');
    const isValid = key !== null && isKey(key);
    const limiter = isValid ? keyLimiter : anonLimiter;
    const bucket = isValid ? key : (clientAddresses.get(request) ?? server?.requestIP(request)?.address ?? 'unknown');
    const state = limiter.take(bucket);
    headers['x-ratelimit-limit'] = String(limiter.limit);
    headers['x-ratelimit-remaining'] = String(state.remaining);
    headers['x-ratelimit-reset'] = String(Math.ceil(state.resetMs / 1000));
    if (!state.allowed) {
      headers['retry-after'] = String(Math.max(1, Math.ceil((state.resetMs - deps.clock.nowMs()) / 1000)));
      return errorResponse('RATE_LIMITED', requestId);
    }
    if (url.length > MAX_URL_LENGTH) {
      return errorResponse('BAD_REQUEST', requestId, `request URL too long: at most ${MAX_URL_LENGTH} characters`);
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') return errorResponse('METHOD_NOT_ALLOWED', requestId);
    if (key === null || key.length === 0) return errorResponse('MISSING_KEY', requestId);
    if (!isValid) return errorResponse('INVALID_KEY', requestId);
    return undefined;
  };
}
