// A refused upgrade, answered like a REST error: the JSON error body with its request id in
// X-Request-Id, and for refusals counted by the keyless limiter its X-RateLimit-* headers (and
// Retry-After on 429).
import { randomBytes } from 'node:crypto';

const bootId = randomBytes(4).toString('hex');
let counter = 0;

export interface RateState {
  limit: number;
  remaining: number;
  resetMs: number;
}

export function refusal(status: number, message: string, rate?: RateState, nowMs?: number): Response {
  const requestId = `ws-${bootId}-${(++counter).toString(36)}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-request-id': requestId };
  if (rate) {
    headers['x-ratelimit-limit'] = String(rate.limit);
    headers['x-ratelimit-remaining'] = String(rate.remaining);
    headers['x-ratelimit-reset'] = String(Math.ceil(rate.resetMs / 1000));
    if (status === 429 && nowMs !== undefined) headers['retry-after'] = String(Math.max(1, Math.ceil((rate.resetMs - nowMs) / 1000)));
  }
  return new Response(JSON.stringify({ status, error: message, request_id: requestId }), { status, headers });
}
